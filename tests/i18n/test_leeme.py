"""docs/LEEME.md, the Spanish guide, can be followed as written: its first game, marked
runnable, prints in Spanish what the page shows (the README's first game is run the same way,
in English: tests/test_docs.py)."""

from pathlib import Path

from support import transcripts

LEEME = Path(__file__).resolve().parents[2] / "docs" / "LEEME.md"


def test_the_leemes_first_game_prints_what_it_shows(uptown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("UPTOWN_GAME", raising=False)
    transcripts.run_sessions(uptown, LEEME.read_text(encoding="utf-8"), first_only=False,
                             env={"UPTOWN_LANG": "es"})
