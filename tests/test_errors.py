"""One module of error classes: each a ValueError, raised and exported by the modules that use it."""

import inspect

import pytest

from uptown_cli import errors, game, geometry, hidden_keys, notation, yamlsafe
from uptown_cli.club import inbox, mail


def test_every_error_is_a_value_error():
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass) if c.__module__ == errors.__name__]
    assert {c.__name__ for c in classes} == {
        "NotationError", "IllegalMove", "RacksUnknown", "RecordError", "KeyFileError", "MailError"}
    assert all(issubclass(c, ValueError) for c in classes)


@pytest.mark.parametrize("module, name", [
    (geometry, "NotationError"), (game, "IllegalMove"), (game, "RacksUnknown"),
    (yamlsafe, "RecordError"), (hidden_keys, "KeyFileError"), (mail, "MailError"),
    (inbox, "MailError"),
])
def test_the_modules_that_raise_an_error_export_the_same_class(module, name):
    assert getattr(module, name) is getattr(errors, name)


def test_errors_say_where_they_happened():
    error = errors.RecordError("bad\nthing", path="g.yaml", line=3, move=2)
    assert str(error) == "g.yaml:3: bad\\nthing"
    assert error.to_json() == {"line": 3, "move": 2, "message": "bad\\nthing"}
    with pytest.raises(errors.NotationError):
        notation.parse_move("7 Z9")
    assert errors.IllegalMove("split", "why").reason == "split"
