"""``referee gm MATCH COMMAND key=value ...``: the GM's commands from the command
line, the same methods the GM's mails call."""
from __future__ import annotations

import click

from referee.app import cli_talk
from referee.app.cli_errors import Fail, Usage

# command -> (help, the key=value arguments it takes)
COMMANDS = {
    "status": ("Print the match's state: turn, deadline, who is awaited.", ""),
    "start": ("Start a match that waits for its start.", ""),
    "pause": ("Pause the match; deadlines stop until resume.", ""),
    "resume": ("Resume a paused match; the deadline moves by the time paused.", ""),
    "extend": ("Move the deadline: by=24h, or until=\"2026-03-07 20:00\" (the match's time zone).", "by= | until="),
    "force": ("Close the open turn now; missing orders get their defaults.", ""),
    "close": ("Close a turn the close guard held (or any open turn) now; missing orders get their defaults.", ""),
    "preview": ("Mail the GM what the turn would resolve to now, changing nothing.", ""),
    "rollback": ("Take back the last resolved turn and reopen it.", ""),
    "replace": ("Give a seat to a new player: seat=ID email=ADDRESS [name=\"Full Name\"], or to a bot: seat=ID bot=true "
                "(or bot=STRENGTH).", "seat= email= [name=] | seat= bot="),
    "observer": ("Add an observer who gets every report: email=ADDRESS [lang=en|de].", "email= [lang=]"),
    "end": ("End the match now.", ""),
    **cli_talk.COMMANDS,   # issue 18: the chronicle, approve and decline letters
    # issue 18: an open match (seats filled by "command: join")
    "close-joining": ("Take no more players by mail (nor on the wait list).", ""),
    "open-joining": ("Take players by mail again.", ""),
    "remove": ("Free a seat before the start: seat=ID (its player is told; the first waiting takes it).", "seat="),
}
# a command line argument the GM left out, in the match's language
NEEDS = {"en": "{command} needs {arg}=", "de": "{command} braucht auch {arg}="}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("match")
@click.pass_context
def gm(ctx, match):
    """A GM command on MATCH (the commands below; arguments as key=value)."""
    ctx.meta["match"] = match


def _args(command: str, words: tuple[str, ...]) -> dict:
    """``key=value`` words into a mapping; an unquoted ``until=2026-11-30 20:00``
    arrives as two words, and the time is taken as part of the date."""
    out: dict[str, str] = {}
    last = None
    for word in words:
        key, eq, value = word.partition("=")
        if eq and key:
            if key in out:
                raise Usage(f"{command}: {key}= given twice")
            out[key] = value
            last = key
        elif last == "until" and ":" in word and " " not in out["until"]:
            out["until"] += " " + word
        else:
            raise Usage(f"{command}: {word!r} is not key=value",
                        f"write e.g. by=24h or until=\"2026-03-07 20:00\"; see: referee gm MATCH {command} --help")
    return out


def _make(name: str, text: str, takes: str):
    @gm.command(name, help=text, short_help=text.split(":")[0].split(".")[0])
    @click.argument("args", nargs=-1, metavar=takes.upper() or None)
    @click.pass_context
    def command(ctx, args):
        env = ctx.find_root().obj
        match_id = ctx.parent.meta["match"]
        given = cli_talk.read_text_file(_args(name, cli_talk.positional(name, args)))
        if not takes and given:
            raise Usage(f"{name} takes no arguments (got {', '.join(given)})")
        ref = env.referee()
        match = ref.store.match(match_id)
        if match is None:
            known = ", ".join(m["id"] for m in ref.store.matches()[:10]) or "none yet"
            raise Fail(f"no match {match_id!r} in {env.cfg.store}", f"known matches: {known} (`referee status`)")
        if name == "status" and ref.store.current_turn(match_id) is not None:   # else (open): seats, from gm_command
            _, text = ref.renderer.mail("gm_done", ref.lookups.lang_of(match), **ref.notices.status_ctx(match, None),
                                        command="status", done="status")
            click.echo(text.rstrip())
            return 0
        from referee.authority.matches.match_file import MatchError
        from referee.authority.wording import Own, Refusal

        lang = ref.lookups.lang_of(match)   # the GM reads a refusal in the match's language, as by mail
        try:
            done = ref.gm_command(match_id, name, given)
        except KeyError as e:
            raise Usage(NEEDS.get(lang, NEEDS["en"]).format(command=name, arg=e.args[0]),
                        f"see: referee gm {match_id} {name} --help") from None
        except Refusal as e:
            raise Fail(f"{name}: {e.said(lang)}") from None
        except (ValueError, MatchError) as e:
            raise Fail(f"{name}: " + Own("command.failed", {"command": name, "reason": str(e)}).describe(lang)) from None
        sent = ref.send_pending(env.sink()).sent
        click.echo(f"{match_id}: {done}; {sent} mails sent")
        return 0

    return command


for _name, (_text, _takes) in COMMANDS.items():
    _make(_name, _text, _takes)
