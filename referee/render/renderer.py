"""Jinja2 rendering of the referee's mails and of the games' reports.

Templates live in the repository's ``templates/`` folder, which ships as the
package ``referee.templates`` (see pyproject.toml); run from a source checkout
(editable install) the folder is found beside the package instead.
Mail templates start with a ``Subject:`` line, then a blank line, then the body.
"""
from __future__ import annotations

import functools
import importlib.util
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import css_inline
import jinja2
import jinja2.meta
import jinja2.runtime
from markupsafe import escape

from referee.render.cache import compiled_templates
from referee.render.codegen import DICT_NAMES as _DICT_NAMES
from referee.render.codegen import CodeGenerator
from referee.render.shared import SharedExtension, one_report

REPO_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def template_root() -> Path:
    """The installed ``referee.templates`` folder (a namespace package: no
    ``__init__``, so ask for its search locations), else the source checkout's."""
    try:
        spec = importlib.util.find_spec("referee.templates")
    except ModuleNotFoundError:
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / "mail").is_dir():
            return Path(location)
    return REPO_TEMPLATES


def game_template_dirs() -> list[Path]:
    """The ``templates/`` folders that installed games ship in their own package:
    a game written as its own distribution puts ``templates/<game>/report.<lang>.txt.j2``
    beside the module that defines its rules class.  They come after the
    referee's own folder, so a game can add templates but never replace the
    referee's mails."""
    from referee.game_api import registry
    found = []
    for name in registry.names():
        try:
            module = sys.modules.get(type(registry.get(name)).__module__)
        except Exception:  # a broken game must not stop the others' reports
            continue
        folder = Path(getattr(module, "__file__", "") or ".").parent / "templates"
        if (folder / name).is_dir() and folder not in found:
            found.append(folder)
    return found


# callables Jinja passes nothing to (a builtin method cannot carry pass_context): called
# straight, without Context.call's look-ups (d.get() a call); a macro called by position is
# render_codegen's (macro_call), any other call of one Jinja's own
_PLAIN_CALLS = frozenset({types.BuiltinMethodType})


class _Context(jinja2.runtime.Context):
    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's own signature)
        if type(__obj) not in _PLAIN_CALLS:
            return super().call(__obj, *args, **kwargs)
        if kwargs:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:   # as Context.call answers it
            return __self.environment.undefined("value was undefined because a callable raised a"
                                                " StopIteration exception")


class _Environment(jinja2.Environment):
    """Jinja's ``a.b`` tries the attribute first, then the item; a report's
    context is plain dicts, so for a dict the item is looked up first (a sixth
    of a close's rendering time).  Names of dict methods (``items``, ``get`` ...)
    keep Jinja's order, so ``d.items()`` means what it always meant.
    Calls of builtin methods skip Jinja's checks for what to pass them (``_Context``).

    With ``track_reads`` every template it compiles notes in its code the names
    it reads from its context (``reads_of``), taken from the tree it compiles:
    asking costs no second parse (50 ms a template)."""

    context_class = _Context
    code_generator_class = CodeGenerator

    def __init__(self, *args: Any, track_reads: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the compiled templates call environment.getattr for every a.b: bound once here,
        # not again on each of those (half a million a close)
        self.getattr = self.getattr  # type: ignore[method-assign]
        self.track_reads = track_reads

    def _generate(self, source: jinja2.nodes.Template, name: str | None, filename: str | None,
                  defer_init: bool = False) -> str:
        if not self.track_reads:
            return super()._generate(source, name, filename, defer_init=defer_init)
        # written into the template's own code, so a template loaded compiled (render_cache.py) has it too
        reads = sorted(jinja2.meta.find_undeclared_variables(source))
        code = super()._generate(source, name, filename, defer_init=defer_init)
        return f"{code}\nreferee_reads = frozenset({reads!r})\n"

    def make_globals(self, d: Any = None) -> dict:
        """A template's globals as a plain dict, not Jinja's ChainMap over the environment's: the
        renderer sets no global after it loads a template (as Jinja asks), and every render,
        import and include copies them (a ChainMap in Python code, a twentieth of a report)."""
        return {**self.globals, **(d or {})}

    def reads_of(self, name: str) -> frozenset[str]:
        """The names template ``name`` reads from its context (it is compiled if need be)."""
        return self.get_template(name).root_render_func.__globals__["referee_reads"]

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            if attribute in _DICT_NAMES:   # d.get, d.items: what Jinja's own order finds first
                return getattr(obj, attribute)
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


class Renderer:
    """Two environments over the same folders: plain text (no escaping) and HTML."""

    def __init__(self, extra_dirs: Sequence[Path] = (), code_cache: str | Path | None = None) -> None:
        """``code_cache``: where compiled templates are kept between processes (render_cache.py;
        by default ``REFEREE_TEMPLATE_CACHE`` or Jinja's folder, "off" for nowhere)."""
        self.extra_dirs = tuple(extra_dirs)   # a second renderer (another thread's) is built from the same
        dirs = [str(d) for d in extra_dirs] + [str(template_root())] + [str(d) for d in game_template_dirs()]
        # auto_reload off: the templates ship with the package, and a check of every template's file
        # (a stat for each import and include, ~15 per report) was a twentieth of a close's rendering
        common: dict[str, Any] = dict(loader=jinja2.FileSystemLoader(dirs), undefined=jinja2.StrictUndefined,
                                      auto_reload=False, keep_trailing_newline=True, extensions=[SharedExtension])
        # cache_size -1: every template kept in a plain dict (the folders hold a fixed set): Jinja's
        # LRU takes a lock and reorders its queue on each get_template (~15 a report, imports and includes)
        common["cache_size"] = -1
        self.text_env = _Environment(autoescape=False, track_reads=True, trim_blocks=False,
                                     bytecode_cache=compiled_templates(code_cache, "text"), **common)
        self.html_env = _Environment(autoescape=True, trim_blocks=False,
                                     bytecode_cache=compiled_templates(code_cache, "html"), **common)
        # the referee's own mail templates trim block lines; games' templates get Jinja's defaults
        self.mail_env = _Environment(autoescape=False, trim_blocks=True, lstrip_blocks=True,
                                     bytecode_cache=compiled_templates(code_cache, "mail"), **common)
        self._has: dict[str, bool] = {}
        self._uses: dict[tuple[str, str], bool] = {}
        for env in (self.text_env, self.html_env, self.mail_env):
            for name, f in list(env.filters.items()):   # |join and the like: Jinja's sync function itself,
                if getattr(f, "jinja_async_variant", False):   # not its wrapper asking "async?" on every call
                    env.filters[name] = f.__wrapped__
            env.filters["indent_block"] = _indent_block
            env.filters["names"] = _names
            env.filters["change"] = _change

    def has(self, name: str) -> bool:
        if name not in self._has:   # asked three times a report; a missing one raised each time
            try:   # the source only: compiling it here compiled HTML templates in the text environment too
                self.text_env.loader.get_source(self.text_env, name)
                self._has[name] = True
            except jinja2.TemplateNotFound:
                self._has[name] = False
        return self._has[name]

    def mail(self, kind: str, lang: str, **ctx: Any) -> tuple[str, str]:
        """(subject, text body) of one of the referee's own mails."""
        name = f"mail/{kind}.{lang}.txt.j2"
        if not self.has(name):
            name = f"mail/{kind}.en.txt.j2"
        out = self.mail_env.get_template(name).render(lang=lang, **ctx)
        head, _, body = out.lstrip("\n").partition("\n")
        if not head.startswith("Subject:"):
            raise ValueError(f"{name} must start with a 'Subject:' line")
        return head[len("Subject:"):].strip(), body.lstrip("\n")

    def clear_shared(self) -> None:
        """Forget the shared parts rendered so far (a bench's cold start)."""
        for env in (self.text_env, self.html_env, self.mail_env):
            env.shared_parts.clear()

    def uses(self, name: str, variable: str) -> bool:
        """Whether text template ``name`` refers to ``variable`` at all (noted when it is compiled)."""
        key = (name, variable)
        if key not in self._uses:   # asked three times a report
            self._uses[key] = variable in self.text_env.reads_of(name)
        return self._uses[key]

    def warm(self, all_mails: bool = False) -> list[str]:
        """Compile now what a close renders: every template of the loaded games' reports and
        the referee's report mail, each in the environments that use it (a close worker
        calls this at start, so its first closes compile nothing: ~1 s of CPU otherwise).
        ``all_mails`` adds every other mail of the referee's.  Returns the names compiled."""
        from referee.game_api import registry
        games = set(registry.names())
        done = []
        for name in self.text_env.list_templates(filter_func=lambda n: n.endswith(".j2")):
            for env in self._envs_of(name, games, all_mails):
                env.get_template(name)
                done.append(name)
        return sorted(set(done))

    def _envs_of(self, name: str, games: set[str], all_mails: bool) -> list[_Environment]:
        """The environments that render template ``name`` (by the folders' naming rules)."""
        folder, _, base = name.rpartition("/")
        if name == "report_style.css.j2":
            return [self.html_env]
        if folder == "mail":
            if base.startswith("report_html."):
                return [self.html_env]
            wanted = all_mails or base.startswith(("report.", "_"))
            return [self.mail_env] if wanted and ".html." not in base else []
        if folder not in games:
            return []
        if base.startswith("report.") and ".txt." in base:
            return [self.text_env]
        if ".html." in base or base.startswith(("_html", "_sentences")):
            return [self.html_env]
        return [self.text_env, self.html_env]   # the words and names both reports import

    def game_report(self, game: str, languages: Sequence[str], lang: str, ctx: dict) -> tuple[str, str | None]:
        """A game's report body (text, optional HTML) in ``lang`` or the game's own language."""
        use = lang if lang in languages else languages[0]
        self.last_game_template = f"{game}/report.{use}.txt.j2"
        html_name = f"{game}/report.{use}.html.j2"
        with one_report():   # the text's and the HTML's shared parts digest the same values once
            text = self.text_env.get_template(f"{game}/report.{use}.txt.j2").render(**ctx)
            html = self.html_env.get_template(html_name).render(**ctx) if self.has(html_name) else None
        return text, html

    def report(self, lang: str, ctx: dict, body_text: str, body_html: str | None,
               game_template: str | None = None) -> tuple[str, str, str]:
        """(subject, text, html) of a report mail wrapping the game's body.  What
        the game's template already shows (who sent no orders, the order form)
        the wrapper does not repeat."""
        # a game's template may show the order form itself; then only the envelope lines are added
        in_body = _shown_in(ctx.get("order_form") or "", body_text)
        shows = {name: bool(game_template) and self.uses(game_template, name)
                 for name in ("missing", "next", "order_form")}
        ctx = dict(ctx, form_in_body=in_body, game_shows_missing=shows["missing"], game_shows_next=shows["next"],
                   game_shows_form=shows["order_form"])
        subject, text = self.mail("report", lang, body=body_text, **ctx)
        if body_html is None:
            body_html = f"<pre>{escape(body_text)}</pre>"
        html = self.html_env.get_template(self._pick("report_html", lang)).render(
            body=jinja2.utils.markupsafe.Markup(body_html), lang=lang, **ctx)
        return subject, text, html

    def _pick(self, kind: str, lang: str) -> str:
        name = f"mail/{kind}.{lang}.html.j2"
        return name if self.has(name) else f"mail/{kind}.en.html.j2"


# Mail clients drop style sheets: the styles go into every element's style
# attribute when the mail is built; the archive and the outbox keep the compact
# form (classes and one <style>), about a third of the size.
_INLINER = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)


def inline_styles(html: str) -> str:
    """``html`` with its <style> rules written into the elements' style attributes."""
    if "<style" not in html:
        return html
    return _INLINER.inline(html)


def _shown_in(form: str, body: str) -> bool:
    """Whether ``form`` has a line with text and every such line (stripped) is in ``body``:
    stops at the first line missing (a form the body does not show is not read to its end)."""
    shown = False
    for line in form.splitlines():
        line = line.strip()
        if line:
            if line not in body:
                return False
            shown = True
    return shown


@functools.lru_cache(maxsize=16, typed=True)   # a report's text and HTML indent the same order form
def _indent_block(text: str, width: int = 2) -> str:
    pad = " " * width
    return "".join([pad + line if line.strip() else line for line in text.splitlines(True)])


def _names(ids, players: dict) -> str:
    """Player ids as their names, comma-separated (unknown ids as they are)."""
    return ", ".join(players[i]["name"] if i in players else str(i) for i in ids)


def _change(delta) -> str:
    """A standing's change since the last turn: +2, −1, = (none), new (not there before)."""
    if delta is None:
        return "new"
    if delta == 0:
        return "="
    return f"+{delta:g}" if delta > 0 else f"−{-delta:g}"
