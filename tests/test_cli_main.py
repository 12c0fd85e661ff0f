"""The ``uptown`` group: --version, --help, light start-up, analysis commands joining in."""

import subprocess
import sys
import types

import click
import pytest
from test_cli_support import UPTOWN, invoke, run

from uptown_cli import __version__, cli

COMMANDS = ("new", "show", "replay", "validate", "score", "moves", "move")


def test_version():
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout == f"uptown, version {__version__}\n"


def test_help_lists_every_command():
    result = invoke("--help")
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
        ("move", ["--as", "--color", "--bot", "uptown move 7 B7"]),
    ],
)
def test_command_help(command, words):
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Usage: uptown {command} ")
    for word in words:
        assert word in result.stdout


def test_unknown_command_is_a_usage_error():
    result = invoke("shwo")
    assert result.exit_code == 2
    assert "No such command" in result.stderr


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["show", "--help"], ["move", "--help"]])
def test_start_up_imports_neither_yaml_nor_tabulate(args):
    probe = (
        "import sys\n"
        "from uptown_cli.cli import main\n"
        f"try:\n    main({args!r})\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in ('yaml', 'tabulate') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines()[-1] == "[]"


def test_version_through_the_console_script_with_importtime():
    result = subprocess.run(
        [sys.executable, "-X", "importtime", str(UPTOWN), "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0
    assert result.stdout == f"uptown, version {__version__}\n"
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()}
    assert "uptown_cli.cli" in imported
    assert not imported & {"yaml", "tabulate"}


def test_console_script_error_is_one_line_without_traceback(tmp_path):
    result = run("show", tmp_path / "nothing.yaml")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip().count("\n") == 0
    assert "Traceback" not in result.stderr
    assert "nothing.yaml: no such file" in result.stderr


def test_analysis_commands_join_the_group_when_their_module_exists(monkeypatch):
    @click.command()
    def fake():
        """A fake analysis command."""
        click.echo("analysed")

    monkeypatch.setitem(sys.modules, "uptown_cli.analysis_cli", types.SimpleNamespace(COMMANDS=[fake]))
    cli.module_commands.cache_clear()
    try:
        assert "fake" in invoke("--help").stdout
        assert invoke("fake").stdout == "analysed\n"
    finally:
        cli.module_commands.cache_clear()
