"""Every message for people goes through gettext: read from the code itself, no module of
uptown_cli raises an error or prints a line of English words that is not passed through
``_`` (or ``ngettext``, ``pgettext``), so that a new message written without it fails here,
not in front of a Spanish player. What is not for people (words of a protocol, Python's own
messages) is named in ALLOWED, each with why."""

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "uptown_cli"
PRINTED = {"echo", "secho"}
"""Calls that print a line for people (click's)."""
NOTED = {"problem", "warning", "refuse"}
"""Calls that note a problem for people (a record's reader, a received message's refusal)."""
WORD = re.compile(r"[A-Za-z]{2,}")
ALLOWED = {
    ("__init__.py", "module 'uptown_cli' has no attribute"): "Python's own AttributeError",
    ("cli/new.py", "  uptown join "): "a command to type, as written",
}
"""(module, start of the literal text) of messages that are not for people, and why."""


def is_prose(text):
    """Whether literal text is words for people: a word and a space (``" exited"`` joined to
    a name is), not a code word alone (``crash``) nor punctuation round fields (``": "``)."""
    return " " in text and WORD.search(text) is not None


def literal_text(node):
    """The literal text of a message expression (its f-string's constant parts; both sides of
    ``+`` and of ``a if c else b``; the template of ``"...".format()``), or "" when it has
    none outside a call: ``_("...")`` (or ``ngettext``, ``gettext``...) holds its own."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(literal_text(part) for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return literal_text(node.left) + " " + literal_text(node.right)
    if isinstance(node, ast.IfExp):
        return literal_text(node.body) + " " + literal_text(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "format":
        return literal_text(node.func.value)
    return ""


def name_of(function):
    if isinstance(function, ast.Name):
        return function.id
    return function.attr if isinstance(function, ast.Attribute) else ""


def is_message_sink(call):
    """A call whose arguments are a message for people: an error made (``...Error``,
    ``...Exception``, click's ``BadParameter``), a problem noted or a line printed."""
    name = name_of(call.func)
    return (name in PRINTED or name in NOTED or name.endswith(("Error", "Exception"))
            or name == "BadParameter")


def untranslated():
    """``(module, line, text)`` of each message for people not passed through gettext."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                calls = [node.exc]
            elif isinstance(node, ast.Call) and is_message_sink(node):
                calls = [node]
            else:
                continue
            for call in calls:
                for argument in list(call.args) + [k.value for k in call.keywords
                                                   if k.arg in ("message", "msg", "problem")]:
                    text = literal_text(argument)
                    if is_prose(text) and not any(
                            module == allowed and text.startswith(start)
                            for allowed, start in ALLOWED):
                        found.append((module, argument.lineno, text))
    return sorted(set(found))


def test_every_message_raised_or_printed_goes_through_gettext():
    missing = untranslated()
    assert not missing, "wrap these in _() (uptown_cli.i18n) and translate them in po/es.po:\n" + \
        "\n".join(f"uptown_cli/{module}:{line}: {text!r}" for module, line, text in missing)


def test_the_check_finds_a_message_written_without_gettext():
    """The check itself: an error or a problem of English words made without ``_`` is found,
    one made with it, or one of code words, is not."""
    code = ('raise SetupError(f"unknown bot {name!r}")\n'
            'raise SetupError(_("unknown bot {name!r}").format(name=name))\n'
            'raise EngineError("crash", _("it crashed"))\n'
            'click.echo(f"{path}: {note}")\n'
            'problem(f"a pause is {days} days", node)\n')
    calls = [node for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Call)
             and is_message_sink(node)]
    texts = [literal_text(argument) for call in calls for argument in call.args]
    assert [text for text in texts if is_prose(text)] == ["unknown bot ", "a pause is  days"]


def test_no_message_is_an_f_string_inside_gettext():
    """``_(f"...")`` looks a message up after its fields are filled in: no catalog holds it.
    A message is a template, formatted after translation (``_("{n} moves").format(n=n)``)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and name_of(node.func) in (
                    "_", "gettext", "ngettext", "pgettext", "N_") and any(
                    isinstance(argument, ast.JoinedStr) for argument in node.args):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not found, found
