"""Every default and search-space config compiles for sm_90 with nvcc, without spills (CPU only):
in the strategy's default dtype (float32, or float64 for the float64-only rungs), and the default
config in every other dtype the strategy computes."""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul.ptxas import ptxas_report

from .conftest import HAS_NVCC

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")]

CASES = []
for name, entry in tm.STRATEGIES.items():
    CASES.extend((name, cfg, entry.default_dtype) for cfg in entry.configs)
    CASES.extend((name, entry.default, dt) for dt in entry.config_cls.SUPPORTED_DTYPES if dt != entry.default_dtype)


@pytest.mark.parametrize("name,cfg,dtype", CASES, ids=[f"{n}-{c.tag()}-{d}" for n, c, d in CASES])
def test_compiles_without_spills(name, cfg, dtype):
    rep = ptxas_report(name, cfg, dtype)
    assert cfg.tag() in rep.log, rep.log  # the main kernel's section was read (split_k also has a reduce kernel)
    assert rep.registers > 0, rep.log
    assert rep.spill_stores == 0 and rep.spill_loads == 0, rep.log
    assert rep.stack_frame == 0, f"local-memory stack frame of {rep.stack_frame} B:\n{rep.log}"
    # ptxas keeps wgmma's asynchronous MMAs in flight only when no other instruction writes their
    # accumulators meanwhile; otherwise it serializes them, silently but for this note
    assert "are serialized" not in rep.log, rep.log
    if not cfg.DYNAMIC_SMEM:
        assert rep.static_smem == cfg.smem_bytes(dtype)
