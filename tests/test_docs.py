"""The README documents what the code does (CPU only)."""

from __future__ import annotations

from pathlib import Path

import tiled_matmul as tm
from tiled_matmul.docs import readme_block

ROOT = Path(__file__).resolve().parent.parent


def test_readme_strategy_table_matches_registry():
    readme = (ROOT / "README.md").read_text()
    assert readme_block() in readme, "README strategy table is stale: run `python -m tiled_matmul.docs`"
    for name in tm.STRATEGIES:
        assert f"`{name}`" in readme


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    cmd = "python3 -m pytest -q"
    assert cmd in readme and cmd in ci
