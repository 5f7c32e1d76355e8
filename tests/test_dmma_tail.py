"""CPU checks of dmma_tail and of the TAIL hooks it adds to 12_dmma.cu.j2 and _block_order.cuh.j2:
registry entry, the plan (whole waves, then the tail's slices) on many shapes and GPU sizes, grid,
workspace and the cost model's terms, the launches it makes, rendering (no other rung's source
holds a line of it), ptxas on both kernels, and where the cost model picks it."""

from __future__ import annotations

import itertools

import pytest

import tiled_matmul as tm
from tiled_matmul import costmodel
from tiled_matmul import launch as launch_mod
from tiled_matmul.configs import cdiv
from tiled_matmul.device import H100_LIMITS
from tiled_matmul.dtypes import as_dtype
from tiled_matmul.ptxas import ptxas_report
from tiled_matmul.render import render
from tiled_matmul.strategies.dmma import DmmaConfig
from tiled_matmul.strategies.dmma_tail import DmmaTailConfig

from .conftest import HAS_NVCC

ENTRY = tm.STRATEGIES["dmma_tail"]
CONFIGS = ENTRY.configs
IDS = [c.tag() for c in CONFIGS]


def test_registry_entry_and_search_space():
    assert ENTRY.config_cls is DmmaTailConfig and issubclass(DmmaTailConfig, DmmaConfig)
    assert ENTRY.template == "18_dmma_tail.cu.j2" and ENTRY.tunable
    names = list(tm.STRATEGIES)
    assert names.index("dmma_split_k") + 1 == names.index("dmma_tail")  # ordered by template number
    assert ENTRY.supports("float64") and not ENTRY.supports("float32") and ENTRY.default_dtype == "float64"
    # plain row-major products only: any call with extras runs auto's rung for it instead
    assert DmmaTailConfig.EXTRAS == frozenset() and DmmaTailConfig.LAYOUTS == ()
    for cfg in CONFIGS:
        assert cfg.validate(H100_LIMITS, "float64") is cfg
        # a partial wave costs a whole wave time at one block per SM; at two, a block alone on its
        # SM runs faster, yet the pairs layout's 64 x 64 tile still gained from the split tail
        # (scripts/gpu_s23a.sh: 2342x534x7592 0.86 -> 0.95x cuBLAS)
        assert cfg.min_blocks == 1 or (cfg.pairs and cfg.min_blocks == 2), cfg
        assert cfg.template_constants(as_dtype("float64"))["TAIL"] == 1


def test_split_k_rule_names_the_bound():
    with pytest.raises(ValueError, match=r"split_k \(1\) must be between 2 and 64"):
        DmmaTailConfig(split_k=1).validate(H100_LIMITS, "float64")


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_plan_whole_waves_then_the_tails_slices(cfg):
    """On many shapes and slot counts: the head is whole waves (at least one), head + tail covers
    every tile once, the tail is under a wave, and its slices fit the idle slots, split_k and
    MIN_SLICE; otherwise dmma's launch (every tile whole, no tail)."""
    bm, bn = cfg.tile_mn
    sizes = [1, 7, 129, 1000, 1500, 2500, 3001, 5000, 8192]
    for (M, N, K), slots in itertools.product(itertools.product(sizes, sizes, [1, 127, 128, 300, 3007, 16384]),
                                              [1, 3, 132, 264]):
        tiles = cdiv(M, bm) * cdiv(N, bn)
        head, tail, slices = cfg.plan(M, N, K, slots)
        assert head + tail == tiles
        if tail == 0:
            assert (head, slices) == (tiles, 1)
            continue
        assert head >= slots and head % slots == 0 and 0 < tail < slots
        assert 2 <= slices <= cfg.split_k and tail * slices <= slots and K // slices >= cfg.MIN_SLICE
        if slots % cfg.min_blocks == 0:  # slots: the GPU's SMs times the config's blocks per SM
            assert cfg.grid_for_k(M, N, K, _limits(slots // cfg.min_blocks)) == (head + tail * slices, 1, 1)


def _limits(slots):
    """H100's limits with `slots` SMs."""
    import dataclasses

    return dataclasses.replace(H100_LIMITS, sm_count=slots)


def test_plan_on_the_shapes_it_is_for():
    cfg = ENTRY.default  # 128 x 128 tiles, one per SM: 132 slots on the H100
    assert cfg.plan(3001, 2999, 3007, 132) == (528, 48, 2)      # 4.36 waves
    assert cfg.plan(1500, 1500, 1500, 132) == (132, 12, 11)     # 1.09 waves
    assert cfg.plan(8192, 8192, 8192, 132) == (4092, 4, 32)     # 31.03 waves
    assert cfg.plan(4096, 4096, 4096, 132) == (1024, 0, 1)      # a tail of 100: one slice each
    assert cfg.plan(1000, 1000, 1000, 132) == (64, 0, 1)        # under a wave: dmma_split_k's case
    assert cfg.plan(1500, 1500, 200, 132) == (144, 0, 1)        # K too short to cut


def test_workspace_and_the_cost_models_terms():
    cfg = ENTRY.default
    assert cfg.workspace_bytes(3001, 2999, "float64", K=3007) == 48 * 2 * 128 * 128 * 8
    assert cfg.reduced_bytes(3001, 2999, 3007) == 48 * 128 * 128 * 8
    assert cfg.workspace_bytes(4096, 4096, "float64", K=4096) == 0 == cfg.reduced_bytes(4096, 4096, 4096)
    assert cfg.workspace_bytes(4096, 4096, "float64") == 132 * 128 * 128 * 8  # at most a wave of tiles
    # the waves: dmma's where there is no tail; a partial last wave priced as the tail's slices
    dmma = DmmaConfig(bm=128, bn=128, wm=32, wn=64)
    for shape in [(4096, 4096, 4096), (1000, 1000, 1000)]:
        assert cfg.cost_waves(*shape, 132, 1) == costmodel.wave_factor(cdiv(shape[0], 128) * cdiv(shape[1], 128), 132, 1)
    for shape in [(3001, 2999, 3007), (1500, 1500, 1500), (8192, 8192, 8192)]:
        q_tail, q_dmma = cfg.cost_waves(*shape, 132, 1), costmodel.predict(dmma, *shape, "float64", H100_LIMITS).wave_factor
        assert 1.0 <= q_tail < q_dmma, shape
    p = costmodel.predict(cfg, 3001, 2999, 3007, "float64", H100_LIMITS)
    assert p.launches == 2 and p.blocks == 528 + 96
    assert p.reduce_ms < 0.05  # the tail's tiles only, not all of C


def test_launch_head_and_tail_then_the_dependent_reduce(monkeypatch):
    """One launch of head + tail * slices blocks with (A, B, C, M, N, K, flags, W, head, slices),
    then the tail reduce on the same stream as its dependent; no reduce and no workspace where the
    plan has no tail."""
    import cupy

    calls = []

    def fake(fptr, grid, block, smem, stream_ptr, args, dependent=False):
        calls.append((fptr, grid, block, smem, [a.value for a in args], dependent))

    class Direct:
        block, smem = (256, 1, 1), 112 * 1024

        def fptr_for(self, flags, M, N):
            return (13 if M % 128 or N % 128 else 11) if flags & 3 == 3 else 12

    class Kernel:
        device = None
        name = "tm_dmma_tail_f64_x"
        num_regs = 232
        launcher = Direct()

        def companion(self, symbol):
            assert symbol == "tail_dmma_tail_f64_x"
            return type("Fn", (), {"ptr": 99})()

    class Arr:
        def __init__(self, ptr):
            self.data = type("Mem", (), {"ptr": ptr})()
            self.itemsize = 8

    monkeypatch.setattr(launch_mod, "launch_with_args", fake)
    monkeypatch.setattr(cupy.cuda, "alloc", lambda n: type("Mem", (), {"ptr": 5000 + n})())
    monkeypatch.setattr("tiled_matmul.strategies.dmma_tail.device_limits", lambda device=None: H100_LIMITS)
    cfg = ENTRY.default
    cfg.launch(Kernel(), Arr(1), Arr(2), Arr(3), 3001, 2999, 3007, 1, type("S", (), {"ptr": 7})())
    (main, red) = calls
    assert main[0] == 12 and main[1] == (528 + 48 * 2, 1, 1) and main[2:4] == ((256, 1, 1), 112 * 1024)
    ws = 5000 + 48 * 2 * 128 * 128 * 8
    assert main[4] == [1, 2, 3, 3001, 2999, 3007, 1, ws, 528, 2] and not main[5]
    assert red[0] == 99 and red[2] == (cfg.REDUCE_THREADS, 1, 1) and red[4] == [ws, 3, 3001, 2999, 1, 528, 2]
    assert red[5]  # the reduce starts as the main kernel's dependent (Hopper)
    calls.clear()
    cfg.launch(Kernel(), Arr(1), Arr(2), Arr(3), 4096, 4096, 4096, 3, type("S", (), {"ptr": 7})())
    (main,) = calls
    assert main[0] == 11 and main[1] == (1024, 1, 1) and main[4][7:] == [None, 1024, 1]
    calls.clear()  # aligned with a partial tile: the launcher's edge kernel, by M and N
    cfg.launch(Kernel(), Arr(1), Arr(2), Arr(3), 4000, 4000, 4000, 3, type("S", (), {"ptr": 7})())
    assert calls[0][0] == 13


# -- rendering -------------------------------------------------------------------------------------
@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_source_has_the_tail_kernel_and_both_kinds_of_block(cfg):
    src = render(ENTRY, cfg, "float64")
    for needle in ("int head, int tail_slices", "grouped_tile_order(tile, M, N, block_row, block_col)",
                   "tail_dmma_tail_f64_", "griddepcontrol.wait", "griddepcontrol.launch_dependents",
                   "elem_dmma_tail_f64_", "c_ld = whole ? N : BN"):
        assert needle in src, needle
    assert "gridDim.z" not in src and "blockIdx.z" not in src  # slices are blocks along x here


def test_no_other_rung_renders_the_tail_hooks():
    for name, entry in tm.STRATEGIES.items():
        if name == "dmma_tail":
            continue
        for cfg in entry.configs:
            src = render(entry, cfg, entry.default_dtype)
            for needle in ("grouped_tile_order", "tail_slices", "c_row0"):
                assert needle not in src, (name, cfg.tag(), needle)


@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile the kernels offline")
@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_ptxas_both_kernels_and_the_reduce_without_spills(cfg):
    rep = ptxas_report("dmma_tail", cfg, "float64")
    assert rep.spill_stores == 0 and rep.spill_loads == 0, rep.log
    assert rep.log.count("Compiling entry function") == 4, rep.log  # main, elem, edge, tail reduce
    assert "tail_dmma_tail_f64_" in rep.log


# -- where the cost model picks it -----------------------------------------------------------------
@pytest.mark.parametrize("shape", [(1500, 1500, 1500), (1536, 1536, 1536), (2500, 2500, 2500)])
def test_cost_model_picks_it_where_a_partial_wave_of_big_tiles_is_left(shape):
    """One to three waves of one-per-SM tiles and a few tiles more (the model's own pick there
    without the database; scripts/gpu_s13g.sh times it against the other candidates)."""
    assert costmodel.rank(*shape, "float64", "auto", H100_LIMITS)[0].strategy == "dmma_tail"


@pytest.mark.parametrize("shape", [(4096, 4096, 4096), (2048, 2048, 2048), (1024, 1024, 1024), (256, 256, 256),
                                   (64, 8192, 8192), (8192, 8192, 128)])
def test_cost_model_keeps_other_rungs_where_there_is_no_tail_to_cut(shape):
    """Whole waves, a tail too big to cut, under one wave, or K too short: dmma_tail is dmma's
    launch with a slower loop there, so never the pick."""
    assert costmodel.rank(*shape, "float64", "auto", H100_LIMITS)[0].strategy != "dmma_tail"



def test_extras_are_refused_when_named():
    """The main kernel renders dmma's hooks, but the reduce and the launch take none: rendering
    with any extra raises, naming it (a call that names dmma_tail with one gets this error;
    `auto` gives such calls to another rung: Config.EXTRAS is empty)."""
    from tiled_matmul.epilogue import ExSpec

    for spec, needle in [(ExSpec("double", alpha=True, bias=1), "an epilogue"), (ExSpec("double", batched=True), "batches"),
                         (ExSpec("double", a_col=True, ld=True), "operand layouts")]:
        with pytest.raises(ValueError, match=f"no hooks for {needle}"):
            render(ENTRY, ENTRY.default, "float64", spec)
