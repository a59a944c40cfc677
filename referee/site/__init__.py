"""The static match site: ``referee site MATCH`` writes browsable HTML pages
of one match from its ``turns/`` archive alone (see ``build.py``)."""
