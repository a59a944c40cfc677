"""Whether a mail's From is proven: the verdict on its sender.

Two sources, in this order:

1. The ``Authentication-Results`` field (RFC 8601) written by the receiving
   server the operator names (its authserv-id, ``authentication.authserv_id``
   in referee.yaml).  Anyone can write such a field into a mail, so only the
   topmost one carrying a trusted id counts; one with another id, or one with
   the trusted id further down (already in the mail when the server took it
   in), is ignored.  The server must remove fields with its own id from the
   mail it receives (RFC 8601, section 5), as Postfix's and Rspamd's filters do.
2. Where no trusted result is there: the referee's own DKIM check (dkimpy)
   of the signatures whose domain is the From's (or a parent of it), their
   keys looked up through DNS (dnspython) within one time budget for the whole
   mail.  The look-up is a function (``txt``) so tests answer from a local table.

The DNS is asked only where a verdict matters: ``judge(..., lookups=False)``
answers from what is known (trusted results, cached keys, domains that lately
did not answer) and otherwise gives a verdict ``later``, whose ``passed`` or
``failed`` raise ``Deferred``; the caller then judges again with look-ups,
outside any transaction.  A domain whose look-up timed out is not asked again
for ``DOWN_SECONDS``: a flood of its mail waits for the DNS once.

The verdict is ``pass`` (DMARC passed, or a DKIM signature of the From's
domain verified), ``fail`` (DMARC failed, or such a signature does not
verify: the From is forged or the mail was altered), ``none`` (nothing
proves or disproves it), ``off`` (not judged) or ``later`` (not judged yet:
it needs the DNS).  Reading is linear and capped; nothing here raises on a
hostile mail.
"""
from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger("referee.senderauth")

MAX_HEAD = 64_000        # bytes of header section read (as parse_inbound keeps)
MAX_RESULTS = 20         # Authentication-Results fields looked at
MAX_SIGNATURES = 3       # DKIM signatures of the From's domain verified, at most
MAX_TXT = 4_000          # bytes of a DNS key record taken (a 4096-bit key needs ~800)
CACHE_SIZE = 512         # DNS answers kept
CACHE_SECONDS = 600.0
DOWN_SIZE = 256          # domains remembered as not answering
DOWN_SECONDS = 300.0     # for this long

Txt = Callable[[str, float], "bytes | None"]   # (name, timeout) -> the TXT record, None if there is none


class DnsTrouble(Exception):
    """The DNS did not answer in time (or at all): no verdict can be drawn."""


class Deferred(Exception):
    """A verdict that needs the DNS was read (``later``): judge the sender again
    with look-ups, outside any transaction, then read it again."""


class _WouldAsk(Exception):
    """A key is not cached and the DNS may not be asked yet."""


@dataclass(frozen=True)
class Verdict:
    result: str            # "pass" | "fail" | "none" | "off" | "later"
    method: str = ""       # "authentication-results" | "dkim" | ""
    domain: str = ""       # the From's domain that was judged
    detail: str = ""       # why, in a few ASCII words (for the log and the store)

    @property
    def passed(self) -> bool:
        return self._known() == "pass"

    @property
    def failed(self) -> bool:
        return self._known() == "fail"

    @property
    def later(self) -> bool:
        return self.result == "later"

    def _known(self) -> str:
        if self.result == "later":   # whoever asks needs the verdict: the DNS must be asked now
            raise Deferred(self.domain)
        return self.result


OFF = Verdict("off")


@dataclass(frozen=True)
class Trust:
    """What the operator trusts (referee.yaml ``authentication`` and ``strangers``)."""
    authserv_ids: tuple[str, ...] = ()    # receiving servers whose Authentication-Results count
    dkim: bool = True                     # check DKIM where no trusted result is there
    dns_timeout: float = 5.0              # seconds of DNS look-ups for one mail, all its signatures together
    txt: Txt | None = None                # the DNS TXT look-up (None: dnspython)
    nameservers: tuple[str, ...] = ()     # for dnspython: "ip" or "ip:port" ("[ip6]:port"); none: the system's
    strangers: str = "authenticated"      # who of the unknown senders is answered: authenticated | all | none
    strangers_per_hour: int = 20          # answers to unknown senders, all together, per hour

    def answers_stranger(self, verdict: Verdict | None) -> bool:
        if self.strangers == "all":
            return True
        return self.strangers == "authenticated" and verdict is not None and verdict.passed


# -- reading the header section -------------------------------------------------
def header_fields(raw: bytes, limit: int = MAX_HEAD) -> list[tuple[str, str]]:
    """(lower-cased name, unfolded value) of each header field, top down."""
    m = re.search(rb"\r?\n\r?\n", raw[:limit])
    head = raw[:m.start() if m else limit].decode("latin-1")
    fields: list[list[str]] = []
    for line in head.replace("\r\n", "\n").split("\n"):
        if line[:1] in (" ", "\t") and fields:
            fields[-1].append(line.strip())
        elif ":" in line:
            fields.append([line])
    out = []
    for parts in fields:
        name, _, value = " ".join(parts).partition(":")
        out.append((name.strip().lower(), value.strip()))
    return out


def from_domain(sender: str) -> str:
    return sender.rpartition("@")[2].lower().rstrip(".") if "@" in sender else ""


def aligned(domain: str, signer: str) -> bool:
    """Relaxed alignment, without a public suffix list: the signer is the From's
    domain or a parent of it that is itself a domain (has a dot)."""
    signer = signer.lower().strip().rstrip(".")
    return bool(domain) and "." in signer and (domain == signer or domain.endswith("." + signer))


_COMMENT = re.compile(r"\([^()]*\)")


def _uncomment(value: str) -> str:
    """Drop (comments), nested ones too, in a bounded number of linear passes."""
    for _ in range(8):
        stripped = _COMMENT.sub(" ", value)
        if stripped == value:
            break
        value = stripped
    return value.replace("(", " ").replace(")", " ")


def parse_results(value: str) -> tuple[str, list[dict[str, str]]]:
    """(authserv-id, [{"method", "result", "header.d", ...}]) of one
    Authentication-Results value; ("", []) if it cannot be read."""
    parts = _uncomment(value[:4000]).split(";")
    head = parts[0].split()
    if not head:
        return "", []
    found = []
    for part in parts[1:MAX_RESULTS + 1]:
        tokens = part.split()
        if not tokens or "=" not in tokens[0]:
            continue
        method, _, result = tokens[0].partition("=")
        entry = {"method": method.split("/")[0].strip().lower(), "result": result.strip().lower()}
        for token in tokens[1:20]:
            key, eq, val = token.partition("=")
            if eq:
                entry[key.strip().lower()] = val.strip().strip('"').lower()
        found.append(entry)
    return head[0].strip().lower(), found


def trusted_results(fields: list[tuple[str, str]], ids: tuple[str, ...]) -> list[dict[str, str]] | None:
    """The results of the topmost Authentication-Results field with a trusted
    authserv-id; None if there is none.  Any further one is ignored, even with
    the trusted id: the server writes its own on top (the last of its filters,
    DMARC, tops the others), and what lies below may have come with the mail."""
    trusted = {i.strip().lower() for i in ids if i.strip()}
    if not trusted:
        return None
    for seen, (_, value) in enumerate(f for f in fields if f[0] == "authentication-results"):
        if seen >= MAX_RESULTS:
            break
        server, found = parse_results(value)
        if server in trusted:
            return found
    return None


def judge_results(results: list[dict[str, str]], domain: str) -> Verdict:
    """DMARC first (it already asks for alignment), then a DKIM result of the From's domain."""
    method = "authentication-results"
    for r in results:
        if r["method"] == "dmarc" and r.get("header.from", domain) == domain:
            if r["result"] == "pass":
                return Verdict("pass", method, domain, "dmarc=pass")
            if r["result"] == "fail":
                return Verdict("fail", method, domain, "dmarc=fail")
    dkim = [r for r in results if r["method"] == "dkim"
            and aligned(domain, r.get("header.d") or r.get("header.i", "").rpartition("@")[2])]
    if any(r["result"] == "pass" for r in dkim):
        return Verdict("pass", method, domain, "dkim=pass")
    if any(r["result"] == "fail" for r in dkim):
        return Verdict("fail", method, domain, "dkim=fail")
    return Verdict("none", method, domain, "no dmarc or dkim result for the domain")


# -- the referee's own DKIM check -------------------------------------------------
_TAG = re.compile(r"(?:^|;)\s*([a-z]+)\s*=\s*([^;]*)", re.I)


def _signature_domain(value: str) -> str:
    for m in _TAG.finditer(value[:8000]):
        if m.group(1).lower() == "d":
            return "".join(m.group(2).split()).lower()
    return ""


def nameserver(text: str) -> tuple[str, int]:
    """(address, port) of "ip", "ip:port" or "[ip6]:port"; ValueError if it is none."""
    import ipaddress

    text, port = text.strip(), "53"
    if text.startswith("["):
        text, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else (rest or "53")
    elif text.count(":") == 1:
        text, port = text.split(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"no port: {port!r}")
    return str(ipaddress.ip_address(text)), int(port)


class DnspythonTxt:
    """The TXT look-up through dnspython: the system's resolver, or the name servers named."""

    def __init__(self, nameservers: tuple[str, ...] = ()) -> None:
        self.nameservers = tuple(nameservers)
        self.resolver = None

    def _resolver(self):
        import dns.nameserver
        import dns.resolver

        if self.resolver is None:
            if self.nameservers:
                resolver = dns.resolver.Resolver(configure=False)
                resolver.nameservers = [dns.nameserver.Do53Nameserver(*nameserver(n)) for n in self.nameservers]
            else:
                resolver = dns.resolver.Resolver()   # /etc/resolv.conf
            self.resolver = resolver
        return self.resolver

    def __call__(self, name: str, timeout: float) -> bytes | None:
        import dns.exception
        import dns.resolver

        try:
            answer = self._resolver().resolve(name, "TXT", lifetime=timeout, raise_on_no_answer=False, search=False)
        except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
            return None
        except (dns.exception.Timeout, dns.resolver.NoNameservers, dns.resolver.NoResolverConfiguration) as e:
            raise DnsTrouble(e.__class__.__name__) from None
        for record in answer.rrset or ():
            return b"".join(record.strings)
        return None


class _Dns:
    """The look-up dkimpy is given: names checked, answers capped and cached
    (a flood of signed mail asks the DNS once per key), one time budget for a
    mail, domains that did not answer remembered, trouble noted."""

    def __init__(self, txt: Txt, budget: float) -> None:
        self.txt, self.budget = txt, budget
        self.cache: dict[str, tuple[float, bytes | None]] = {}
        self.down: dict[str, float] = {}    # domain -> until when it is taken as not answering
        self.trouble = False
        self.deadline: float | None = None  # when the mail's budget ends; None: the DNS may not be asked
        self.judged = ""                    # the From's domain of the mail judged

    def begin(self, domain: str, lookups: bool) -> None:
        """A new mail: its budget starts now (or it may not ask the DNS at all)."""
        self.trouble, self.judged = False, domain
        self.deadline = time.monotonic() + self.budget if lookups else None

    def is_down(self, domain: str) -> bool:
        until = self.down.get(domain)
        if until is not None and until <= time.monotonic():
            del self.down[domain]
            return False
        return until is not None

    def _mark_down(self, *domains: str) -> None:
        now = time.monotonic()
        for domain in domains:
            if len(self.down) >= DOWN_SIZE:
                self.down = {d: t for d, t in self.down.items() if t > now}
                while len(self.down) >= DOWN_SIZE:
                    del self.down[next(iter(self.down))]   # the oldest
            self.down[domain] = now + DOWN_SECONDS

    def __call__(self, name, timeout: float = 5.0) -> bytes | None:
        import dkim

        text = name.decode("ascii", "replace") if isinstance(name, bytes) else str(name)
        text = text.rstrip(".").lower()
        if len(text) > 253 or not re.fullmatch(r"[a-z0-9_.-]+", text):
            return None
        held = self.cache.get(text)
        if held is not None and held[0] > time.monotonic():
            return held[1]
        domain = text.partition("._domainkey.")[2] or text
        left = self.deadline - time.monotonic() if self.deadline is not None else 0.0
        if self.is_down(domain) or (self.deadline is not None and left <= 0):
            self.trouble = True
            raise dkim.DnsTimeoutError(text)
        if self.deadline is None:
            raise _WouldAsk(text)
        try:
            found = self.txt(text, min(left, self.budget))
        except DnsTrouble:
            self.trouble = True
            self._mark_down(domain, self.judged)   # the signer's and the From's: neither is asked again soon
            raise dkim.DnsTimeoutError(text) from None
        found = found[:MAX_TXT] if found else None
        if len(self.cache) >= CACHE_SIZE:
            self.cache.clear()
        self.cache[text] = (time.monotonic() + CACHE_SECONDS, found)
        return found


class SenderJudge:
    def __init__(self, trust: Trust) -> None:
        self.trust = trust
        self.dns = _Dns(trust.txt or DnspythonTxt(trust.nameservers), trust.dns_timeout)

    def judge(self, raw: bytes, sender: str, *, whole: bool = True, lookups: bool = True) -> Verdict:
        """The verdict on ``sender`` (the From of ``raw``); ``whole``: ``raw`` is
        the mail as it came (not cut to its head or without a large attachment),
        so a DKIM body hash can be checked; ``lookups``: the DNS may be asked
        (else a verdict that needs it is ``later``)."""
        domain = from_domain(sender)
        if not domain:
            return Verdict("none", "", "", "no usable From address")
        fields = header_fields(raw)
        results = trusted_results(fields, self.trust.authserv_ids)
        if results is not None:
            return judge_results(results, domain)
        if not self.trust.dkim:
            return Verdict("none", "", domain, "no trusted authentication result")
        return self._dkim(raw, fields, domain, whole, lookups)

    def _dkim(self, raw: bytes, fields: list[tuple[str, str]], domain: str, whole: bool, lookups: bool) -> Verdict:
        signatures = [_signature_domain(v) for n, v in fields if n == "dkim-signature"]
        mine = [i for i, d in enumerate(signatures) if aligned(domain, d)][:MAX_SIGNATURES]
        if not mine:
            return Verdict("none", "dkim", domain, "no DKIM signature of the domain")
        if not whole:
            return Verdict("none", "dkim", domain, "mail not kept whole, not checked")
        if self.dns.is_down(domain):
            return Verdict("none", "dkim", domain, "DNS did not answer in time")
        import dkim

        self.dns.begin(domain, lookups)
        failed = ""
        for index in mine:
            try:
                checker = dkim.DKIM(raw, minkey=1024, timeout=self.trust.dns_timeout, logger=_QUIET)
                if checker.verify(idx=index, dnsfunc=self.dns) and aligned(domain, _text(checker.domain)):
                    return Verdict("pass", "dkim", domain, f"dkim=pass d={_text(checker.domain)[:60]}")
                failed = "signature does not verify"
            except _WouldAsk:
                return Verdict("later", "dkim", domain, "the key is not known yet")
            except dkim.ValidationError:
                failed = "signature does not verify (the mail was changed)"
            except Exception as e:   # dkimpy reads hostile input: any of its errors is a broken signature
                failed = f"signature unreadable ({e.__class__.__name__})"
        if self.dns.trouble:
            return Verdict("none", "dkim", domain, "DNS did not answer in time")
        return Verdict("fail", "dkim", domain, f"dkim=fail: {failed}")


def _text(value) -> str:
    return value.decode("ascii", "replace") if isinstance(value, bytes) else str(value or "")


class _Quiet(logging.Logger):
    """dkimpy logs every broken signature as an error; the verdict says it once."""

    def __init__(self) -> None:
        super().__init__("referee.senderauth.dkim", logging.CRITICAL + 1)


_QUIET = _Quiet()
