"""The order page (issue 36) as a player meets it: found in a mail, opened in chromium from
a file (as a mail client's downloads hold it), clicked, and its mail taken from the
``mailto:`` link; plus a fast way to play a match on to a wanted stage through the
referee's real intake (``Referee.handle`` of each mail, ``tick`` to close)."""
from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from urllib.parse import parse_qs, unquote

import yaml

from referee.game_api.contract import Rng
from referee.mail.inbound import parse_inbound

SHOTS = Path("/work/tools/shots")


def page_of(msg) -> tuple[str, str] | None:
    """(file name, HTML) of the order page a mail carries, or None."""
    for part in msg.walk():
        name = part.get_filename() or ""
        if name.startswith("orders-") and name.endswith(".html") and part.get_content_type() == "text/html":
            return name, part.get_content()
    return None


def open_page(browser, tmp_path: Path, page: tuple[str, str]) -> None:
    path = tmp_path / page[0]
    path.write_text(page[1], encoding="utf-8")
    browser.open(path.as_uri())
    assert browser.errors() == [], browser.errors()


def mail_of(browser) -> tuple[str, str, str]:
    """(to, subject, body) of the page's ``mailto:`` link; body with plain newlines."""
    href = browser.attribute("#mail", "href")
    assert href.startswith("mailto:"), href
    to, _, query = href[len("mailto:"):].partition("?")
    fields = parse_qs(query, keep_blank_values=True)
    return unquote(to), fields["subject"][0], fields["body"][0].replace("\r\n", "\n")


def send(servers, player: str, to: str, subject: str, body: str) -> bytes:
    """The player's mail program sending what the page wrote, by SMTP to the referee."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = servers.address(player), to, subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(body)
    raw = msg.as_bytes(policy=policy.SMTP)
    servers.send(servers.address(player), [to], raw)
    return raw


def latest_page(servers, player: str):
    """The newest mail in the player's INBOX that carries an order page, and that page."""
    for raw in reversed(servers.wait_messages(player, 1)):
        msg = email.message_from_bytes(raw, policy=policy.default)
        found = page_of(msg)
        if found:
            return msg, found
    return None, None


def play_until(ref, match_id: str, address: str, keys: dict, want, rng: Rng, sender=None, limit: int = 400,
               orders=None) -> bool:
    """Send each awaited seat random legal orders (or ``orders(stage)``) through ``Referee.handle``
    and close, until ``want(state, awaiting)`` holds (True) or the match ends or ``limit`` mails
    are spent (False)."""
    rules = ref.rules(ref.store.match(match_id))
    for _ in range(limit):
        turn = ref.store.current_turn(match_id)
        if turn is None or turn["status"] != "open" or not turn["awaiting"]:
            return False
        state = rules.load(turn["state"])
        if want(state, turn["awaiting"]):
            return True
        for player in sorted(turn["awaiting"]):
            doc = {"match": match_id, "player": player, "key": keys[player], "turn": turn["number"],
                   "orders": orders(turn["awaiting"][player]) if orders else rules.random_orders(state, player, rng)}
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = sender(player), address, "orders"
            msg["Message-ID"] = make_msgid(domain="players.test")
            msg.set_content(yaml.safe_dump(doc, allow_unicode=True))
            ref.handle(parse_inbound(msg.as_bytes(policy=policy.SMTP), own_addresses=[address]))
        ref.tick()
    return False


def labels(rules, state, player: str, lang: str, path: str) -> dict:
    """value -> label of the game's choices at ``path`` (what the page's selects show)."""
    return {c["value"]: c["label"] for c in rules.order_choices(state, player, lang).get(path, [])}
