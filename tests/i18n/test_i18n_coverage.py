"""Every message for people goes through gettext: read from the code itself, no module of
uptown_cli raises an error or prints a line of English words that is not passed through
``_`` (or ``ngettext``, ``pgettext``), so that a new message written without it fails here,
not in front of a Spanish player. What is not for people (words of a protocol, Python's own
messages) is named in ALLOWED, each with why.

And every message a translator sees is a whole sentence with named fields: no piece meant to
be glued to another (``"; nothing was written"``, ``" (and {n} more)"``, ``"{name}'s"``), no
field glued to a word (``"is over{unwritten}"``), no message built by adding, joining or
f-stringing translated pieces (``_(" and ").join(names)``: lists go through
``i18n.names_list``)."""

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


GETTEXT = {"_", "gettext", "ngettext", "N_"}
"""The calls whose literal arguments are messages (``pgettext`` gives words in a context: a
tile's name, a colour's letter, a separator, which are meant to go inside sentences)."""


def is_gettext(node):
    """Whether ``node`` is a message of the catalog: a call of GETTEXT, or its ``.format()``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "format":
        node = node.func.value
    return isinstance(node, ast.Call) and name_of(node.func) in GETTEXT | {"pgettext"}


def fragment(text):
    """Why the message ``text`` is a piece of a sentence rather than one ("" when it is one)."""
    bare = text.replace("{{", "").replace("}}", "")
    words = re.sub(r"\{[^{}]*\}|(?<!\w)--?\w[\w-]*", "", bare)  # without fields, options
    if text != text.strip():
        return "begins or ends with a space: a piece to glue to another"
    if re.match(r"[,;:.)]", text):
        return "begins with punctuation: the end of another sentence"
    if "}{" in bare:
        return "two fields glued together"
    if re.search(r"(?:[A-Za-z]{2,}|'s|\))\{", bare):
        return "a field glued to a word: a piece of text passed in"
    if "{" in bare and re.search("[A-Za-z]", words) and not WORD.search(words):
        return "a word's ending ({name}'s), not a sentence"
    return ""


MARKUP = re.compile(r"(\s*<[^<>]*>)*\s*")
"""Text between fields that is only markup (``</th><th>``): a page's cells, each a message."""


def glued_messages(tree):
    """``(line, why)`` of each message of ``tree`` (a module's syntax) that is a fragment or is
    built of translated pieces."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and name_of(node.func) in GETTEXT:
            texts = [a.value for a in node.args
                     if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            found += [(node.lineno, f"{text!r}: {fragment(text)}") for text in texts
                      if fragment(text)]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "join" and is_gettext(node.func.value):
            found.append((node.lineno, "a translated text joins a list (i18n.names_list does)"))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and (
                is_gettext(node.left) or is_gettext(node.right)):
            found.append((node.lineno, "a translated text added to another text"))
        if isinstance(node, ast.JoinedStr) and any(
                isinstance(part, ast.FormattedValue) and is_gettext(part.value)
                for part in node.values) and not all(
                isinstance(part, ast.FormattedValue) or MARKUP.fullmatch(part.value)
                for part in node.values):
            found.append((node.lineno, "a translated text inside an f-string"))
    return found


def test_every_message_is_a_whole_sentence():
    found = [f"uptown_cli/{path.relative_to(PACKAGE).as_posix()}:{line}: {why}"
             for path in sorted(PACKAGE.rglob("*.py"))
             for line, why in glued_messages(ast.parse(path.read_text(encoding="utf-8")))]
    assert not found, "make these whole sentences with named fields (docs/TRANSLATING.md):\n" + \
        "\n".join(found)


def test_the_check_finds_a_planted_fragment():
    """The check itself: each way of gluing a sentence from pieces is found in planted code,
    and whole sentences (a list through names_list, a word in a context) are not."""
    code = (
        'unwritten = _("; nothing was written") if writes else ""\n'                       # 1
        'raise ViewerError(_("the game is over{unwritten}").format(unwritten=unwritten))\n'  # 2
        'more = _(" (and {count} more)").format(count=n)\n'                                # 3
        'whose = _(" or ").join(_("{name}\'s").format(name=n) for n in names)\n'          # 4
        'line = ngettext("{a}{b}", "{a}{b}", n).format(a=a, b=b)\n'                        # 5
        'text = _("Created {path}.") + _("Send it.")\n'                                    # 6
        'text = f"{_(\'warning\')}: {problem}"\n'                                          # 7
        'text = _("won by {names}").format(names=names_list(winners))\n'                   # 8
        'letter = pgettext("colour letter", "r")\n'                                        # 9
        'text = _("{path}: {problem}").format(path=path, problem=problem)\n')              # 10
    lines = sorted({line for line, _why in glued_messages(ast.parse(code))})
    assert lines == [1, 2, 3, 4, 5, 6, 7]


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
