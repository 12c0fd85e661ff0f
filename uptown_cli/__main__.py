"""The ``uptown`` program, also run as ``python -m uptown_cli``.

It starts with Python's cyclic garbage collector paused. Importing click, PyYAML and the
command's modules makes tens of thousands of objects and no garbage, and the collector would
walk them all again and again: about a sixth of the start-up of ``uptown show``. The command
line turns the collector back on once the command is imported, with everything made so far
set aside for good (``gc.freeze``), so a long command collects as usual.
"""

import gc

__all__ = ["main"]


def main() -> None:
    """The ``uptown`` program: the command line run with the cyclic garbage collector paused
    until the command is imported."""
    gc.disable()
    from .cli import run

    run(collector_paused=True)


if __name__ == "__main__":
    main()
