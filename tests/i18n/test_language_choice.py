"""Which language the text is in (uptown_cli.i18n): --lang or UPTOWN_LANG first, then gettext's
variables in gettext's order; English when nothing asked for has a catalog; catalogs read only
for a language other than English."""

import os
import subprocess
import sys

import pytest

from uptown_cli import i18n
from uptown_cli.i18n import _, choose, language, ngettext, pgettext, process_language

GETTEXT_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture
def catalogs(tmp_path):
    """A locale folder with (empty) catalogs for es, fr and pt_BR."""
    for code in ("es", "fr", "pt_BR"):
        path = tmp_path / code / "LC_MESSAGES" / "uptown.mo"
        path.parent.mkdir(parents=True)
        path.write_bytes(b"")
    return str(tmp_path)


def test_lang_given_wins_over_every_variable(catalogs):
    env = {"UPTOWN_LANG": "fr", **{name: "fr" for name in GETTEXT_VARIABLES}}
    assert choose("es", env, catalogs) == "es"


def test_uptown_lang_wins_over_gettext_variables(catalogs):
    env = {"UPTOWN_LANG": "es", **{name: "fr" for name in GETTEXT_VARIABLES}}
    assert choose(None, env, catalogs) == "es"


@pytest.mark.parametrize("first", range(len(GETTEXT_VARIABLES)))
def test_gettext_variables_are_read_in_gettexts_order(catalogs, first):
    """LANGUAGE, then LC_ALL, LC_MESSAGES, LANG: the first one set decides."""
    env = {name: "es" if i == first else "fr" for i, name in enumerate(GETTEXT_VARIABLES) if i >= first}
    assert choose(None, env, catalogs) == "es"


def test_the_first_variable_set_decides_even_without_a_catalog(catalogs):
    """As gettext does: LANGUAGE=de (no catalog) means English, whatever LANG says."""
    assert choose(None, {"LANGUAGE": "de", "LANG": "es_ES.UTF-8"}, catalogs) == "en"


def test_empty_variables_are_not_set(catalogs):
    assert choose(None, {"UPTOWN_LANG": "", "LANGUAGE": "", "LANG": "es_ES.UTF-8"}, catalogs) == "es"


def test_a_list_gives_its_first_language_with_a_catalog(catalogs):
    assert choose(None, {"LANGUAGE": "de:fr:es"}, catalogs) == "fr"


@pytest.mark.parametrize("asked", ["en", "en_GB.UTF-8", "C", "C.UTF-8", "POSIX", "en:es"])
def test_english_ends_the_search(catalogs, asked):
    assert choose(asked, {}, catalogs) == "en"


@pytest.mark.parametrize("asked, code", [
    ("es_ES.UTF-8", "es"), ("es_MX", "es"), ("es-419", "es"), ("ES", "es"), ("es_ES@euro", "es"),
    ("pt_BR.UTF-8", "pt_BR"), ("pt-br", "pt_BR"),
])
def test_locale_names_find_the_catalog_of_their_language(catalogs, asked, code):
    assert choose(asked, {}, catalogs) == code


@pytest.mark.parametrize("asked", ["xx", "de_DE.UTF-8", "pt", "klingon:tlh", ":", " "])
def test_an_unknown_language_falls_back_to_english(catalogs, asked):
    assert choose(asked, {}, catalogs) == "en"


def test_nothing_asked_is_english(catalogs):
    assert choose(None, {}, catalogs) == "en"


def test_spanish_catalog_translates_and_english_is_the_code_itself():
    with language("es") as code:
        assert code == "es" and i18n.current_language() == "es"
        assert _("Usage:") == "Uso:"
        assert pgettext("tile", "sax") == "saxofón"
    with language("en"):
        assert _("Usage:") == "Usage:"
        assert pgettext("tile", "sax") == "sax"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_plural_forms_come_from_the_language(lang):
    with language(lang):
        forms = [ngettext("Option {name!r} requires an argument.",
                          "Option {name!r} requires {nargs} arguments.", n) for n in (0, 1, 2)]
    plural, singular = (("La opción {name!r} requiere {nargs} argumentos.",
                         "La opción {name!r} requiere un argumento.") if lang == "es" else
                        ("Option {name!r} requires {nargs} arguments.",
                         "Option {name!r} requires an argument."))
    assert forms == [plural, singular, plural]


def test_a_library_function_reads_the_language_from_the_environment(monkeypatch):
    """With nothing chosen yet, the first message chooses from the environment."""
    monkeypatch.setattr(i18n, "_chosen", None)
    monkeypatch.setenv("UPTOWN_LANG", "es_AR.UTF-8")
    assert _("Usage:") == "Uso:"
    assert i18n.current_language() == "es"


def test_language_puts_back_the_language_before():
    with language("en"):
        with language("es"):
            assert _("Usage:") == "Uso:"
        assert _("Usage:") == "Usage:"


def test_process_language_reaches_gettexts_own_functions_and_is_undone(monkeypatch):
    """click's text goes through gettext.gettext: it speaks the chosen language inside the
    block, and the environment, the domain and this package's language are as before after."""
    import gettext

    monkeypatch.setenv("LANGUAGE", "fr")
    before = (dict(os.environ), gettext.textdomain())
    with language("en"):
        with process_language("es"):
            assert gettext.gettext("Usage:") == "Uso:"
            assert gettext.ngettext("Option {name!r} requires an argument.",
                                    "Option {name!r} requires {nargs} arguments.", 2) \
                == "La opción {name!r} requiere {nargs} argumentos."
            assert os.environ["UPTOWN_LANG"] == "es"
        assert (dict(os.environ), gettext.textdomain()) == before
        assert gettext.gettext("Usage:") == "Usage:"
        assert _("Usage:") == "Usage:"


@pytest.mark.parametrize("lang, reads_catalog", [("en", False), ("C.UTF-8", False), ("xx", False),
                                                 ("es", True)])
def test_a_catalog_is_read_only_for_a_language_other_than_english(lang, reads_catalog):
    """Start-up: English imports no gettext and opens no catalog."""
    code = ("import sys; from uptown_cli.i18n import _; _('Usage:');"
            "print('gettext' in sys.modules)")
    env = dict(os.environ, UPTOWN_LANG=lang)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert out.strip() == str(reads_catalog)
