"""Compile-error formatting, cache keys and self-contained rendered sources (CPU only: no NVRTC launch needed)."""

from __future__ import annotations

import re
import subprocess

import pytest

import tiled_matmul as tm
from tiled_matmul.compile import KernelCompileError, cache_key
from tiled_matmul.ptxas import arch_flags
from tiled_matmul.render import kernel_name, render

from .conftest import HAS_NVCC


def test_compile_error_message():
    cfg = tm.STRATEGIES["rect_tiled"].default
    err = KernelCompileError("rect_tiled", cfg, "float32", "k.cu(3): error: oops", "line one\nline two\n")
    msg = str(err)
    assert "compiling strategy 'rect_tiled' with config" in msg and "'tile_n': 64" in msg
    assert "k.cu(3): error: oops" in msg
    assert "   1  line one\n   2  line two" in msg
    assert err.log.endswith("oops") and err.strategy == "rect_tiled"


def test_cache_key_distinguishes_everything():
    cfg = tm.STRATEGIES["smem_tiled"].default
    keys = {
        cache_key("smem_tiled", cfg, "float32", 0),
        cache_key("smem_tiled", cfg, "float64", 0),
        cache_key("smem_tiled", cfg, "float32", 1),
        cache_key("smem_tiled", cfg.replace(tile=16), "float32", 0),
    }
    assert len(keys) == 4
    assert cache_key("smem_tiled", cfg, "float32", 0) == cache_key("smem_tiled", tm.STRATEGIES["smem_tiled"].make_config(), "float32", 0)


# Rendered sources are what CuPy hashes for its disk cache and what the sm_90a path hashes for its
# cubin cache, and what `tm.source()` prints: the partials must be inlined into them, whole.
ALL = [(n, c, dt) for n, e in tm.STRATEGIES.items() for c in e.configs
       for dt in ("float32", "float64") if e.supports(dt)]


@pytest.mark.parametrize("name,cfg,dtype", ALL, ids=[f"{n}-{c.tag()}-{d}" for n, c, d in ALL])
def test_rendered_source_has_no_include_leftovers(name, cfg, dtype):
    src = render(tm.STRATEGIES[name], cfg, dtype)
    assert not re.search(r'#\s*include\s*["<]_', src), "a partial is #included, not inlined"
    # ("{%" before a digit is a PTX operand list, as in TMA's "{%2, %3}", not jinja)
    assert not re.search(r"\{[{#]|\{%(?!\d)|[}%#]\}", src), "jinja syntax left in the rendered source"


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("name", list(tm.STRATEGIES))
def test_rendered_source_compiles_standalone(name, tmp_path):
    # Alone in an empty folder, with no include path: everything it needs is in the one file.
    entry = tm.STRATEGIES[name]
    (tmp_path / "k.cu").write_text(tm.source(name))
    proc = subprocess.run(
        ["nvcc", "-ptx", *arch_flags(entry.default.NVRTC_ARCH or "sm_90"), "-std=c++17", "-o", "k.ptx", "k.cu"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f".entry {kernel_name(name, entry.default, entry.default_dtype)}(" in (tmp_path / "k.ptx").read_text()
