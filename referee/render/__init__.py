"""Text, HTML and calendar parts of every mail and report (Jinja2, with a report's shared parts
rendered once), deadlines in words, and the standings a report shows."""
