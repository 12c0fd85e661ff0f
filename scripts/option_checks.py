"""Checks that the training scripts make of their options before a run of an hour, so that a
mistake is a usage error (exit status 2) at the start rather than a traceback at the end."""

import os


def refuse_bad_options(parser, args, counts=(), positive=(), not_negative=(), paths=()):
    """``parser.error`` when an option named in ``counts`` is below 1, one in ``positive`` is
    not above 0 or one in ``not_negative`` is below 0 (``nan`` is neither), or one in ``paths``
    names a file the run could not write at its end: a folder, or a file in no folder or in one
    it may not write in."""
    def refuse(name, why):
        parser.error(f"--{name.replace('_', '-')} {why}")

    for name in counts:
        if not getattr(args, name) >= 1:
            refuse(name, "must be at least 1")
    for name in positive:
        if not getattr(args, name) > 0:
            refuse(name, "must be above 0")
    for name in not_negative:
        if not getattr(args, name) >= 0:
            refuse(name, "may not be below 0")
    for name in paths:
        path = getattr(args, name)
        if path is None:
            continue
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            refuse(name, f"{path}: is a folder, not a file")
        if not os.path.isdir(folder):
            refuse(name, f"{path}: no such folder")
        if not os.access(folder, os.W_OK):
            refuse(name, f"{path}: cannot write in {folder}")
