"""``uptown judge init``: a judge's folder (0700), its signing key (0600), its database and its
card, the line players give to ``uptown new --judge``."""

import os
import re
import stat

from uptown_cli.club.judge_store import Store
from uptown_cli.fairplay.signatures import public_key


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_init_makes_the_folder_the_key_the_database_and_prints_the_card(uptown, tmp_path):
    folder = tmp_path / "club" / "judge"
    result = uptown.invoke("judge", "init", folder, "--address", "judge@club.example",
                           "--archive", "archive@club.example")
    assert result.exit_code == 0, result.output
    address, key = result.stdout.split()
    assert address == "judge@club.example" and re.fullmatch("[0-9a-f]{64}", key)
    assert mode(folder) == 0o700 and mode(folder / "judge.key") == 0o600
    assert (folder / "games").is_dir()
    with Store.open(str(folder)) as store:
        judge = store.judge()
    assert (judge.email, judge.archive) == ("judge@club.example", "archive@club.example")
    assert bytes.fromhex(key) == public_key(judge.seed)


def test_init_again_keeps_the_key_and_prints_the_same_card(uptown, tmp_path):
    first = uptown.invoke("judge", "init", tmp_path / "judge", "--address", "judge@club.example")
    again = uptown.invoke("judge", "init", tmp_path / "judge", "--address", "judge@club.example")
    with Store.open(str(tmp_path / "judge")) as store:
        assert first.stdout == again.stdout == f"{store.judge().card}\n"


def test_init_takes_an_empty_folder_and_makes_it_private(uptown, tmp_path):
    folder = tmp_path / "judge"
    folder.mkdir(mode=0o755)
    assert uptown.invoke("judge", "init", folder, "--address", "judge@club.example").exit_code == 0
    assert mode(folder) == 0o700


def test_init_refuses_a_folder_that_is_not_a_judges(uptown, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = uptown.invoke("judge", "init", tmp_path, "--address", "judge@club.example")
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {tmp_path} exists and is not a judge's folder (it holds no "
                             "judge.key): give a new folder or an empty one\n")
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]


def test_init_refuses_another_address_for_a_judge(uptown, tmp_path):
    uptown.invoke("judge", "init", tmp_path / "judge", "--address", "judge@club.example")
    result = uptown.invoke("judge", "init", tmp_path / "judge", "--address", "other@club.example")
    assert result.exit_code == 1
    assert "is the judge of judge@club.example already, not of other@club.example" in result.stderr


def test_init_refuses_an_address_it_cannot_send_from(uptown, tmp_path):
    result = uptown.invoke("judge", "init", tmp_path / "judge", "--address", "not an address")
    assert result.exit_code == 1 and "the judge's address 'not an address' is not an address" in result.stderr
    assert not (tmp_path / "judge").exists()


def test_init_speaks_spanish(uptown, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = uptown.invoke("--lang", "es", "judge", "init", tmp_path, "--address", "judge@club.example")
    assert result.exit_code == 1 and "no es la carpeta de un juez" in result.stderr


def test_init_help_speaks_spanish(uptown):
    result = uptown.invoke("--lang", "es", "judge", "init", "--help")
    assert result.stdout.startswith("Uso: uptown judge init [OPCIONES] FOLDER")
    assert "Preparar la carpeta de un juez e imprimir su tarjeta." in result.stdout
