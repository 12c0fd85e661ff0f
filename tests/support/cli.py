"""The ``uptown`` command line as a test runs it: ``Uptown``, the class of the ``uptown``
fixture (conftest.py). Tests take the fixture; only support modules import this one."""

import ctypes
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from uptown_cli.cli import main


def without_root_powers():
    """For a child process: as root, give up the capabilities that bypass file permissions
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so that permission bits apply as to anyone."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


class Uptown:
    """Runs ``uptown ARGS`` in process (``invoke``, ``json``) or as a real process (``run``,
    and ``run_powerless`` where file permissions must apply even to root). It keeps no state,
    so one serves every test."""

    path = Path(sys.executable).with_name("uptown")
    """The console script installed beside this Python."""

    def invoke(self, *args, input=None, env=None):
        """Run ``uptown ARGS`` in process; exceptions that escape the CLI fail the test."""
        return CliRunner().invoke(
            main, [str(a) for a in args], input=input, env=env, catch_exceptions=False,
            prog_name="uptown",
        )

    def json(self, *args, **options):
        """(result, the JSON it printed) of ``invoke(*args, **options)``."""
        result = self.invoke(*args, **options)
        return result, json.loads(result.stdout)

    def run(self, *args, cwd=None, env=None):
        """Run ``uptown ARGS`` as a real process (killed after a minute, so no test hangs)."""
        environment = dict(os.environ, **(env or {}))
        return subprocess.run(
            [str(self.path), *map(str, args)], capture_output=True, text=True, cwd=cwd,
            env=environment, timeout=60,
        )

    def run_powerless(self, *args, cwd):
        """``uptown ARGS`` as a real process that file permissions apply to (skips when, as
        root, the capabilities cannot be dropped)."""
        hook = without_root_powers if os.geteuid() == 0 else None
        try:
            return subprocess.run([str(self.path), *map(str, args)], cwd=cwd, capture_output=True,
                                  text=True, preexec_fn=hook, timeout=30)
        except subprocess.SubprocessError as exc:
            if "preexec_fn" in str(exc):
                pytest.skip("cannot drop root's file capabilities here")
            raise
