"""Compile-error formatting and cache keys (CPU only: no NVRTC launch needed)."""

from __future__ import annotations

import tiled_matmul as tm
from tiled_matmul.compile import KernelCompileError, cache_key


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
