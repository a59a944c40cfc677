"""The intake's side of sender authentication (issue 13): each mail's sender
judged (``referee.mail.senderauth``) and the verdict stored with the mail; a
mail that acts for a seat with the right key but from a From that fails is
reported to the seat's registered address and the GM; under the match option
``sender_auth: require`` such orders are refused unless the From is proven."""
from __future__ import annotations

import dataclasses
import logging

from referee.authority.replies import Handled
from referee.authority.wording import Own
from referee.intake import checks
from referee.mail.senderauth import OFF, SenderJudge, Verdict
from referee.store.senders import SenderRecords

POLICIES = ("off", "record", "require")
DEFAULT_POLICY = "record"
log = logging.getLogger("referee.intake")

# why a From is not proven, in a few words of each language (a refusal shows them)
_WHY = {
    "fail": ("its signature does not fit the sender", "ihre Signatur passt nicht zum Absender"),
    "none": ("nothing proves the sender", "nichts belegt den Absender"),
}


def policy_of(match) -> str:
    policy = (match["spec"] or {}).get("sender_auth", DEFAULT_POLICY) if match else DEFAULT_POLICY
    return policy if policy in POLICIES else DEFAULT_POLICY


def unproven(mail, match) -> Own | None:
    """The refusal where ``match`` requires a proven From and ``mail``'s is not (a
    join's included, issue 32); else None."""
    verdict = getattr(mail, "auth", None) or OFF
    if policy_of(match) != "require" or verdict.passed:
        return None
    en, de = _WHY.get(verdict.result, _WHY["none"])
    return Own("sender.unproven", {"why_en": en, "why_de": de})


class Senders:
    def __init__(self, store, renderer, lookups, queue, replies, settings, now) -> None:
        self.store, self.renderer, self.lookups, self.queue = store, renderer, lookups, queue
        self.replies, self.settings, self.now = replies, settings, now
        self.judge = SenderJudge(settings.trust)

    def judged(self, mail, lookups: bool = False):
        """``mail`` with the verdict on its sender (``mail.auth``), judged outside the
        mail's transaction.  Without ``lookups`` the DNS is not asked: a verdict that
        needs it stays ``later`` until the handling reads it (``Deferred``, at the
        first check where it matters); then this is called again with ``lookups``."""
        held = getattr(mail, "auth", None)
        if held is not None and not (lookups and held.later):
            return mail
        try:
            whole = not mail.too_large and not mail.set_aside
            verdict = self.judge.judge(mail.raw, mail.sender, whole=whole, lookups=lookups)
        except Exception:   # a verdict is evidence, never a reason to lose the mail
            log.exception("judging the sender of %s failed", checks.echo(mail.message_id, 80))
            verdict = Verdict("none", "", "", "the check failed")
        if dataclasses.is_dataclass(mail) and "auth" in {f.name for f in dataclasses.fields(mail)}:
            return dataclasses.replace(mail, auth=verdict)
        try:
            mail.auth = verdict   # a mail of another shape (a test's, a caller's own)
        except AttributeError:
            pass
        return mail

    def record(self, mail) -> None:
        verdict = getattr(mail, "auth", None) or OFF
        if verdict.later:   # nothing hung on it: the DNS was not asked
            verdict = Verdict("off", verdict.method, verdict.domain, "not checked: no step needed the verdict")
        SenderRecords(self.store).record(mail.message_id, mail.content_hash, mail.sender, verdict.result, verdict.method,
                                 verdict.detail[:200], self.now())

    def check(self, mail, match, player, lang: str, doc) -> Handled | None:
        """For a mail with the right key (a seat's, or the GM's when ``player`` is
        None): tell of a forged From, and refuse it where the match requires a
        proven one.  None: go on."""
        policy, verdict = policy_of(match), getattr(mail, "auth", None) or OFF
        if policy == "off":
            return None
        if verdict.failed:
            self._tell_forged(mail, match, player, verdict)
        problem = unproven(mail, match)
        if problem is None:
            return None
        if player is None:   # the GM: the reply itself reaches the registered address
            return self.replies.refuse(mail, match, self.lookups.lang_of(match), [problem], code="sender.unproven")
        return self.replies.refuse(mail, match, lang, [problem], player=player, code="sender.unproven")

    def _tell_forged(self, mail, match, player, verdict: Verdict) -> None:
        """The registered address of the seat and the GM hear of it, at most once
        an hour per seat (a key holder must not turn it into a mail cannon)."""
        ctx = self.lookups.match_ctx(match, self.lookups.rules(match))
        seat = player["id"] if player is not None else "@gm"
        hour = self.now().strftime("%Y%m%d%H")
        told = {match["gm_email"]: ("gm", self.lookups.lang_of(match))}
        if player is not None:
            told[player["email"]] = ("seat", self.lookups.lang_of(match, player))
        for address, (role, lang) in told.items():
            subject, text = self.renderer.mail("forged", lang, match=ctx, seat=seat, role=role,
                                               sender=checks.echo(mail.sender or "?"),
                                               detail=checks.echo(verdict.detail, 80))
            self.queue.queue(f"forged:{match['id']}:{seat}:{role}:{hour}", match["id"], address, subject, text)
        log.warning("mail %s for %s in %s has the right key but a forged From (%s)",
                    checks.echo(mail.message_id, 80), seat, match["id"], verdict.detail)
