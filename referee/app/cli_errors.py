"""How the ``referee`` command ends: every ordinary mistake in one or two
plain lines on stderr (what is wrong, what to do), exit status 2 for a usage
error and 1 for a failure, never a traceback (``--debug`` shows one)."""
from __future__ import annotations

import errno
import os
import sys
import traceback

import click

from referee.mail.errors import MailError
from referee.store.errors import SchemaMismatch, StoreUnavailable

USAGE = 2      # the command line itself is wrong: an option, an argument, a file named on it
FAILED = 1     # the command was understood but could not be carried out


class Fail(click.ClickException):
    """A plain failure: ``what`` went wrong, ``todo`` says what to do about it."""

    def __init__(self, what: str, todo: str | None = None, code: int = FAILED) -> None:
        super().__init__(what)
        self.todo = todo
        self.exit_code = code

    def show(self, file=None) -> None:
        say(self.message, self.todo)


class Usage(Fail):
    def __init__(self, what: str, todo: str | None = None) -> None:
        super().__init__(what, todo, USAGE)


def say(what: str, todo: str | None = None) -> None:
    click.echo(f"referee: {what}", err=True)
    if todo:
        click.echo(f"  {todo}", err=True)


def run(group: click.Group, argv: list[str] | None) -> int:
    """Run ``group`` on ``argv`` and turn whatever ends it into an exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    try:
        result = group.main(args=args, prog_name="referee", standalone_mode=False)
        return result if isinstance(result, int) else 0
    except Fail as e:
        e.show()
        return e.exit_code
    except click.UsageError as e:
        where = e.ctx.command_path if e.ctx else "referee"
        say(e.format_message().rstrip("."), f"see: {where} --help")
        return USAGE
    except click.ClickException as e:   # a bad file argument and the like
        say(e.format_message())
        return e.exit_code if e.exit_code in (USAGE, FAILED) else FAILED
    except click.exceptions.Exit as e:
        return e.exit_code
    except (SchemaMismatch, StoreUnavailable) as e:   # a store too new, not migrated, or out of reach
        say(str(e)[:400])
        return FAILED
    except MailError as e:   # a mailbox out of reach or refusing the login: its message says why, in en and de
        say(str(e)[:400])
        return FAILED
    except OSError as e:
        if e.errno not in DISK_REFUSALS:
            return _internal(e, debug)
        where = f" ({e.filename})" if e.filename else ""
        say(f"the disk refused: {os.strerror(e.errno)}{where}",
            "check its free space, its permissions and the system's log, then run the command again")
        return FAILED
    except (click.Abort, KeyboardInterrupt):
        say("interrupted")
        return FAILED
    except Exception as e:  # a fault of the referee itself: one line, the trace on request
        return _internal(e, debug)


# what a disk or file system answers that is not the referee's fault: a full or failing disk,
# one mounted read-only, a folder the referee may not write (each command leaves what it had
# stored consistent: a close that could not write its files commits nothing)
DISK_REFUSALS = frozenset({errno.EIO, errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM})


def _internal(e: Exception, debug: bool) -> int:
    if debug:
        traceback.print_exc()
    say(f"internal error: {e.__class__.__name__}: {str(e)[:200]}",
        "this is a fault of the referee; run again with --debug for the trace and report it")
    return FAILED
