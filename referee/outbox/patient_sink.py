"""A sink that waits out an SMTP server refusing everything.

A 5xx is final for the recipient it names (``PermanentMailError.refused``), but
a 5xx to the greeting, MAIL FROM or DATA names no recipient: it is the server
(misconfigured, over quota, in maintenance) more often than the mail.  Taken as
final, every mail queued during such an hour would be set aside for good; this
wrapper turns it into a temporary failure, so the outbox retries with its
backoff (ten tries over about 17 hours) and the mail goes out once the server
accepts again.  A mail still refused after that is set aside as before.
"""
from __future__ import annotations

from referee.mail.errors import PermanentMailError, TemporaryMailError


class PatientSink:
    def __init__(self, sink) -> None:
        self.sink = sink

    def send(self, msg) -> None:
        self._patiently(self.sink.send, msg)

    def send_bytes(self, data: bytes, sender: str, rcpts: list[str]) -> None:
        self._patiently(self.sink.send_bytes, data, sender, rcpts)

    def close(self) -> None:
        self.sink.close()

    @staticmethod
    def _patiently(send, *args) -> None:
        try:
            send(*args)
        except PermanentMailError as e:
            if e.refused or e.delivered or e.code is None or not 500 <= e.code < 600:
                raise   # a recipient refused, or some got it already: a retry would not help or would duplicate
            raise TemporaryMailError(f"{e} (the server refused the message itself; tried again later)",
                                     code=e.code) from e
