"""The narrow wgmma tiles `auto` runs (dispatch.narrowed: bm lowered to a skinny output's height,
and the transposed A·x products, which read both operands column-major): every height `auto`
uses (dispatch.NARROW_HEIGHTS) compiles with nvcc for sm_90a, plain and with the column-major
layouts, without spills and with wgmma's MMAs left asynchronous (CPU only)."""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul import dispatch, registry
from tiled_matmul.epilogue import ExSpec
from tiled_matmul.ptxas import _report, nvcc_path
from tiled_matmul.render import kernel_name, render

from .conftest import HAS_NVCC

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")]

#: the configs the rungs' picks narrow from (their search spaces' bn / stages / min_blocks shapes)
#: (the 64-row ones under 64, the 128-row ones from 64 up)
BASES = [("wgmma", dict(bn=128, stages=6)), ("wgmma", dict(bn=64, stages=4, min_blocks=2)),
         ("wgmma_split_k", dict(bn=128, stages=6, split_k=4)), ("wgmma_split_k", dict(bn=64, stages=4, min_blocks=2, split_k=8)),
         ("wgmma", dict(bn=128, stages=3)), ("wgmma_split_k", dict(bn=128, stages=3, split_k=4))]
HEIGHTS = range(dispatch.NARROW_HEIGHTS[0], dispatch.NARROW_HEIGHTS[1] + 1, 8)
#: plain, both operands column-major (the transposed A·x), and a batch with a fused epilogue (the
#: general path's narrowed picks: dispatch.plain_choice)
SPECS = {"rows": None, "cols": ExSpec("float", a_col=True, b_col=True, ld=True),
         "epilogue": ExSpec("float", batched=True, alpha=True, beta=True, bias=1, activation="relu")}
CASES = [(name, dict(base, bm=bm), spec) for name, base in BASES for bm in HEIGHTS for spec in SPECS
         if (bm < 64) == (base["stages"] > 3) and bm < 128]


@pytest.mark.parametrize("name,params,spec", CASES,
                         ids=[f"{n}-{'-'.join(f'{k}{v}' for k, v in p.items())}-{spec}" for n, p, spec in CASES])
def test_narrow_tiles_compile_without_spills(name, params, spec):
    entry = registry.get(name)
    cfg = entry.make_config(**params)
    assert cfg.is_valid(tm.device_limits())
    base = dict(params, bm=64 if params["bm"] < 64 else 128)
    assert dispatch.narrowed(name, base, params["bm"]) == params  # a height auto picks
    ex = SPECS[spec]
    if spec == "cols":
        assert (True, True) in cfg.layouts()
    rep = _report(nvcc_path(), render(entry, cfg, "float32", ex), cfg.NVRTC_ARCH or "sm_90",
                  kernel_name(name, cfg, "float32"), f"{name} {params}")
    assert rep.registers > 0, rep.log
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log
    assert "are serialized" not in rep.log, rep.log
