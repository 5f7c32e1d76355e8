"""The [dask] extra stays optional: the core package never imports Dask, and without it
`import tiled_matmul.dask` says how to install it. No Dask needed for these tests."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest


def test_core_package_never_imports_dask():
    code = ("import sys, tiled_matmul, tiled_matmul.api, tiled_matmul.cli\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed', 'dask_cuda'))\n"
            "print(','.join(bad))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "", f"import tiled_matmul imported {proc.stdout.strip()}"


@pytest.mark.parametrize("missing", ["dask", "dask.array"])
def test_missing_extra_names_the_install_command(monkeypatch, missing):
    monkeypatch.setitem(sys.modules, missing, None)  # `import missing` now raises ImportError
    monkeypatch.delitem(sys.modules, "tiled_matmul.dask", raising=False)
    with pytest.raises(ImportError, match=r'pip install "tiled-matmul\[dask\]"') as info:
        importlib.import_module("tiled_matmul.dask")
    assert missing in str(info.value)  # and says what failed to import
