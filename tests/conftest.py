"""Fixtures shared by every test folder; helper functions are in ``support/`` (one module per
purpose: ``support.games`` makes games, ``support.players`` plays hidden games)."""

import importlib
import os
from pathlib import Path

import pytest
from support.cli import Uptown
from support.games import NOW, SEED, finished_game, new_game, play_first_moves
from support.hidden import older_protocol
from support.players import as_player

from uptown_cli.fairplay import signatures

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")


@pytest.fixture
def script_module(monkeypatch):
    """``script_module(name)``: the module of ``scripts/NAME.py`` (scripts are not a package: their
    folder is put on the path for the test)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "scripts"))
    return importlib.import_module


@pytest.fixture(scope="session")
def uptown():
    """The command line: ``uptown.invoke(*args, input=, env=)`` runs it in process (click's
    result; exceptions that escape the CLI fail the test), ``uptown.json(...)`` gives (result,
    the JSON printed), ``uptown.run(*args, cwd=, env=)`` runs it as a real process and
    ``uptown.run_powerless(*args, cwd=)`` as one that file permissions apply to even as root;
    ``uptown.path`` is the console script. One for the session (it keeps no state), so that
    hypothesis tests may take it too."""
    return Uptown()


@pytest.fixture(autouse=True)
def no_terminal_width(monkeypatch):
    """Every test runs without $COLUMNS (pytest-xdist sets it), as cron and pipes run uptown:
    no line is cut to a width unless the test gives one (a test's folder may be long)."""
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.fixture(autouse=True)
def no_signature_known_verified():
    """Every test starts with no signature known verified in its process
    (``fairplay.signatures``): what one test's tools verified spares another's no check."""
    signatures._VERIFIED.clear()


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium with one page, its window 1200 x 900 (``support.chromium``), for
    the tests of pages as a reader sees them; they are skipped, saying why, where there is
    no Chromium."""
    from support.chromium import BROWSER_ENV, Chromium, find_browser

    executable = find_browser()
    if executable is None:
        pytest.skip("no Chromium found: install it (Debian: apt-get install -y chromium) "
                    f"or set {BROWSER_ENV} to a Chromium binary")
    chromium = Chromium(executable, 1200, 900)
    yield chromium
    chromium.close()


@pytest.fixture
def game_file(uptown, tmp_path):
    """``game_file(text=None, *, name="game.yaml", players=3, seed=SEED, moves=0, hidden=False,
    sealed=False, mode=None)``: the path of a game file in the test's folder.

    With ``text`` (str or bytes) the file holds exactly that. Otherwise ``uptown new`` makes a
    game of the first ``players`` of Ana, Bo, Cy, Di and Ed (or of the names given) and
    ``uptown move`` plays its first ``moves`` legal moves; ``hidden=True`` makes a hidden-racks
    game (no seed) that every player has joined from their own key folder (``support.players``),
    of protocol 4 (its moves sealed, not signed) with ``sealed=True``. ``mode`` is then set with
    chmod.
    """

    def make(text=None, *, name="game.yaml", players=3, seed=SEED, moves=0, hidden=False,
             sealed=False, mode=None):
        path = tmp_path / name
        names = NAMES[:players] if isinstance(players, int) else tuple(players)
        if text is not None:
            (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
        elif hidden:
            result = uptown.invoke("new", path, "--hidden", *[x for n in names for x in ("-p", n)])
            assert result.exit_code == 0, result.output
            if sealed:
                older_protocol(path)
            for player in names:
                result = uptown.invoke("join", path, "--as", player,
                                       *(["--older-protocol"] if sealed else []),
                                       env=as_player(tmp_path, player))
                assert result.exit_code == 0, result.output
                assert "joined" in result.stdout
        else:
            new_game(path, *names, seed=seed)
            play_first_moves(path, moves)
        if mode is not None:
            path.chmod(mode)
        return path

    return make


@pytest.fixture
def new_record(game_file):
    """A new seeded game: Ana (red) has H 1 3 8 9, Bo (blue) C F 8 skyline car,
    Cy (green) H 7 man sign cards."""
    return game_file()


@pytest.fixture
def record_after(game_file):
    """``record_after(n)``: a new seeded three-player game after its first ``n`` legal moves."""
    return lambda count: game_file(moves=count)


@pytest.fixture
def finished_record(tmp_path):
    """(path, engine game) of a finished seeded three-player game with captures."""
    path = tmp_path / "finished.yaml"
    return path, finished_game(path)


@pytest.fixture(autouse=True)
def private_key_folder(tmp_path_factory, monkeypatch):
    """Each test keeps key files and players' memories (hidden racks, --as) in a folder of its
    own, never in the user's config folder."""
    monkeypatch.setenv("UPTOWN_KEYS", str(tmp_path_factory.mktemp("keys")))


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """Every test runs in English whatever the machine's locale (``UPTOWN_LANG`` wins over
    LANGUAGE, LC_ALL and LANG); tests of other languages set their own."""
    monkeypatch.setenv("UPTOWN_LANG", "en")


@pytest.fixture(autouse=True, scope="session")
def fixed_now():
    """Every command takes ``support.games.NOW`` as now (``UPTOWN_NOW``, for tests only), so
    that the time ``move`` writes under each move (``at:``, ``support.games.AT_LINE``) is known;
    tests of deadlines move it themselves. For the session, so that fixtures of any scope that
    play games see it too."""
    before = os.environ.get("UPTOWN_NOW")
    os.environ["UPTOWN_NOW"] = NOW
    yield
    if before is None:
        del os.environ["UPTOWN_NOW"]
    else:
        os.environ["UPTOWN_NOW"] = before
