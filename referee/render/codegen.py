"""Cheaper code for the referee's templates, with Jinja's output, byte for byte (issue 8).

Where Jinja's general code cost a close most of its rendering time (the code generator below
writes the cheaper code; tests/render/test_codegen.py holds it to Jinja's own):

* every ``{{ x }}`` of an HTML template is ``escape(x)``: a ``Markup`` made for each value
  only to be joined into the page a moment later.  A str is escaped in place, anything else
  goes through ``out``: the same characters as a plain ``str`` (a template's output is joined
  with ``"".join``, which drops the type; what a macro or ``{% set %}`` block returns is still
  made ``Markup`` by Jinja);
* every ``a.b`` is a call of ``environment.getattr`` (``render._Environment.getattr``: a dict's
  item first).  For a name that is no dict method the code looks the item of a dict up in
  place, and calls ``getattr`` only for anything else (a missing key, not a dict): a function
  call less per dot, the same value;
* ``d.get(k)``, ``d.items()`` and the like are a ``context.call`` of a looked-up method: for a
  dict they are called in place (anything else takes Jinja's way);
* every call is ``context.call``, and a macro's then goes through ``Macro.__call__``'s handling
  of defaults, ``caller``, ``kwargs`` and ``varargs``.  A call given arguments by position
  only calls a macro through ``macro_call``, which calls one that uses none of those straight,
  as ``Macro._invoke`` would.
"""
from __future__ import annotations

from typing import Any

import jinja2.compiler
import jinja2.runtime
from jinja2.nodes import EvalContext
from markupsafe import Markup, escape

try:   # markupsafe's own escaping of a str (what escape() wraps in Markup)
    from markupsafe import _escape_inner as escape_str
except ImportError:   # pragma: no cover - another markupsafe: its public escape, as str
    def escape_str(s: str) -> str:
        return str.__str__(escape(s))


def out(value: Any) -> str:
    """``escape(value)``'s characters (a ``str``; ``Markup`` for what is not a plain str or int)."""
    t = type(value)
    if t is str:
        return escape_str(value)
    if t is Markup:   # escape() would make a copy of it
        return value
    if t is int:   # digits and a sign: nothing to escape (bool is not int here, its str is True/False)
        return int.__repr__(value)
    return escape(value)


DICT_NAMES = frozenset(dir(dict))
_DICT_CALLS = frozenset({"get", "items", "keys", "values"})   # called in place on a dict


class CodeGenerator(jinja2.compiler.CodeGenerator):
    """Jinja's code, but an HTML template's output values go through ``out``, and ``a.b``
    of a dict is looked up in place (above)."""

    @jinja2.compiler.optimizeconst
    def visit_Call(self, node, frame, forward_caller: bool = False) -> None:
        if (self.environment.is_async or self.environment.sandboxed or forward_caller
                or node.kwargs or node.dyn_args or node.dyn_kwargs):
            super().visit_Call(node, frame, forward_caller=forward_caller)
            return
        # the callee is evaluated once, first, into a name of this call's own (its arguments may
        # hold other calls and a.b); then the arguments, as Jinja's call evaluates them:
        #   (d.get(args) if type(d) is dict else context.call(environment.getattr(d, "get"), args, ...))
        #   (macro_call(m, args) if type(m) is Macro else context.call(m, args, ...))
        self.referee_calls = n = getattr(self, "referee_calls", 0) + 1
        held, callee = f"referee_m{n}", node.node
        method = isinstance(callee, jinja2.nodes.Getattr) and callee.attr in _DICT_CALLS
        # a macro is given the caller's autoescape, as Context.call gives Macro.__call__ its eval context
        # (an {% autoescape false %} block makes what the macro returns a plain str, not Markup)
        self.write(f"({held}.{callee.attr}(" if method
                   else f"(referee_macro_call({held}, context.eval_ctx, ")
        for i, arg in enumerate(node.args):
            self.write(", " if i else "")
            self.visit(arg, frame)
        self.write(f") if type({held} := ")
        self.visit(callee.node if method else callee, frame)
        if method:
            self.write(f") is dict else context.call(environment.getattr({held}, {callee.attr!r})")
        else:
            self.write(f") is referee_Macro else context.call({held}")
        extra = {}
        if frame.loop_frame:
            extra["_loop_vars"] = "_loop_vars"
        if frame.block_frame:
            extra["_block_vars"] = "_block_vars"
        self.signature(node, frame, extra or None)
        self.write("))")

    def visit_Getattr(self, node, frame) -> None:
        if self.environment.is_async or node.attr in DICT_NAMES:
            super().visit_Getattr(node, frame)
            return
        # the object is evaluated once, into referee_t; nothing else is evaluated between that
        # and its use, so a nested a.b.c (which sets referee_t too, earlier) cannot disturb it
        key = repr(node.attr)
        self.write(f"(referee_t[{key}] if type(referee_t := ")
        self.visit(node.node, frame)
        self.write(f") is dict and {key} in referee_t else environment.getattr(referee_t, {key}))")

    def visit_Template(self, node, frame=None) -> None:
        self.writeline("from referee.render.codegen import out as referee_out, macro_call as referee_macro_call,"
                       " escape_str as referee_escape")
        self.writeline("from jinja2.runtime import Macro as referee_Macro")
        super().visit_Template(node, frame)

    def _output_child_pre(self, node, frame, finalize) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile and finalize.src is None:
            # a str (most values) escaped in place; the value is evaluated once, into referee_o
            # (set and read within this one expression: an output holds no other output)
            self.write("(referee_escape(referee_o) if type(referee_o := ")
            return
        super()._output_child_pre(node, frame, finalize)

    def _output_child_post(self, node, frame, finalize) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile and finalize.src is None:
            self.write(") is str else referee_out(referee_o))")
            return
        super()._output_child_post(node, frame, finalize)


_Macro = jinja2.runtime.Macro


def macro_call(macro: _Macro, eval_ctx: EvalContext, *args: Any) -> Any:
    """What ``render._Context.call(macro, *args)`` gives (a template's call of a macro with
    arguments by position only; ``eval_ctx``: the caller's, which Context.call hands
    Macro.__call__: its autoescape decides whether the macro's text is Markup).  A macro
    that needs none of Macro.__call__'s work (every argument given, no caller, no catch-all
    arguments, not async) is called straight, as ``Macro._invoke`` calls it."""
    try:
        if (len(args) == macro._argument_count and not macro.caller and not macro.catch_kwargs
                and not macro.catch_varargs and not macro._environment.is_async):
            rv = macro._func(*args)
            return Markup(rv) if eval_ctx.autoescape else rv
        return macro(eval_ctx, *args)
    except StopIteration:   # as Context.call answers it
        return macro._environment.undefined("value was undefined because a callable raised a"
                                            " StopIteration exception")
