"""Console sessions written in the docs (the README's first game, the LEEME's), run as they
are written: ``$ `` starts a command, the lines up to the next one are what it prints, and a
line ``...`` stands for any lines."""

import shlex

RUNNABLE = "<!-- runnable"
"""The comment that marks the next console block of a page as a session the tests run."""


def blocks(text, language):
    """The fenced blocks of a page's ``text`` in ``language``, as (the line before the fence,
    the text)."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        if line == f"```{language}":
            end = lines.index("```", index + 1)
            found.append((lines[index - 1] if index else "", "\n".join(lines[index + 1:end])))
    return found


def session(block):
    """The (command, expected output) pairs of a console block."""
    pairs = []
    for line in block.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        else:
            pairs[-1][1].append(line)
    return pairs


def matches(expected, printed):
    """Whether ``printed`` is the ``expected`` lines, each ``...`` line standing for any lines."""
    import re

    pattern = "".join(r"(?:[^\n]*\n)*?" if line == "..." else re.escape(line) + r"\n" for line in expected)
    return re.fullmatch(pattern, printed) is not None


def run_sessions(uptown, text, first_only=True, env=None):
    """Run the console sessions of a page's ``text`` with the ``uptown`` fixture: the one marked
    runnable (``first_only``), or it and every console block after it; each command must print
    what the page shows and exit 1 where it shows an error, else 0."""
    found = blocks(text, "console")
    marked = [index for index, (before, _block) in enumerate(found) if before.startswith(RUNNABLE)]
    assert marked, "the page marks its first session runnable"
    chosen = [found[marked[0]][1]] if first_only else [block for _, block in found[marked[0]:]]
    for block in chosen:
        for command, expected in session(block):
            words = shlex.split(command)
            assert words[0] == "uptown"
            result = uptown.invoke(*words[1:], env=env)
            assert matches(expected, result.output), f"$ {command}\n{result.output}"
            assert result.exit_code == (1 if expected[0].startswith("Error:") else 0), command
