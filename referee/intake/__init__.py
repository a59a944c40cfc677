"""Intake: from a player's mail to a checked envelope and orders (pure, no store).

``read_document(mail)`` finds and safely loads the one YAML document,
``read_envelope(doc)`` checks its top level, ``check_orders(...)`` checks the
``orders:`` mapping against a game; every problem is a ``Located`` with its
line and column in the mail as sent and its text in English and German.
"""
from .document import Document, read_document, read_text
from .envelope import Envelope, read_envelope
from .orders import check_orders
from .problems import Located, referee_problem
from .ratelimit import Bucket, Decision, RateLimit
from .safe_yaml import YamlRefused
from .safe_yaml import load as safe_load

__all__ = [
    "Bucket", "Decision", "Document", "Envelope", "Located", "RateLimit", "YamlRefused",
    "check_orders", "read_document", "read_envelope", "read_text", "referee_problem", "safe_load",
]
