"""Checks that the training scripts make of their options before a run of an hour, so that a
mistake is one usage line at the start rather than a traceback at the end."""

import os


def refuse_bad_options(parser, args, counts=(), paths=()):
    """``parser.error`` (exit status 2, one line) when an option named in ``counts`` is below 1,
    or one named in ``paths`` names a file in no folder (the run would end without writing it)."""
    for name in counts:
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    for name in paths:
        path = getattr(args, name)
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            parser.error(f"--{name} {path}: no such folder")
