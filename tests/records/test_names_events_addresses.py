"""What a record's names, event and e-mail addresses may hold (issue 27; the rule:
``records.names``, records/README.md "Players" and "The keys"): control characters are refused
by ``validate`` and ``new``, so such a record never exists; MIME encoded-word syntax is a
warning in an old file and refused by ``new``; an address is any ``local@domain`` a mail system
takes. And a closed standard input is one line, not a traceback."""

import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uptown_cli.records.names import address_problem
from uptown_cli.records.reading import load_record
from uptown_cli.turns.validation import validate_text

CONTROLS = ["\x00", "\x07", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\x9b", "\u2028", "\u2029"]
"""C0 (tab and line breaks too), DEL, C1 and the line and paragraph separators."""


def record(name="Ana", event=None, email=None):
    """A three-player record whose first player, event and address are as given (written as
    YAML double-quoted text, escapes and all)."""
    def quoted(text):
        return '"' + text.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'

    head = f"event: {quoted(event)}\n" if event is not None else ""
    address = f"    email: {quoted(email)}\n" if email is not None else ""
    return (f"uptown: 1\n{head}players:\n  - name: {quoted(name)}\n{address}  - name: Bo\n"
            "  - name: Cy\nseed: 7\nmoves:\n")


@pytest.mark.parametrize("control", CONTROLS, ids=repr)
@pytest.mark.parametrize("field", ["name", "event"])
def test_a_control_character_in_a_name_or_the_event_is_an_error(uptown, tmp_path, field, control):
    text = record(**{field: f"Club{control}night"})
    checked = validate_text(text, "g.yaml")
    assert not checked.valid
    [error] = checked.errors
    assert error.line == (2 if field == "event" else 3)
    assert repr(f"Club{control}night") in error.message and error.message.isprintable()
    path = tmp_path / "g.yaml"
    path.write_text(text)
    result = uptown.invoke("validate", path)
    assert result.exit_code == 1 and len(result.stdout.splitlines()) == 2
    shown = uptown.invoke("show", path)
    assert shown.exit_code == 1 and shown.stderr.count("\n") == 1


@pytest.mark.parametrize("control", CONTROLS, ids=repr)
def test_new_refuses_a_control_character_in_a_name(uptown, tmp_path, control):
    for hidden in ([], ["--hidden"]):
        path = tmp_path / "g.yaml"
        result = uptown.invoke("new", path, "-p", f"A{control}na", "-p", "Bo", "-p", "Cy", *hidden)
        assert result.exit_code == 2 and "printable" in result.output
        assert not path.exists()


@pytest.mark.parametrize("field, text", [
    ("name", "=?utf-8?q?Bo=0D=0A=0D=0Ahijacked?="), ("event", "=?utf-8?q?Club=0D=0AReply-To:_e?="),
    ("name", "=?utf-8?b?=0D=0A ;?="), ("event", "The =?x?= cup"),
])
def test_encoded_word_syntax_in_an_old_file_is_a_warning(uptown, tmp_path, field, text):
    checked = validate_text(record(**{field: text}), "g.yaml")
    assert checked.valid and checked.record is not None
    [warning] = checked.warnings
    assert (warning.line, warning.move) == (2 if field == "event" else 3, None)
    assert "MIME encoded word" in warning.message
    path = tmp_path / "g.yaml"
    path.write_text(record(**{field: text}))
    result = uptown.invoke("validate", path)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith(f"{path}:{warning.line}: warning: the {field} ")


def test_new_refuses_encoded_word_syntax_in_a_name(uptown, tmp_path):
    result = uptown.invoke("new", tmp_path / "g.yaml", "-p", "=?utf-8?q?Bo?=", "-p", "Cy")
    assert result.exit_code == 2 and "MIME encoded word" in result.output
    assert not (tmp_path / "g.yaml").exists()


@pytest.mark.parametrize("address", [
    "ana@example.org", "ana@localhost", "ana.b+club@mail.example.org", "jürgen@example.org",
    "ana@bücher.example", '"ana smith"@example.org', "ana@[127.0.0.1]", "ana@[IPv6:2001:db8::1]",
    "a" * 64 + "@example.org", "ana@" + "b" * 63 + ".org", "ana@a-b.c0",
])
def test_an_address_a_mail_system_takes_is_an_address(uptown, tmp_path, address):
    assert address_problem(address) is None
    assert validate_text(record(email=address), "g.yaml").valid
    path = tmp_path / "g.yaml"
    result = uptown.invoke("new", path, "-p", f"Ana <{address}>", "-p", "Bo", "-p", "Cy")
    assert result.exit_code == 0, result.output
    assert load_record(path).players[0].email == address


@pytest.mark.parametrize("address", [
    "ana", "ana@", "@example.org", "ana @example.org", "ana@example.org.", "ana@-x.org",
    "ana@x-.org", "ana..b@example.org", ".ana@example.org", "ana@exa mple.org", "Ana <ana@x.org>",
    "ana@x.org\n", "ana\x1b@x.org", "ana@x\u2028.org", "a" * 65 + "@example.org",
    "ana@" + "b" * 64 + ".org", "ana@" + "ü" * 70 + ".org", "ana@[300.0.0.1]", "ana@[IPv6:xyz]",
    '"ana"smith@example.org', "ana@x@y.org", "a" * 60 + "@" + ".".join(["b" * 60] * 4) + ".org",
])
def test_what_no_mail_system_takes_is_no_address(address):
    assert address_problem(address) is not None
    checked = validate_text(record(email=address), "g.yaml")
    assert not checked.valid and "is not an email address" in checked.errors[0].message


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=30))
def test_an_address_holds_no_control_character_or_line_break(text):
    """Whatever is taken as an address can go into a mail header as it is."""
    for address in (text, text + "@example.org", "ana@" + text):
        if address_problem(address) is None:
            assert address.isprintable()


@pytest.mark.parametrize("player", ["Ana <ana>", "Ana <3", "Ana <ana@x.org", "<b>Bo</b>",
                                    "Ana <ana@x.org> <b@x.org>"])
def test_new_refuses_what_looks_like_name_and_address_but_is_not(uptown, tmp_path, player):
    result = uptown.invoke("new", tmp_path / "g.yaml", "-p", player, "-p", "Bo", "-p", "Cy")
    assert result.exit_code == 2 and repr(player) in result.output
    assert not (tmp_path / "g.yaml").exists()


@pytest.mark.parametrize("command", [["validate", "-"], ["show", "-"], ["score", "-"],
                                     ["replay", "-"], ["diff", "-", "g.yaml"]])
def test_a_closed_standard_input_is_one_line_and_exit_1(uptown, tmp_path, command):
    (tmp_path / "g.yaml").write_text(record())
    result = subprocess.run(["bash", "-c", f"{uptown.path} {' '.join(command)} <&-"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr
    said = (result.stdout if command[0] == "validate" else result.stderr).splitlines()[0]
    assert said.endswith("<stdin>: cannot read standard input: it is closed")
