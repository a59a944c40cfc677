"""Sending what the referee queued: once, with retries (``sender``), the report references its rows
hold, and a sink that waits out a refusing SMTP server."""
