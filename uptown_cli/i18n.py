"""The players' language: which one is chosen, and the text in it (gettext).

Every message for people is written in English in the code and marked where it is made:
``_("Bo to move")``; ``ngettext("{n} group", "{n} groups", n).format(n=n)`` for the plural
forms of the language in use; ``pgettext("tile", "sign")`` for a word whose meaning needs a
context; ``N_("text")`` marks text made when a module is imported (a table of summaries), to
be translated with ``_`` where it is shown.

The language is the one ``use_language`` was given (the command line's ``--lang``), else
``UPTOWN_LANG``, else the first of gettext's variables that is set, in gettext's order:
``LANGUAGE`` (a list: ``es:fr``), ``LC_ALL``, ``LC_MESSAGES``, ``LANG``. In the list the value
gives, the first language with a catalog wins; ``en``, ``C`` or ``POSIX`` (the code's own
English) ends the search, and so does the end of the list: a language without a catalog is
English, never an error. A library function needs no argument for it: ``_`` reads the
language chosen for the process, from the environment on first use.

Catalogs are compiled from ``po/LANG.po`` when the package is built or installed, into
``locale/LANG/LC_MESSAGES/uptown.mo`` beside this module; one is read only when its language
is chosen, so English costs a look at the environment and nothing more (start-up).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import datetime
    from typing import Protocol

    class Translations(Protocol):
        """What a catalog gives (gettext's ``NullTranslations`` and ``GNUTranslations`` do)."""

        def gettext(self, message: str, /) -> str: ...

        def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

        def pgettext(self, context: str, message: str, /) -> str: ...

__all__ = ["ENGLISH", "current_language", "process_language", "pgettext", "decimal_separator",
           "figures", "thousands", "names_list", "duration", "moment", "system_reason"]


DOMAIN = "uptown"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
ENGLISH = "en"
"""The language of the messages as written in the code."""
VARIABLES = ("UPTOWN_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the language is read from when none is given, first found first; each may hold a list
separated by colons (gettext reads the last four, in this order)."""


class English:
    """The code's own text, without reading a catalog (nor importing gettext)."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str, /) -> str:
        return message


_chosen: tuple[str, Translations] | None = None
"""(the language's code, its translations) once chosen."""


def _candidates(name: str) -> list[str]:
    """The catalog names to try for a language as people write it, most precise first:
    ``es_ES.UTF-8@euro`` and ``es-ES`` give ``es_ES`` then ``es``; ``C.UTF-8`` gives ``C``."""
    base = name.strip().replace("-", "_").split(".")[0].split("@")[0]
    language, _sep, territory = base.partition("_")
    if language in ("C", "POSIX"):
        return [language]
    language = language.lower()
    return [f"{language}_{territory.upper()}", language] if territory else [language]


def _requested(lang: str | None = None, environ: Mapping[str, str] | None = None) -> list[str]:
    """The languages asked for, in order: ``lang`` when given (not empty), else those of the
    first variable of VARIABLES that is set."""
    if not lang:
        env = os.environ if environ is None else environ
        lang = next((env[name] for name in VARIABLES if env.get(name)), "")
    return [part for part in lang.split(":") if part.strip()]


def catalog_path(code: str, locale_dir: str = LOCALE_DIR) -> str:
    return os.path.join(locale_dir, code, "LC_MESSAGES", f"{DOMAIN}.mo")


def choose(lang: str | None = None, environ: Mapping[str, str] | None = None,
           locale_dir: str = LOCALE_DIR) -> str:
    """The code of the catalog to use for ``lang`` (or the environment), ``en`` for English
    (asked for, or no catalog for what was asked)."""
    for name in _requested(lang, environ):
        for code in _candidates(name):
            if code in ("C", "POSIX") or code.split("_")[0] == ENGLISH:
                return ENGLISH
            if os.path.isfile(catalog_path(code, locale_dir)):
                return code
    return ENGLISH


def _load(code: str) -> Translations:
    if code == ENGLISH:
        return English()
    import gettext

    with open(catalog_path(code), "rb") as catalog:
        return gettext.GNUTranslations(catalog)


def use_language(lang: str | None = None) -> str:
    """Use ``lang`` (``es``, ``es_MX.UTF-8``; None: the environment's) for this package's text
    from now on; its code (``en`` when there is no catalog for it)."""
    global _chosen
    code = choose(lang)
    _chosen = (code, _load(code))
    return code


def _translations() -> Translations:
    if _chosen is None:
        use_language()
    assert _chosen is not None
    return _chosen[1]


def current_language() -> str:
    """The code of the language in use: ``en``, ``es``, ..."""
    _translations()
    assert _chosen is not None
    return _chosen[0]


@contextmanager
def language(lang: str | None) -> Iterator[str]:
    """This package's text in ``lang`` while the block runs (a test, a page made for one
    player); the language before is back after it. Yields the code in use."""
    global _chosen
    before = _chosen
    try:
        yield use_language(lang)
    finally:
        _chosen = before


@contextmanager
def process_language(lang: str | None) -> Iterator[str]:
    """``language(lang)`` for the whole process while the block runs: gettext's own functions,
    which other libraries use for their text (click's "Usage:", "Error:"), read this package's
    catalog in the same language, and the programs it starts inherit the choice
    (``UPTOWN_LANG``, ``LANGUAGE``). Everything is as before after the block."""
    import gettext

    saved = {name: os.environ.get(name) for name in ("UPTOWN_LANG", "LANGUAGE")}
    domain = gettext.textdomain()
    with language(lang) as code:
        if lang:
            os.environ["UPTOWN_LANG"] = lang
        if code != ENGLISH:
            gettext.bindtextdomain(DOMAIN, LOCALE_DIR)
            gettext.textdomain(DOMAIN)
            os.environ["LANGUAGE"] = code
        try:
            yield code
        finally:
            gettext.textdomain(domain)
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` in the language in use (Spanish, like English, has two; other
    languages have one, three or more: the catalog says which to use)."""
    return _translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, as meant in ``context``."""
    return _translations().pgettext(context, message)


def decimal_separator() -> str:
    """The decimal separator of the language in use for figures shown to people: ``.`` in
    English, ``,`` in Spanish (the catalog's entry in the context "decimal separator"). Never
    for ``--json``, csv or records, which keep the point."""
    # TRANSLATORS: the decimal separator of figures shown to people (a comma in Spanish)
    return pgettext("decimal separator", ".")


def thousands(number: int) -> str:
    """``number`` with its thousands grouped the language's way: ``3,314`` in English; Babel's
    grouping for the others, from five figures on (``3314``, ``13.314`` in Spanish, as the RAE
    writes them)."""
    code = current_language()
    if code == ENGLISH:
        return f"{number:,}"
    from babel.numbers import format_decimal

    return format_decimal(number, locale=code, group_separator=abs(number) >= 10_000)


def names_list(names: Iterable[str], style: str = "and") -> str:
    """``names`` as one list in a sentence of the language in use: ``Ana, Bo and Cy``
    (``style="and"``) or ``Ana, Bo or Cy`` (``"or"``) in English, ``Ana, Bo y Cy`` in Spanish
    (Babel's ``format_list``, read only for a language other than English). Every list of
    names, colours or moves shown inside a message goes through it."""
    items = list(names)
    code = current_language()
    if code != ENGLISH:
        from babel.lists import format_list

        return format_list(items, style="or" if style == "or" else "standard", locale=code)
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {'or' if style == 'or' else 'and'} {items[-1]}"


def duration(days: int, hours: int, minutes: int) -> str:
    """A duration for people from its parts (the zero ones left out, all three zero: minutes):
    ``2d 3h``, ``5h 20m`` in English; Babel's short units for the others (``2 d 3 h``)."""
    parts = [(n, unit) for n, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"))
             if n] or [(0, "minute")]
    code = current_language()
    if code == ENGLISH:
        return " ".join(f"{n}{unit[0]}" for n, unit in parts)
    from babel.units import format_unit

    return " ".join(format_unit(n, f"duration-{unit}", length="short", locale=code)
                    for n, unit in parts)


def moment(when: datetime) -> str:
    """A time (UTC) for people: ``2026-12-06 14:05 UTC`` in English; the language's long date
    and its hour for the others, by Babel (``6 de diciembre de 2026, 14:05 UTC``)."""
    from datetime import timezone

    when = when.astimezone(timezone.utc)
    code = current_language()
    if code == ENGLISH:
        return when.strftime("%Y-%m-%d %H:%M UTC")
    from babel import Locale
    from babel.dates import format_date

    pattern = str(Locale.parse(code).datetime_formats["long"])
    return pattern.replace("{1}", format_date(when, "long", locale=code)).replace(
        "{0}", when.strftime("%H:%M UTC"))


def figures(text: str) -> str:
    """``text`` with the decimal point of its numbers (``62.5%``, ``-3.25``, ``1.5->0.4``) made the
    language's separator; the same text in English. Only text for people goes through it."""
    separator = decimal_separator()
    if separator == ".":
        return text
    import re

    return re.sub(r"(?<![\w.])(\d+)\.(\d+)(?![\w.])", rf"\1{separator}\2", text)


def N_(message: str) -> str:
    """``message`` itself, marked for the catalogs: translate it with ``_`` where it is shown."""
    return message


SYSTEM_REASONS = {
    "ENOENT": N_("No such file or directory"), "EACCES": N_("Permission denied"),
    "EPERM": N_("Operation not permitted"), "EISDIR": N_("Is a directory"),
    "ENOTDIR": N_("Not a directory"), "EEXIST": N_("File exists"),
    "ENOSPC": N_("No space left on device"), "EDQUOT": N_("Disk quota exceeded"),
    "EROFS": N_("Read-only file system"), "EIO": N_("Input/output error"),
    "ENAMETOOLONG": N_("File name too long"), "ELOOP": N_("Too many levels of symbolic links"),
    "EMFILE": N_("Too many open files"), "EBUSY": N_("Device or resource busy"),
    "EAGAIN": N_("Resource temporarily unavailable"), "EPIPE": N_("Broken pipe"),
    "ENXIO": N_("No such device or address"), "ECONNREFUSED": N_("Connection refused"),
    "ECONNRESET": N_("Connection reset by peer"), "ETIMEDOUT": N_("Connection timed out"),
    "EHOSTUNREACH": N_("No route to host"), "ENETUNREACH": N_("Network is unreachable"),
}
"""The system's reasons that people meet (by errno's name), as the C library says them in
English: the catalogs translate them, as the system's own catalogs would."""


def system_reason(exc: BaseException) -> str:
    """Why the system refused (an ``OSError``'s ``strerror``; else the error's text), in the
    language in use: ``No such file or directory``, ``el archivo no existe``. English is the
    system's own text; another language translates the reasons of SYSTEM_REASONS, and keeps
    the system's text for the others."""
    text = getattr(exc, "strerror", None) or str(exc)
    number = getattr(exc, "errno", None)
    if current_language() == ENGLISH or not isinstance(number, int):
        return text
    import errno

    name = errno.errorcode.get(number, "")
    return _(SYSTEM_REASONS[name]) if name in SYSTEM_REASONS else text
