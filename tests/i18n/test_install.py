"""The catalogs travel with the package: a wheel (``pip install .``) and an editable install
(``pip install -e .``) of a clean copy of the project, each in a new virtual environment, both
speak Spanish; an editable install asked to compile the engine (``UPTOWN_COMPILE=1``) still runs
its sources. Slow (a build in an isolated environment each): ``-m 'not slow'`` skips them."""

import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

SOURCES = ("uptown_cli", "po", "build_backend", "pyproject.toml", "setup.py", "MANIFEST.in",
           "README.md")


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("how, compile", [(["."], None), (["-e", "."], None), (["-e", "."], "1")],
                         ids=["wheel", "editable", "editable_asked_to_compile"])
def test_an_install_carries_the_compiled_catalogs(tmp_path, how, compile):
    project = tmp_path / "project"
    project.mkdir()
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name,
                            ignore=shutil.ignore_patterns("__pycache__", "locale"))
        else:
            shutil.copy2(source, project / name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if k != "UPTOWN_COMPILE"}
    if compile is not None:
        env["UPTOWN_COMPILE"] = compile
    install = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *how], cwd=project,
                             capture_output=True, text=True, timeout=500, env=env)
    assert install.returncode == 0, install.stderr
    shutil.rmtree(project / "po")  # what runs is what was installed, not the catalogs' sources

    result = subprocess.run([str(venv / "bin" / "uptown"), "--lang", "es", "nosuch"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60,
                            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    assert result.returncode == 2
    assert result.stderr.startswith("Uso: uptown [OPCIONES] COMANDO [ARGUMENTOS]...\nPrueba 'uptown --help'")
    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "from uptown_cli.i18n import catalog_path; print(catalog_path('es'))"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True)
    inside = project if how[0] == "-e" else venv
    assert where.stdout.startswith(str(inside)), where.stdout
    engine = subprocess.run([str(venv / "bin" / "python"), "-c",
                             "import uptown_cli.engine.game as game; print(game.__file__)"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True)
    assert engine.stdout.startswith(str(inside)), engine.stdout
    assert engine.stdout.strip().endswith("/uptown_cli/engine/game.py"), engine.stdout  # not compiled
