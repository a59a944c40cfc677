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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import css_inline
import jinja2
import jinja2.meta
from markupsafe import Markup, escape

from referee.render.cache import compiled_templates
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


def _game_folder(name: str) -> Path | None:
    """The ``templates/`` folder a game ships in its own package (a game written as its own
    distribution puts ``templates/<game>/report.<lang>.txt.j2`` beside its rules module), or None.
    It comes after the referee's own folder: a game can add templates, never replace the referee's mails."""
    from referee.game_api import registry
    try:
        module = sys.modules.get(type(registry.get(name)).__module__)
    except Exception:  # a broken game must not stop the others' reports
        return None
    folder = Path(getattr(module, "__file__", "") or ".").parent / "templates"
    return folder if (folder / name).is_dir() else None


class _GameTemplates(jinja2.BaseLoader):
    """The games' own template folders (``_game_folder``), looked into only when a
    template is not among the referee's: a game is imported when its first template is
    asked for, so a command that renders nothing imports no game (issue 34, start-up)."""

    def __init__(self) -> None:
        self._folders: dict[str, jinja2.FileSystemLoader | None] = {}

    def _loader(self, game: str) -> jinja2.FileSystemLoader | None:
        if game not in self._folders:
            folder = _game_folder(game)
            self._folders[game] = jinja2.FileSystemLoader(str(folder)) if folder else None
        return self._folders[game]

    def _games(self, template: str) -> list[str]:
        from referee.game_api import registry
        names = registry.names()
        first = template.split("/", 1)[0]
        return [first] if first in names else names   # "<game>/..." is that game's; anything else: any game's

    def get_source(self, environment, template):
        for game in self._games(template):
            loader = self._loader(game)
            if loader is not None:
                try:
                    return loader.get_source(environment, template)
                except jinja2.TemplateNotFound:
                    continue
        raise jinja2.TemplateNotFound(template)

    def list_templates(self) -> list[str]:
        from referee.game_api import registry
        found = set()
        for game in registry.names():
            loader = self._loader(game)
            found.update(loader.list_templates() if loader else ())
        return sorted(found)


_DICT_NAMES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja's environment with its public ``getattr`` asking a dict for its item first: a
    report's context is plain dicts, and Jinja's order (the attribute, then the item) costs a
    failed attribute look-up for every ``a.b`` (a fifth of a close's rendering, measured).  Names
    of dict methods (``items``, ``get`` ...) keep Jinja's order, so ``d.items()`` means what it
    always meant; anything but a dict is Jinja's own."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


class Renderer:
    """Two environments over the same folders: plain text (no escaping) and HTML."""

    def __init__(self, extra_dirs: Sequence[Path] = (), code_cache: str | Path | None = None) -> None:
        """``code_cache``: where compiled templates are kept between processes (cache.py;
        by default ``REFEREE_TEMPLATE_CACHE`` or Jinja's folder, "off" for nowhere)."""
        self.extra_dirs = tuple(extra_dirs)   # a second renderer (another thread's) is built from the same
        dirs = [str(d) for d in extra_dirs] + [str(template_root())]
        loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(dirs), _GameTemplates()])
        # auto_reload off: the templates ship with the package, and a check of every template's file
        # (a stat for each import and include, ~15 per report) was a twentieth of a close's rendering;
        # cache_size -1: every template kept (the folders hold a fixed set), no LRU bookkeeping
        common: dict[str, Any] = dict(loader=loader, undefined=jinja2.StrictUndefined,
                                      auto_reload=False, keep_trailing_newline=True, extensions=[SharedExtension],
                                      cache_size=-1)
        self.text_env = _Environment(autoescape=False, trim_blocks=False,
                                     bytecode_cache=compiled_templates(code_cache, "text"), **common)
        self.html_env = _Environment(autoescape=True, trim_blocks=False,
                                     bytecode_cache=compiled_templates(code_cache, "html"), **common)
        # the referee's own mail templates trim block lines; games' templates get Jinja's defaults
        self.mail_env = _Environment(autoescape=False, trim_blocks=True, lstrip_blocks=True,
                                     bytecode_cache=compiled_templates(code_cache, "mail"), **common)
        self._has: dict[str, bool] = {}
        self._reads: dict[str, frozenset[str]] = {}
        for env in (self.text_env, self.html_env, self.mail_env):
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
        """Whether text template ``name`` refers to ``variable`` at all."""
        return variable in self.reads_of(name)

    def reads_of(self, name: str) -> frozenset[str]:
        """The names text template ``name`` reads from its context: its source parsed once
        (~30 ms; ``warm`` asks for every game's report, so a close worker parses none)."""
        reads = self._reads.get(name)
        if reads is None:
            source = self.text_env.loader.get_source(self.text_env, name)[0]
            tree = self.text_env.parse(source, name)
            reads = self._reads[name] = frozenset(jinja2.meta.find_undeclared_variables(tree))
        return reads

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
                if env is self.text_env and name.rpartition("/")[2].startswith("report."):
                    self.reads_of(name)   # what the report wrapper asks of a game's report
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
            body=Markup(body_html), lang=lang, **ctx)
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
