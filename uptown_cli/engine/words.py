"""Fixed words that name a state or a choice and are written as they are (in records, JSON and
messages): ``Word``, the base of their enums, whose members are the words themselves."""

from enum import Enum

__all__ = ["Word"]


class Word(str, Enum):
    """An enum whose members are strings: equal to, printed, formatted and written to JSON as
    their value (``"finished"``), whatever the Python version (``enum.StrEnum`` from 3.11)."""

    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, format_spec: str) -> str:
        return str.__format__(self, format_spec)
