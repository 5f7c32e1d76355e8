"""The wheel ships the templates, and an installed copy renders without the repository (CPU)."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

import tiled_matmul as tm

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (whl,) = out.glob("tiled_matmul-*.whl")
    return whl


def test_wheel_contents(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for entry in tm.STRATEGIES.values():
        assert f"tiled_matmul/kernels/{entry.template}" in names
    assert "tiled_matmul/__init__.py" in names
    assert not any(n.startswith("tests/") for n in names)


def test_installed_wheel_renders(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    # system_site_packages: reuse numpy/jinja2/cupy from this interpreter instead of downloading.
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    proc = subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    code = (
        "import tiled_matmul as tm, pathlib, sys;"
        "from tiled_matmul.render import templates_dir;"
        "assert 'site-packages' in str(templates_dir()), templates_dir();"
        "print(tm.source('smem_tiled', tile=32))"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([str(py), "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "constexpr int TILE = 32;" in proc.stdout
