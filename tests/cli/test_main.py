"""The ``uptown`` group: --version, --help and -h, light start-up, commands registered by name."""

import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from uptown_cli import __version__
from uptown_cli.cli import COMMANDS, main

IN_PROGRESS = Path(__file__).resolve().parents[2] / "records" / "in-progress.yaml"


def test_version(uptown):
    result = uptown.invoke("--version")
    assert result.exit_code == 0
    assert result.stdout == f"uptown, version {__version__}\n"


def test_help_lists_every_command(uptown):
    result = uptown.invoke("--help")
    assert result.exit_code == 0
    assert "Uptown" in result.stdout
    for name in COMMANDS:
        assert f"\n  {name} " in result.stdout


@pytest.mark.parametrize(
    "command, words",
    [
        ("new", ["--player", "--variant", "--seed", "NAME[:COLOR[,COLOR]]"]),
        ("show", ["--at", "--json", "--format", "--no-color"]),
        ("replay", ["--from", "--to", "--no-color"]),
        ("validate", ["--strict", "--json", "PATH:LINE: message"]),
        ("score", ["--variant", "--json", "--format"]),
        ("moves", ["--json", "--format", "seed"]),
        ("move", ["--as", "--rack", "--bot", "--dry-run", "--playouts", "uptown move 7 B7"]),
        ("hint", ["--bot", "--playouts", "--json"]),
        ("send", ["--to", "--as", "--sendmail", "--output", "$UPTOWN_SMTP"]),
        ("receive", ["--into", "--mbox", "--maildir", "--json"]),
        ("status", ["--as", "--json"]),
        ("ratings", ["--variant", "--json", "--format", "openskill"]),
    ],
)
def test_command_help(uptown, command, words):
    result = uptown.invoke(command, "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Usage: uptown {command} ")
    for word in words:
        assert word in result.stdout


def test_unknown_command_is_a_usage_error(uptown):
    result = uptown.invoke("shwo")
    assert result.exit_code == 2
    assert "No such command" in result.stderr


def test_the_program_turns_the_collector_back_on_once_the_command_is_imported(tmp_path):
    """``uptown`` starts with the cyclic garbage collector paused (``__main__``) and runs the
    command with it on again, everything imported set aside (frozen)."""
    game = tmp_path / "game.yaml"
    shutil.copyfile(IN_PROGRESS, game)
    probe = (
        "import gc, sys\n"
        "from uptown_cli import __main__\n"
        "from uptown_cli.cli import view\n"
        "seen = []\n"
        "real = view.read_game\n"
        "def spy(*args, **kwargs):\n"
        "    seen.append((gc.isenabled(), gc.get_freeze_count() > 0))\n"
        "    return real(*args, **kwargs)\n"
        "view.read_game = spy\n"
        f"sys.argv = ['uptown', 'show', {str(game)!r}]\n"
        "try:\n    __main__.main()\nexcept BaseException:\n    pass\n"
        "print(seen)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[(True, True)]"


def test_python_m_uptown_cli_is_the_program():
    result = subprocess.run([sys.executable, "-m", "uptown_cli", "--version"], capture_output=True, text=True)
    assert result.returncode == 0
    assert result.stdout == f"uptown, version {__version__}\n"



def test_console_script_error_is_one_line_without_traceback(uptown, tmp_path):
    result = uptown.run("show", tmp_path / "nothing.yaml")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip().count("\n") == 0
    assert "Traceback" not in result.stderr
    assert "nothing.yaml: no such file" in result.stderr


def test_every_command_is_registered_with_its_own_summary():
    for name, (_, summary) in COMMANDS.items():
        command = main.get_command(click.Context(main), name)
        assert command.name == name
        assert command.help.split("\n")[0] == summary
        assert len(f"  {name}  {summary}") <= 80


def test_dash_h_is_help(uptown):
    assert uptown.invoke("-h").stdout == uptown.invoke("--help").stdout
    assert uptown.invoke("move", "-h").stdout.startswith("Usage: uptown move ")


def test_each_shared_option_has_one_help_text_in_every_command():
    """--as, --json, --keys, --playouts, --format and --color are declared once (cli.options):
    every command that takes one says the same of it."""
    from uptown_cli.cli import COMMANDS
    from uptown_cli.cli import main as group

    helps = {}
    for name in COMMANDS:
        command = group.get_command(None, name)
        for param in command.params:
            if set(param.opts) & {"--as", "--json", "--keys", "--playouts", "--format", "--color"}:
                helps.setdefault(param.opts[0], set()).add(param.help)
    assert set(helps) == {"--as", "--json", "--keys", "--playouts", "--format", "--color"}
    assert all(len(texts) == 1 for texts in helps.values()), helps


def test_the_bot_names_of_the_help_are_the_bots_of_the_library():
    """The command line names the bots without importing them (fast help): the same names."""
    from uptown_cli.analysis import bots
    from uptown_cli.cli import options

    assert options.BOT_NAMES == bots.BOT_NAMES and options.MC_PLAYOUTS == bots.MC_PLAYOUTS
    assert options.PLAYOUT_BOTS == bots.PLAYOUT_BOTS
