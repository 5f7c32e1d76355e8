"""The examples and the tour notebook: they run, and they print what they claim.

CPU: each example's no-GPU path runs as a reader would run it (a subprocess with PYTHONPATH set)
and its printed numbers are checked against the formulas; every example uses only the public API;
the notebook builder writes a valid notebook whose cells are the committed notebook's cells.
GPU (marked `gpu`): each example end to end, and the notebook executed through nbclient.
"""

from __future__ import annotations

import ast
import importlib.util
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tiled_matmul as tm
from .conftest import HAS_GPU

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
NOTEBOOK = EXAMPLES / "tiled_matmul_tour.ipynb"
SCRIPTS = sorted(p.name for p in EXAMPLES.glob("[0-9][0-9]_*.py"))

#: `tm.*` names the examples may use beyond tm.__all__: the registry API that is being added.
EXTRA_PUBLIC = {"register_strategy", "unregister_strategy"}


def run(script: str, *args: str, timeout: int = 600, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run a script as a reader would: a fresh interpreter, this checkout on PYTHONPATH."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = dict(os.environ, PYTHONPATH=path, MPLBACKEND="Agg")
    proc = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=cwd)
    print(proc.stdout[-4000:], proc.stderr[-4000:], sep="\n")  # shown by pytest when a test fails
    return proc


def run_example(name: str, *args: str) -> str:
    proc = run(EXAMPLES / name, *args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_six_examples_are_there():
    assert [s[:2] for s in SCRIPTS] == ["01", "02", "03", "04", "05", "06"], SCRIPTS


# ---------------------------------------------------------------------------------------------
# shape of every example
# ---------------------------------------------------------------------------------------------
def tm_attributes(tree: ast.AST) -> set[str]:
    return {n.attr for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "tm"}


def package_imports(tree: ast.AST) -> list[str]:
    """Imports of tiled_matmul other than `import tiled_matmul as tm` (submodules may be renamed)."""
    bad = []
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("tiled_matmul"):
            bad.append(f"from {n.module} import ...")
        if isinstance(n, ast.Import):
            bad += [a.name for a in n.names if a.name.startswith("tiled_matmul.")]
    return bad


@pytest.mark.parametrize("name", SCRIPTS + ["_common.py"])
def test_example_uses_only_the_public_api(name):
    tree = ast.parse((EXAMPLES / name).read_text())
    assert package_imports(tree) == []
    assert tm_attributes(tree) <= set(tm.__all__) | EXTRA_PUBLIC, tm_attributes(tree) - set(tm.__all__)


@pytest.mark.parametrize("name", SCRIPTS)
def test_example_has_main_guard_and_help(name):
    tree = ast.parse((EXAMPLES / name).read_text())
    guards = [n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test)]
    assert guards and ast.unparse(guards[0].body[0]) == "main()"
    out = run_example(name, "--help")
    assert "usage:" in out and "--shape" in out


# ---------------------------------------------------------------------------------------------
# CPU: the no-GPU path of each example, and the values it prints
# ---------------------------------------------------------------------------------------------
def assert_skipped_without_gpu(out: str) -> None:
    if not HAS_GPU:
        assert "[skipped]" in out and "tm.gpu_available() is False" in out


def test_01_prints_the_rendered_source():
    out = run_example("01_first_matmul.py")
    assert "constexpr int TILE = 16;" in out and 'extern "C" __global__' in out
    assert "launch grid for a 300x200 output: (13, 19, 1) blocks" in out  # ⌈200/16⌉, ⌈300/16⌉
    assert_skipped_without_gpu(out)


def test_01_refuses_an_invalid_config_with_the_rule():
    proc = run(EXAMPLES / "01_first_matmul.py", "--strategy", "rect_tiled", "--set", "coarsen=3")
    assert proc.returncode == 2
    assert "tile_n (64) must be a multiple of coarsen (3)" in proc.stderr


def test_02_tile_table_matches_the_traffic_model():
    out = run_example("02_swap_tiles.py", "--shape", "1024")
    rows = re.findall(r"^smem_tiled\s+tile=(\d+)\s+(\d+)\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s+([\d.]+)", out, re.M)
    assert [int(t) for t, *_ in rows] == [8, 16, 32]
    for tile, threads, reduce, mb in rows:
        T = int(tile)
        assert int(threads) == T * T
        assert float(reduce) == T  # T divides 1024: the reduction is exactly T
        assert float(mb) == pytest.approx(2 * 1024**3 * 4 / T / 1e6, abs=0.05)
    assert len(re.findall(r"^rect_tiled\s", out, re.M)) == 3
    assert_skipped_without_gpu(out)


@pytest.mark.parametrize("M,N,K,T", [(1000, 700, 300, 16), (1024, 1024, 1024, 32)])
def test_03_reduction_factor_equals_the_formula(M, N, K, T):
    out = run_example("03_traffic_model.py", "--shape", f"{M}x{N}x{K}", "--tile", str(T))
    printed = float(re.search(r"reduction factor \(naive / tiled\) = ([\d.]+)", out).group(1))
    formula = 2 * M * N * K / (math.ceil(M / T) * math.ceil(N / T) * math.ceil(K / T) * 2 * T * T)
    assert printed == pytest.approx(formula, abs=1e-6)
    assert "naive   (M·N·2K elements)" in out
    rows = re.findall(r"^smem_tiled tile=(\d+)\s+(\d+)\s+([\d.]+)", out, re.M)
    assert [(int(t), int(th)) for t, th, _ in rows] == [(8, 64), (16, 256), (32, 1024)]
    assert [float(kb) for *_, kb in rows] == [0.5, 2.0, 8.0]  # 2·T²·4 bytes


def test_04_explains_every_rung_and_saves_the_plot(tmp_path):
    png = tmp_path / "ladder.png"
    out = run_example("04_climb_the_ladder.py", "--shape", "512", "--out", str(png))
    for step, name in enumerate(tm.STRATEGIES, 1):
        assert f"[{step}] {name} (" in out
    assert f"plot saved to {png}" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert_skipped_without_gpu(out)


def test_05_registers_validates_renders_and_explains():
    out = run_example("05_your_own_strategy.py", "--shape", "1024")
    assert "registered 'blocktile_1d'" in out
    assert "rejected {'thread_rows': 6}: " in out and "bm (64) must be a multiple of thread_rows (6)" in out
    assert "threads per block = 4096 must be <= 1024" in out
    assert "constexpr int BM = 64, BN = 64, BK = 16, TR = 8;" in out
    # 64x64 tiles: the reduction over naive is 2·64·64 / (64 + 64) = 64
    assert "reduction (naive / tiled) = 64.000000" in out
    assert "still registered? False" in out
    assert_skipped_without_gpu(out)


def test_06_out_rules_hold_without_a_gpu():
    out = run_example("06_interop.py")
    assert re.search(r"wrong shape\s+-> ValueError: out has shape \(256, 257\)", out)
    assert re.search(r"wrong dtype\s+-> TypeError: out has dtype float64", out)
    assert re.search(r"read-only\s+-> ValueError: out is read-only", out)
    assert re.search(r"overlaps input a\s+-> ValueError: out overlaps input a", out)
    assert "accepted?!" not in out
    if importlib.util.find_spec("torch") is None:
        assert "[skipped] the torch part: torch is not installed" in out
    assert_skipped_without_gpu(out)


# ---------------------------------------------------------------------------------------------
# the notebook
# ---------------------------------------------------------------------------------------------
def need(module: str):
    try:
        return __import__(module)
    except ImportError:
        pytest.skip(f"{module} is not installed (pip install -e \".[examples]\")")


def cells_of(nb) -> list[tuple[str, str]]:
    return [(c.cell_type, c.source) for c in nb.cells]


def test_notebook_builder_writes_a_valid_notebook(tmp_path):
    nbformat = need("nbformat")
    out = tmp_path / "tour.ipynb"
    proc = run(ROOT / "scripts" / "build_notebook.py", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    nb = nbformat.read(str(out), as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert len(code) >= 8 and all(not c.outputs and c.execution_count is None for c in code)
    for c in code:  # every code cell is Python once the IPython magics are left out
        tree = ast.parse("\n".join(line for line in c.source.splitlines() if not line.startswith("%")))
        assert package_imports(tree) == []
        assert tm_attributes(tree) <= set(tm.__all__) | EXTRA_PUBLIC
    # rebuilding writes the same file (fixed cell ids)
    again = tmp_path / "again.ipynb"
    assert run(ROOT / "scripts" / "build_notebook.py", "--out", str(again)).returncode == 0
    assert again.read_text() == out.read_text()


def test_committed_notebook_has_the_builders_cells(tmp_path):
    """Edit cells in scripts/build_notebook.py, then rebuild; outputs may differ (an executed
    copy is committed), the cells may not."""
    nbformat = need("nbformat")
    built = tmp_path / "tour.ipynb"
    assert run(ROOT / "scripts" / "build_notebook.py", "--out", str(built)).returncode == 0
    committed = nbformat.read(str(NOTEBOOK), as_version=4)
    assert cells_of(committed) == cells_of(nbformat.read(str(built), as_version=4))


def execute_notebook(tmp_path):
    """Run scripts/run_notebook.py on a copy; return the executed notebook."""
    nbformat = need("nbformat")
    need("nbclient")
    need("ipykernel")
    out = tmp_path / "executed.ipynb"
    proc = run(ROOT / "scripts" / "run_notebook.py", str(NOTEBOOK), "--output", str(out), timeout=1800)
    assert proc.returncode == 0, proc.stderr
    nb = nbformat.read(str(out), as_version=4)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert errors == []
    return nb


def outputs_of(nb, cell_id: str) -> list:
    return next(c for c in nb.cells if c.get("id") == cell_id).outputs


def text_of(outputs) -> str:
    return "".join(o.get("text", "") for o in outputs)


@pytest.mark.slow
def test_notebook_executes_without_a_gpu(tmp_path):
    if HAS_GPU:
        pytest.skip("a GPU is present: test_notebook_executes_on_the_gpu runs it")
    nb = execute_notebook(tmp_path)
    assert "reduction factor: 32.0x (theoretical: T = 32)" in text_of(outputs_of(nb, "traffic"))
    assert "skipped: benchmarking needs a CUDA GPU" in text_of(outputs_of(nb, "bench"))


# ---------------------------------------------------------------------------------------------
# GPU: end to end
# ---------------------------------------------------------------------------------------------
@pytest.mark.gpu
def test_01_on_gpu():
    out = run_example("01_first_matmul.py", "--shape", "1000x700x300")
    assert "result: numpy.ndarray (1000, 700) float32" in out
    assert "check: PASSED" in out


@pytest.mark.gpu
def test_02_on_gpu():
    out = run_example("02_swap_tiles.py", "--shape", "512", "--repeat", "5")
    assert "cuBLAS (cupy.matmul, FP32):" in out and "FAILED" not in out
    times = re.findall(r"^(?:smem|rect)_tiled .*?([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", out, re.M)
    assert len(times) == 6  # model ms, time ms, TFLOP/s, % cuBLAS on every row


@pytest.mark.gpu
def test_03_on_gpu():
    out = run_example("03_traffic_model.py", "--shape", "1024", "--tile", "32")
    assert "reduction factor (naive / tiled) = 32.000000" in out
    assert "compiled kernel" in out  # registers read from the kernel compiled on this GPU


@pytest.mark.gpu
def test_04_on_gpu(tmp_path):
    png = tmp_path / "ladder.png"
    out = run_example("04_climb_the_ladder.py", "--shape", "512", "--repeat", "3", "--out", str(png))
    assert "FAILED" not in out and "cuBLAS (cupy.matmul, FP32):" in out and "auto (the tuned pick" in out
    assert out.count("    measured: ") == sum(e.runs_on() and e.supports("float32") for e in tm.STRATEGIES.values())
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.gpu
def test_05_on_gpu():
    out = run_example("05_your_own_strategy.py", "--shape", "512", "--repeat", "3")
    assert "-> PASSED" in out
    assert re.search(r"^  blocktile_1d\s+bm=64 bn=64 bk=8 thread_rows=8\s+[\d.]+ ms", out, re.M)
    assert "tune: best blocktile_1d" in out and "explain: measured" in out


@pytest.mark.gpu
def test_06_on_gpu():
    out = run_example("06_interop.py", "--shape", "1000x700x300")
    assert "cupy out=: returned object is out: True" in out and "numpy out=: returned object is out: True" in out
    assert "stream 0: PASSED" in out and "stream 1: PASSED" in out
    try:
        import torch
    except ImportError:
        return
    if torch.cuda.is_available():
        assert "torch input seen by CuPy at the same address: True" in out
        assert "torch.as_tensor shares its memory: True" in out
        assert "out=torch tensor: returned object is out: True" in out
        assert "requires_grad input -> " in out


@pytest.mark.gpu
@pytest.mark.slow
def test_notebook_executes_on_the_gpu(tmp_path):
    nb = execute_notebook(tmp_path)
    assert "FAILED" not in text_of(outputs_of(nb, "accuracy"))
    assert any("image/png" in o.get("data", {}) for o in outputs_of(nb, "bench"))
    assert any("image/png" in o.get("data", {}) for o in outputs_of(nb, "tile-table"))
