"""Standard input closed, standard output closed or full (/dev/full): every command says so
in one line with exit status 1, never a traceback; with its output closed a command does
nothing at all (a file it opened would take the closed output's place)."""

import os
import subprocess
import sys

import pytest

PLAYERS = ["-p", "Ana <ana@example.org>", "-p", "Bo <bo@example.org>"]


def uptown(args, cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, close=()):
    """Run ``uptown ARGS`` as a process in ``cwd``, with the descriptors ``close`` (0, 1)
    closed in it: (exit status, standard error)."""
    def closing():
        for fd in close:
            os.close(fd)

    done = subprocess.run([sys.executable, "-m", "uptown_cli", *args], cwd=cwd, stdin=stdin,
                          stdout=stdout, stderr=subprocess.PIPE, preexec_fn=closing,
                          timeout=60, check=False,
                          env={**os.environ, "UPTOWN_GAME": "", "UPTOWN_KEYS": str(cwd / "keys"),
                               "UPTOWN_SMTP": ""})
    return done.returncode, done.stderr.decode("utf-8", "replace")


def one_line_error(status, said):
    assert status == 1, said
    assert "Traceback" not in said
    assert said.count("\n") == 1 and said.startswith("Error: "), said
    return said


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    here = tmp_path_factory.mktemp("streams")
    assert uptown(["new", "g.yaml", *PLAYERS, "--seed", "3"], here)[0] == 0
    assert uptown(["move", "g.yaml", "--bot", "random"], here)[0] == 0
    return here


PRINTING = [
    ["show", "g.yaml"], ["moves", "g.yaml"], ["hint", "g.yaml"], ["score", "g.yaml"],
    ["replay", "g.yaml"], ["validate", "g.yaml"], ["diff", "g.yaml", "g.yaml"],
    ["export", "g.yaml"], ["stats", "g.yaml"], ["svg", "g.yaml"], ["html", "g.yaml"],
    ["status"], ["ratings"], ["send", "g.yaml", "--as", "Ana", "-o", "-"], ["--help"],
    ["--version"], ["show", "--help"],
]


@pytest.mark.parametrize("args", PRINTING, ids=" ".join)
def test_a_full_standard_output_is_one_line_and_exit_status_1(folder, args):
    with open("/dev/full", "wb") as full:
        said = one_line_error(*uptown(args, folder, stdout=full))
    assert said.startswith("Error: cannot write to standard output (No space left on device)")


@pytest.mark.parametrize("args", PRINTING + [["new", "n.yaml", *PLAYERS],
                                             ["move", "g.yaml", "--bot", "random"]], ids=" ".join)
def test_a_closed_standard_output_does_nothing_and_says_so(folder, args):
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    said = one_line_error(*uptown(args, folder, close=(1,)))
    assert said.startswith("Error: standard output is closed: nothing was done")
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before


@pytest.mark.parametrize("args", [
    ["show", "-"], ["moves", "-"], ["hint", "-"], ["score", "-"], ["replay", "-"],
    ["export", "-"], ["diff", "-", "g.yaml"], ["svg", "-"], ["html", "-"], ["analyze", "-"],
    ["receive"], ["receive", "-", "--into", "x.yaml"], ["engine", "--bot", "random"],
], ids=" ".join)
def test_a_closed_standard_input_is_one_line_and_exit_status_1(folder, args):
    status, said = uptown(args, folder, close=(0,))
    assert status == 1 and "Traceback" not in said, said
    assert "standard input" in said and "closed" in said, said
    assert said.count("\n") == 1 and said.startswith("Error: "), said
    assert not (folder / "x.yaml").exists()

