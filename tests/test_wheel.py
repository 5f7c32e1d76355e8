"""The wheel ships the templates, and an installed copy renders without the repository (CPU)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
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
    partials = sorted(p.name for p in (ROOT / "kernels").glob("_*.j2"))
    assert partials, "kernels/ holds no partials (_name.*.j2)"
    for name in partials:
        assert f"tiled_matmul/kernels/{name}" in names, f"partial {name} is not in the wheel"
    assert "tiled_matmul/__init__.py" in names
    assert not any(n.startswith("tests/") for n in names)


def test_installed_wheel_renders(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, env=env, check=True).stdout.strip()
    # Reuse numpy/jinja2 from this interpreter instead of downloading: its site-packages go on the
    # venv's path as plain entries, after the venv's own, so their .pth files do not run (an
    # editable install of a checkout there would otherwise shadow the wheel's package).
    host = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (Path(site) / "_host_site_packages.pth").write_text("".join(f"{d}\n" for d in host))
    proc = subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    code = (
        "import json, tiled_matmul as tm;"
        "from tiled_matmul.render import templates_dir;"
        f"assert str(templates_dir()).startswith({site!r}), templates_dir();"
        "print(json.dumps({n: tm.source(n) for n in tm.STRATEGIES}))"
    )
    proc = subprocess.run([str(py), "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    installed = json.loads(proc.stdout)
    # Every strategy renders from the installed copy, partials included, exactly as from here.
    assert installed == {n: tm.source(n) for n in tm.STRATEGIES}
