"""``referee gm MATCH COMMAND key=value ...``: the GM's commands from the command
line, the same methods the GM's mails call."""
from __future__ import annotations

import difflib
import re
import shlex

import click

from referee.app import cli_talk
from referee.app.cli_count import count
from referee.app.cli_errors import Fail, Usage
from referee.intake import checks

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
# what the command line says about its own words, in the match's language (as its refusals)
WORDS = {
    "needs": {"en": "{command} needs {arg}=", "de": "{command} braucht auch {arg}="},
    "takes": {"en": "{command} takes only {known} (not {unknown})", "de": "{command} kennt nur {known} (nicht {unknown})"},
    "takes_none": {"en": "{command} takes no arguments (not {unknown})", "de": "{command} nimmt keine Argumente (nicht {unknown})"},
    "near": {"en": "; did you mean {near}?", "de": "; meintest du {near}?"},
    "twice": {"en": "{command}: {key}= is given twice", "de": "{command}: {key}= steht zweimal da"},
    "not_pair": {"en": "{command}: {word} is not key=value ({command} takes {known})",
                 "de": "{command}: {word} hat nicht die Form key=value ({command} kennt {known})"},
    "see": {"en": "see: referee gm {match} {command} --help", "de": "siehe: referee gm {match} {command} --help"},
    "again": {"en": "again, with {arg}: referee gm {match} {command} {args}",
              "de": "noch einmal, mit {arg}: referee gm {match} {command} {args}"},
}
# a refusal the same command with one more argument mends: that argument and an example value
MENDED_BY = {"gm.bot_seat_needs_name": ("name", {"en": '"Full Name"', "de": '"Vorname Nachname"'})}


def _say(what: str, lang: str, **params) -> str:
    return WORDS[what].get(lang, WORDS[what]["en"]).format(**params)


def _keys(takes: str) -> list[str]:
    """The keys a command takes, read off its ``takes`` (an ``N`` first: the letter's
    number, which ``cli_talk.positional`` makes ``number=``)."""
    return (["number"] if takes.startswith("N") else []) + list(dict.fromkeys(re.findall(r"(\w+)=", takes)))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("match")
@click.pass_context
def gm(ctx, match):
    """A GM command on MATCH (the commands below; arguments as key=value)."""
    ctx.meta["match"] = match


def _args(command: str, words: tuple[str, ...], takes: str, lang: str, match_id: str) -> dict:
    """``key=value`` words into a mapping, every key one the command takes (a word
    nobody reads would pass unnoticed: a misspelt ``nmae=``); an unquoted
    ``until=2026-11-30 20:00`` arrives as two words, and the time is taken as part of the date."""
    see = _say("see", lang, match=match_id, command=command)
    known = _keys(takes)
    listed = ", ".join(f"{k}=" for k in known)
    out: dict[str, str] = {}
    last = None
    for word in words:
        key, eq, value = word.partition("=")
        if eq and key:
            if key in out:
                raise Usage(_say("twice", lang, command=command, key=checks.echo(key)), see)
            out[key] = value
            last = key
        elif last == "until" and ":" in word and " " not in out["until"]:
            out["until"] += " " + word
        elif not known:
            raise Usage(_say("takes_none", lang, command=command, unknown=repr(checks.echo(word))), see)
        else:
            raise Usage(_say("not_pair", lang, command=command, word=repr(checks.echo(word)), known=listed), see)
    unknown = [k for k in out if k not in known]
    if unknown:
        shown = ", ".join(f"{checks.echo(k)}=" for k in unknown)
        if not known:
            raise Usage(_say("takes_none", lang, command=command, unknown=shown), see)
        near = difflib.get_close_matches(unknown[0], known, n=1)
        said = _say("takes", lang, command=command, known=listed, unknown=shown)
        raise Usage(said + (_say("near", lang, near=near[0] + "=") if near else ""), see)
    return out


def _make(name: str, text: str, takes: str):
    @gm.command(name, help=text, short_help=text.split(":")[0].split(".")[0])
    @click.argument("args", nargs=-1, metavar=takes.upper() or None)
    @click.pass_context
    def command(ctx, args):
        env = ctx.find_root().obj
        match_id = ctx.parent.meta["match"]
        ref = env.referee()
        match = ref.store.match(match_id)
        if match is None:
            known = ", ".join(m["id"] for m in ref.store.matches()[:10]) or "none yet"
            raise Fail(f"no match {match_id!r} in {env.cfg.store}", f"known matches: {known} (`referee status`)")
        lang = ref.lookups.lang_of(match)   # the GM reads a refusal in the match's language, as by mail
        given = cli_talk.read_text_file(_args(name, cli_talk.positional(name, args), takes, lang, match_id))
        if name == "status" and ref.store.current_turn(match_id) is not None:   # else (open): seats, from gm_command
            _, text = ref.renderer.mail("gm_done", lang, **ref.notices.status_ctx(match, None),
                                        command="status", done="status")
            click.echo(text.rstrip())
            return 0
        from referee.authority.matches.match_file import MatchError
        from referee.authority.wording import Own, Refusal

        try:
            done = ref.gm_command(match_id, name, given)
        except KeyError as e:
            raise Usage(_say("needs", lang, command=name, arg=e.args[0]),
                        _say("see", lang, match=match_id, command=name)) from None
        except Refusal as e:
            raise Fail(f"{name}: {e.said(lang)}", _mended(e.code, lang, match_id, name, given)) from None
        except (ValueError, MatchError) as e:
            raise Fail(f"{name}: " + Own("command.failed", {"command": name, "reason": str(e)}).describe(lang)) from None
        # the account of what was done is the commands' own English (gm_command, by mail as well)
        click.echo(f"{match_id}: {done}; {count(ref.send_pending(env.sink()).sent, 'mail')} sent")
        return 0

    return command


def _mended(code: str, lang: str, match_id: str, name: str, given: dict) -> str | None:
    """The command line that mends a refusal ``MENDED_BY`` knows, with an example value."""
    if code not in MENDED_BY:
        return None
    arg, example = MENDED_BY[code]
    args = " ".join(f"{k}={shlex.quote(v)}" for k, v in given.items()) + f" {arg}={example.get(lang, example['en'])}"
    return _say("again", lang, arg=f"{arg}=", match=match_id, command=name, args=args)


for _name, (_text, _takes) in COMMANDS.items():
    _make(_name, _text, _takes)
