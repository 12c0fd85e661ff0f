"""The README is a short guide and the docs/ pages hold the rest; these tests keep them true.

The README: at most 300 lines; its first commands are the ones CI runs; its table names every
command of ``uptown -h``; it links every docs/ page; its first game, marked runnable, prints
what it shows; its Python example runs and is the one that opens docs/ENGINE_API.md. Every
page: its relative links lead to files (and headings) that exist, and the paths of the project
it names exist. docs/COMMANDS.md has a section for every command and, in one table, every exit
status the code gives."""

import doctest
import re
from pathlib import Path

import pytest
from support import transcripts

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
COMMANDS = DOCS / "COMMANDS.md"
PAGES = [README, ROOT / "CHANGELOG.md", ROOT / "records" / "README.md", ROOT / "tests" / "README.md",
         *sorted(DOCS.glob("*.md"))]
def text(path):
    """The text of ``path``."""
    return path.read_text(encoding="utf-8")


def blocks(page, language):
    """The fenced blocks of ``page`` in ``language``, as (the line before the fence, the text)."""
    return transcripts.blocks(text(page), language)


def command_names(uptown):
    """The commands ``uptown -h`` lists."""
    result = uptown.invoke("-h")
    assert result.exit_code == 0
    listed = result.output.split("Commands:\n", 1)[1]
    return {line.split()[0] for line in listed.splitlines() if line.startswith("  ") and line[2] != " "}


def section(page, heading):
    """The text of ``page`` under ``heading`` (a whole heading line), up to the next heading of
    its level or above."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text(page).splitlines()
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines))
                if re.match(r"#{1,%d} " % level, lines[i])), len(lines))
    return "\n".join(lines[start:end])


# -- the README -------------------------------------------------------------------------------


def test_the_readme_is_a_guide_of_at_most_300_lines():
    assert len(text(README).splitlines()) <= 300


def test_the_readme_opens_with_what_it_is_then_a_command_that_runs_a_bundled_record():
    lines = text(README).splitlines()
    commands = [line.strip() for line in lines[:20] if line.startswith("    ")]
    assert lines[0] == "# uptown" and "Uptown" in lines[2]
    install, *rest = commands[0].split(" && ")
    assert install == "python3 -m venv .venv"
    assert rest[0] == ".venv/bin/pip install -e ."
    command = rest[1].split()
    assert command[0] == ".venv/bin/uptown" and (ROOT / command[-1]).is_file()


def test_the_readmes_test_command_is_what_ci_runs():
    command = [line.strip() for line in text(README).splitlines()[:20] if line.startswith("    ")][1]
    steps = command.split(" && ")
    assert steps[0] == "python3 -m venv .venv"
    ci = text(ROOT / ".ci" / "run").splitlines()
    for step in steps[1:]:
        assert step.replace(".venv/bin/", '"$venv/bin/', 1).replace(" ", '" ', 1) in ci, step


def extra(name):
    """The requirements of the optional dependency ``name`` in pyproject.toml."""
    listed = re.search(r"^%s = \[(.*?)^\]" % name, text(ROOT / "pyproject.toml"), re.MULTILINE | re.DOTALL)
    return set(re.findall(r'^\s*"([^"]+)"', listed.group(1), re.MULTILINE))


def test_the_test_extra_carries_what_the_cluster_tests_need():
    assert extra("cluster") and extra("cluster") <= extra("test")


def test_the_readmes_table_has_every_command_of_uptown_help_and_no_other(uptown):
    table = section(README, "## The commands")
    rows = re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE)
    assert len(rows) == len(set(rows))
    assert set(rows) == command_names(uptown)


def test_the_readme_links_every_docs_page():
    linked = set(re.findall(r"\]\((docs/[\w.-]+\.md)", text(README)))
    assert linked == {f"docs/{page.name}" for page in DOCS.glob("*.md")}


def test_the_readme_points_spanish_speakers_to_their_page():
    assert "En español: [docs/LEEME.md](docs/LEEME.md)" in "\n".join(text(README).splitlines()[:20])


def test_the_readmes_python_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    failed, tried = doctest.testfile(str(README), module_relative=False, report=True,
                                     optionflags=doctest.ELLIPSIS)
    assert tried >= 8 and failed == 0, f"{failed} of {tried} examples of the README failed"


def test_the_readmes_python_example_opens_the_engine_api_guide_and_fits_80_columns():
    [(_, example)] = blocks(README, "pycon")
    assert blocks(DOCS / "ENGINE_API.md", "pycon")[0][1] == example
    assert max(len(line) for line in example.splitlines()) <= 80


def test_the_readmes_first_game_prints_what_it_shows_and_writes_its_moves(uptown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("UPTOWN_GAME", raising=False)
    transcripts.run_sessions(uptown, text(README))
    [moves] = [block for _, block in blocks(README, "yaml") if block.startswith("moves:")]
    assert text(tmp_path / "game.yaml").endswith(moves + "\n")


# -- every page -------------------------------------------------------------------------------


def anchor(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, blanks as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page):
    """The anchors of the headings of ``page`` (outside code blocks)."""
    found, fenced = set(), False
    for line in text(page).splitlines():
        fenced ^= line.startswith("```")
        if not fenced and line.startswith("#"):
            found.add(anchor(line.lstrip("#")))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page):
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text(page)):
        if re.match(r"\w+:", target):
            continue  # https:, mailto:
        path, _, fragment = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists() or (fragment and fragment not in anchors(linked)):
            broken.append(target)
    assert not broken, f"{page.name}: links to nothing: {broken}"


PROJECT_PATH = re.compile(r"(?<![\w./-])((?:uptown_cli|tests|scripts|examples)/[\w./-]*\w)")
"""A path of the project's code, tests, scripts or examples written in a page."""


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_path_of_the_project_a_page_names_exists(page):
    missing = [path for path in PROJECT_PATH.findall(text(page))
               if not (ROOT / path).exists() and not re.search(r"/[A-Z]{2,}\b", path)]
    assert not missing, f"{page.name} names paths that do not exist: {missing}"


def test_nothing_cites_the_spec_by_section():
    """The SPEC is not in the repository: the rules are cited by name or by their docs page."""
    sources = [*PAGES, *ROOT.joinpath("uptown_cli").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py"),
               *ROOT.joinpath("scripts").glob("*.py")]
    citing = [str(path.relative_to(ROOT)) for path in sources
              if re.search(r"SPEC (section|§)|SPEC's (table|order|shape)", text(path))]
    assert not citing


# -- docs/COMMANDS.md -------------------------------------------------------------------------


def test_every_command_has_its_section_in_commands_md(uptown):
    sections = set(re.findall(r"^### (\w+)$", text(COMMANDS), re.MULTILINE))
    assert command_names(uptown) <= sections


def test_every_exit_status_the_code_gives_is_in_the_one_table():
    """The table lists exactly the named statuses of ``cli.exits.ExitStatus`` (128 as 128 + N),
    and the command line exits with no other (tests/test_errors.py)."""
    from uptown_cli.cli.exits import ExitStatus

    table = section(COMMANDS, "## Exit status")
    documented = set(re.findall(r"^\| ([\d +N]+?) \|", table, re.MULTILINE))
    named = {"128 + N" if status is ExitStatus.SIGNAL else str(int(status)) for status in ExitStatus}
    assert documented == named
    assert text(COMMANDS).count("| status | when |") == 1
