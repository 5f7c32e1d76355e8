"""CPU checks of dmma_split_k and of the SPLIT_K hooks it adds to 12_dmma.cu.j2: registry entry,
rules, slices, workspace cap, traffic, launch, rendering (dmma's own sources unchanged), ptxas on
every config (main and reduce kernel), and the float64 picks of the heuristic and the cost model."""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
import subprocess

import pytest

import tiled_matmul as tm
from tiled_matmul import costmodel, dispatch
from tiled_matmul import tunedb as tdb
from tiled_matmul.configs import ALL_LAYOUTS, EXTRA_FEATURES
from tiled_matmul.device import H100_LIMITS
from tiled_matmul.epilogue import ExSpec, UserArray, check_expression
from tiled_matmul.heuristic import DMMA_SPLIT_MIN_SLICE, GEMV_MAX, recommend
from tiled_matmul.ptxas import _report, arch_flags, nvcc_path, ptxas_report
from tiled_matmul.render import kernel_name, render
from tiled_matmul.strategies.dmma import DmmaConfig
from tiled_matmul.strategies.dmma_split_k import DmmaSplitKConfig

from .conftest import HAS_NVCC, without_elem_kernel
from .test_wgmma_split_k import _Ptr, _fake_launch

ENTRY = tm.STRATEGIES["dmma_split_k"]
CONFIGS = ENTRY.configs
IDS = [c.tag() for c in CONFIGS]
DMMA = tm.STRATEGIES["dmma"]

#: the float64 shapes `auto` lost on below one wave of dmma tiles (issue 11), by class
SMALL = [(256, 256, 256), (384, 384, 384), (512, 512, 512), (640, 640, 640), (768, 768, 768)]
LONG_K = [(64, 64, 65536), (256, 256, 131072), (32, 1024, 32768), (1024, 32, 32768)]
DECODE = [(32, 4096, 4096), (64, 8192, 8192)]


# -- dmma's own sources: the SPLIT_K hooks render nothing at 1 ----------------------------------------
def _dmma_specs():
    """Every kind of source dmma renders: plain, batched, an epilogue, every layout pair alone and
    with a batch and an epilogue."""
    specs = [None, ExSpec("double", batched=True), ExSpec("double", alpha=True, beta=True, bias=1, activation="gelu"),
             ExSpec("double", batched=True, alpha=True, beta=True, bias=0, activation="silu",
                    expression=check_expression("acc * s[j]", ["s"]), arrays=(UserArray("s", "double"),))]
    for a_col, b_col in ALL_LAYOUTS:
        specs.append(ExSpec("double", a_col=a_col, b_col=b_col, ld=True))
        specs.append(ExSpec("double", a_col=a_col, b_col=b_col, ld=True, batched=True, beta=True, alpha=True))
    return specs


#: sha256 of every dmma config's source under every spec of _dmma_specs (in order), taken from main
#: before 12_dmma.cu.j2 had a SPLIT_K constant; a deliberate change to the template updates it
#: (ninth session: the interior copies past K select an offset once per step; 100 of the 120
#: renderings changed, in those lines and their comment alone). Taken over each source without
#: its misaligned-operand kernel (eleventh session), which left the main kernel byte-identical.
#: Twelfth session: the FRAG_AHEAD loop (configs with one or two m16 rows per warp); the others'
#: sources changed in two header comments alone (their SASS instruction for instruction the same).
#: Thirteenth session: dmma's default became the 128 x 128 tile of 32 x 64 warps, which moved
#: that config first; the same sources in another order (the sorted list of their sha256s unchanged)
DMMA_DIGEST = "bdc40853271bc1fd0106b28003df84dd084700030b49d263e7dc20ac30d3e577"


#: dmma configs added to its search space after the digest (eighth session: the small cubes
#: unsplit; tenth: 32 x 64 tiles and 64 x 64 in 8 warps, which replaced the 4-warp one; twelfth:
#: three tiles again in the row-major block order);
#: test_dmma_sources_hold_no_split_code covers them
DMMA_LATER = [DMMA.make_config(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2),
              DMMA.make_config(bm=64, bn=64, bk=16, wm=32, wn=32, stages=4, min_blocks=2),
              DMMA.make_config(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4),
              DMMA.make_config(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2),
              # twelfth: the row-major block order (group_m=1) for short-K, C-store-bound shapes
              DMMA.make_config(bm=128, bn=64, wm=64, wn=32, min_blocks=2, group_m=1),
              DMMA.make_config(bm=64, bn=64, bk=8, wm=32, wn=32, stages=4, min_blocks=3, group_m=1),
              DMMA.make_config(bm=128, bn=128, bk=8, wm=64, wn=32, stages=4, group_m=1),
              # twelfth: 128 x 64 x 32 in 8 warps, about one wave at 896^3-1024^3
              DMMA.make_config(bm=128, bn=64, bk=32, wm=32, wn=32, stages=3),
              # twenty-second: the pairs layout
              *(c for c in DMMA.configs if c.pairs)]


def test_dmma_sources_are_unchanged_by_the_split_hooks():
    digest = hashlib.sha256()
    for cfg in (c for c in DMMA.configs if c not in DMMA_LATER):
        for spec in _dmma_specs():
            digest.update(without_elem_kernel(render(DMMA, cfg, "float64", spec)).encode())
    assert digest.hexdigest() == DMMA_DIGEST


def _takes(cfg, spec) -> bool:
    """Whether `cfg` takes `spec`'s extras and layout pair (dmma's pairs layout: plain rows, no
    epilogue: DmmaConfig.extras, layouts)."""
    return spec is None or ((spec.a_col, spec.b_col) in cfg.layouts()
                            and (not spec.epilogue or "epilogue" in cfg.extras()))


def test_dmma_sources_hold_no_split_code():
    for cfg in DMMA.configs:
        for spec in filter(lambda s: _takes(cfg, s), _dmma_specs()):
            src = render(DMMA, cfg, "float64", spec)
            for needle in ("SPLIT_K", "k_begin", "k_end", "gridDim.z", "blockIdx.z", "reduce_"):
                assert needle not in src, (cfg.tag(), spec and spec.tag(), needle)


# -- the strategy ----------------------------------------------------------------------------------
def test_registry_entry_and_search_space():
    assert ENTRY.config_cls is DmmaSplitKConfig and issubclass(DmmaSplitKConfig, DmmaConfig)
    assert ENTRY.template == "17_dmma_split_k.cu.j2" and ENTRY.tunable
    names = list(tm.STRATEGIES)  # the ladder is ordered by template number: 17_dmma_split_k.cu.j2
    assert names.index("wgmma_tma_tf32") + 1 == names.index("dmma_split_k")
    assert ENTRY.supports("float64") and not ENTRY.supports("float32") and ENTRY.default_dtype == "float64"
    assert DmmaSplitKConfig.NVRTC_ARCH == "sm_90" and DmmaSplitKConfig.DYNAMIC_SMEM
    # what wgmma_split_k declares: every extra, every layout read in place
    assert DmmaSplitKConfig.EXTRAS == EXTRA_FEATURES == tm.STRATEGIES["wgmma_split_k"].config_cls.EXTRAS
    assert DmmaSplitKConfig.LAYOUTS == ALL_LAYOUTS
    # 15 since the 128 x 64 x 16 tile joined at 2 and 4 slices, 18 since the two-row 128 x 64
    # and 64 x 128 tiles (thirteenth session), 20 since the two-row 128 x 64 tile in the pairs
    # layout (twenty-second)
    assert 6 <= len(CONFIGS) <= 20
    assert {c.tile_mn for c in CONFIGS} == {(32, 32), (32, 64), (64, 64), (128, 64), (64, 128)}
    assert {c.split_k for c in CONFIGS} >= {2, 4, 8, 16, 32}
    for cfg in CONFIGS:
        assert cfg.validate(H100_LIMITS) is cfg and cfg.validate(H100_LIMITS, "float64") is cfg
        # (dmma's pairs layout: row-major operands only)
        assert cfg.layouts() == (((False, False),) if cfg.pairs else ALL_LAYOUTS), cfg.tag()
        need, budget = cfg.registers()
        assert need <= budget <= 255


def test_the_heuristics_tiles_are_search_space_configs():
    from tiled_matmul.heuristic import _DMMA_SPLIT_TILES

    tiles = {dataclasses.replace(c, split_k=2) for c in CONFIGS}
    for t in _DMMA_SPLIT_TILES:
        assert ENTRY.make_config(**t, split_k=2) in tiles, t


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_shared_memory_is_bank_conflict_free(cfg):
    """dmma's lane-by-lane bank analysis (tests/test_dmma.py) on these tiles too (32 x 64 is no
    dmma config): fragment reads and 16-byte copies of every layout's tiles."""
    from . import test_dmma

    test_dmma.test_fragment_reads_are_bank_conflict_free(cfg)
    test_dmma.test_tile_copies_are_16_byte_aligned_and_conflict_free(cfg)
    test_dmma.test_layout_tiles_fit_their_stages_and_swizzle_within_rows(cfg)
    test_dmma.test_layout_fragment_reads_are_bank_conflict_free(cfg)
    test_dmma.test_layout_tile_copies_are_conflict_free(cfg)


@pytest.mark.parametrize(
    "params,needle",
    [(dict(split_k=1), "split_k (1) must be between 2 and 64"),
     (dict(split_k=65), "split_k (65) must be between 2 and 64"),
     (dict(wm=48), "bm (64) must be a multiple of wm (48)"),
     (dict(bk=12), "bk (12) must be a multiple of 8"),
     (dict(stages=9), "stages (9) must be between 2 and 8"),
     (dict(bk=16, min_blocks=4), "min_blocks (4) blocks of 75776 B shared memory")],
)
def test_rules_name_the_broken_constraint(params, needle):
    with pytest.raises(ValueError) as err:
        ENTRY.make_config(**params).validate(H100_LIMITS)
    assert needle in str(err.value) and "A valid config is" in str(err.value)


def test_refused_off_hopper_and_for_float32():
    ampere = dataclasses.replace(H100_LIMITS, name="NVIDIA A100", compute_capability="80")
    with pytest.raises(ValueError, match="dmma runs only on sm_90"):
        ENTRY.default.validate(ampere)
    assert not ENTRY.runs_on(ampere) and ENTRY.runs_on(H100_LIMITS)
    with pytest.raises(ValueError, match="dmma_split_k computes float64 only, got float32"):
        ENTRY.default.validate(H100_LIMITS, "float32")


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_source_has_both_kernels_and_the_slice(cfg):
    src = tm.source("dmma_split_k", **cfg.params())
    assert src == render(ENTRY, cfg, "float64")
    sym = "dmma_split_k_f64_" + cfg.tag()
    assert f"tm_{sym}(" in src and f"reduce_{sym}(" in src
    for needle in (f"constexpr int SPLIT_K = {cfg.split_k};", f"constexpr int REDUCE_THREADS = {cfg.REDUCE_THREADS};",
                   "typedef double T;", "typedef double2 V;", "constexpr int VEC = 2;",
                   "mma.sync.aligned.m16n8k8.row.col.f64", "int flags, int splits)",
                   "for (int z = lane + lanes; z < splits; z += lanes)", "C += (size_t)blockIdx.z * M * N;",
                   "const int steps = (k_end - k_begin + BK - 1) / BK;",
                   "load_tile(k_begin + s * BK, s)", "load_interior(k_begin + (s + STAGES - 1) * BK,",
                   "gc < k_end", "k0 + a_c < k_end", "k0 + b_r + l * B_RSTEP < k_end"):
        assert needle in src, needle
    # the row strides stay K and N: only the bounds on k moved to the slice
    assert "A + (size_t)gr * K + gc" in src and "B + (size_t)gr * N + gc" in src
    # every bound on k is the slice's end (a copy bounded by K would read the next slice's k)
    for bad in ("< K ?", "< K;", "< K &&"):
        assert bad not in src, bad


@pytest.mark.parametrize("pair", ALL_LAYOUTS, ids=["a@b", "a@bT", "aT@b", "aT@bT"])
def test_layout_sources_bound_k_by_the_slice(pair):
    src = render(ENTRY, ENTRY.default, "float64", ExSpec("double", a_col=pair[0], b_col=pair[1], ld=True, batched=True))
    assert "k_end" in src and "ex.lda" in src and "tm_batch" in src and "reduce_dmma_split_k_f64_" in src
    assert "C += (size_t)blockIdx.z * M * N;" in src and "W += tm_batch * (splits) * (size_t)M * N;" in src
    for bad in ("< K ?", "< K;", "< K &&"):
        assert bad not in src, bad


def test_slices_and_the_workspace_cap(monkeypatch):
    cls = DmmaSplitKConfig
    cfg = cls(split_k=16)
    assert cfg.grid(256, 256) == (16, 1, 16)
    assert cfg.slices(256, 256) == 16 and cfg.workspace_bytes(256, 256) == 16 * 256 * 256 * 8
    # 4096^2 doubles are 128 MiB: 16 slices would be 2 GiB, 2 fit in the 256 MiB cap
    assert cls.WORKSPACE_CAP == 256 * 2**20
    assert cfg.slices(4096, 4096) == 2 and cfg.grid(4096, 4096) == (64 * 64, 1, 2)
    assert cfg.workspace_bytes(4096, 4096) == cls.WORKSPACE_CAP
    # not even 2 slices fit: one, written straight to C, no workspace
    assert cfg.slices(8192, 8192) == 1 and cfg.workspace_bytes(8192, 8192) == 0 and cfg.grid(8192, 8192)[2] == 1
    for M, N in [(1, 1), (64, 64), (3001, 2999), (5000, 7000), (46341, 46344)]:
        assert cfg.workspace_bytes(M, N) <= cls.WORKSPACE_CAP
        assert 1 <= cfg.slices(M, N) <= cfg.split_k
    monkeypatch.setattr(cls, "WORKSPACE_CAP", 3 * 64 * 64 * 8)
    assert cfg.slices(64, 64) == 3  # the count need not be a power of two


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_k_slices_and_traffic(cfg):
    from tiled_matmul.analysis import traffic

    bk = cfg.bk
    assert cfg.k_slice(65536, 32) == 2048 and cfg.k_slice(33, 32) == bk and cfg.k_slice(4099, 32) % bk == 0
    unsplit = DMMA.make_config(**{k: v for k, v in cfg.params().items() if k != "split_k"})
    for M, N, K in [(64, 64, 0), (64, 64, 1), (33, 127, 33), (64, 64, 100), (300, 200, 4099), (64, 64, 65536)]:
        # the slices end on bk boundaries: the split reads what the unsplit kernel reads
        assert cfg.global_reads(M, N, K) == unsplit.global_reads(M, N, K), (M, N, K)
    t = traffic(cfg, 64, 64, 65536, "float64")
    assert t["workspace_bytes"] == cfg.split_k * 64 * 64 * 8


def test_launch_main_then_reduce_with_the_slice_count(monkeypatch):
    cfg = DmmaSplitKConfig(split_k=16)
    calls = _fake_launch(monkeypatch, cfg, 1024, 32, 32768)
    assert [c[0] for c in calls] == ["alloc", "main", "reduce"]
    assert calls[0][1] == 16 * 1024 * 32 * 4  # [16 slices][M][N] of the stand-in C (itemsize 4)
    assert calls[1][1] == (16, 1, 16) and calls[1][2] == 0x9000  # the workspace is the main kernel's C
    args = calls[2][2]
    assert args[0] == 0x9000 and args[1] == 0x3000 and int(args[-1]) == 16


def test_launch_past_the_cap_writes_c_directly(monkeypatch):
    calls = _fake_launch(monkeypatch, DmmaSplitKConfig(split_k=4), 8192, 8192, 64)
    assert calls == [("main", (128 * 128, 1, 1), 0x3000)]


def test_reduce_vectors_are_double2():
    """launch_reduce counts 16-byte vectors of C's element, two doubles: 64 x 64 of them are 2048,
    too few for 4 blocks per SM alone, so 4 lanes (one per slice) share each (flags' bits 8-11:
    log2 4) over 32 blocks of 256 threads; the slice count is the kernel's last argument."""
    calls = []

    class Kernel:
        device = None
        name = "tm_dmma_split_k_f64_x"

        def reduce_launcher(self, symbol):
            return lambda grid, w, c, m, n, flags, stream, *splits: calls.append((symbol, grid, w, c, flags, splits))

    c = _Ptr(0x3000)
    c.itemsize, c.dtype = 8, "float64"
    DmmaSplitKConfig().launch_reduce(Kernel(), 0x9000, c, 64, 64, 2, _Ptr(0).data, 4)
    assert calls == [("reduce_dmma_split_k_f64_x", (32, 1, 1), 0x9000, 0x3000, 2 | 2 << 8, (4,))]


# -- ptxas: registers, spills, shared memory of both kernels, the table the lead reads -------------------
#: the pairs layout's split tiles (twenty-second session): their misaligned-operand kernel (odd N or
#: K, or an unaligned pointer; the cost model leaves such shapes to other configs: costmodel.rows_fit)
#: spills 12 B beside the slice bounds; the main, partial-tile and reduce kernels spill nothing
KNOWN_ELEM_SPILLS = {c.tag() for c in CONFIGS if c.pairs}


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
def test_ptxas_registers_of_the_search_space():
    lines = [f"{'config':<72} {'regs':>4} {'budget':>6} {'smem B':>7} spills reduce"]
    for cfg in CONFIGS:
        rep = ptxas_report("dmma_split_k", cfg)
        red = _report(nvcc_path(), render(ENTRY, cfg, "float64"), "sm_90", cfg.reduce_symbol(kernel_name(
            "dmma_split_k", cfg, "float64")), cfg.tag())
        red_log = red.log[red.log.find("Compiling entry function 'reduce_"):]
        red_regs = int(red_log.split("Used ")[1].split(" registers")[0])
        need, budget = cfg.registers()
        lines.append(f"{cfg.tag():<72} {rep.registers:>4} {budget:>6} {cfg.smem_bytes():>7} "
                     f"{rep.spill_stores}/{rep.spill_loads} {red_regs:>6}")
        assert rep.spill_stores == rep.spill_loads == rep.stack_frame == 0, rep.log
        # main, misaligned-operand (DmmaConfig.ELEM_KERNEL), partial-tile (EDGE_KERNEL) and reduce
        # kernels: none spills
        assert rep.log.count("Compiling entry function") == 4, rep.log
        clean = rep.log.count("0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads")
        if cfg.tag() in KNOWN_ELEM_SPILLS:
            elem = rep.log[rep.log.find(f"Compiling entry function '{cfg.elem_symbol(kernel_name('dmma_split_k', cfg, 'float64'))}'"):]
            assert clean == 3 and "0 bytes spill stores" not in elem.split("Compile time")[0], rep.log
        else:
            assert clean == 4, rep.log
        assert need <= rep.registers <= budget, (cfg.tag(), rep.registers, need, budget)
        assert "0 bytes spill stores, 0 bytes spill loads" in red_log.split("Compile time")[0], red_log
    print("\n".join(lines))


@pytest.mark.slow
@pytest.mark.skipif(not (HAS_NVCC and shutil.which("cuobjdump")), reason="needs nvcc and cuobjdump")
def test_main_loops_are_dmmas_and_the_reduce_adds_doubles(tmp_path):
    """The split keeps dmma's two main loops (interior and edge copies) with the same DMMAs and no
    FP64 FMA; the reduce adds doubles in 16-byte vectors (DADD, 128-bit loads)."""
    cfg = ENTRY.default
    (tmp_path / "k.cu").write_text(tm.source("dmma_split_k"))
    subprocess.run(["nvcc", "-cubin", *arch_flags("sm_90"), "-std=c++17", "-o", "k.cubin", "k.cu"],
                   cwd=tmp_path, check=True, capture_output=True)
    code = subprocess.run(["cuobjdump", "-sass", "k.cubin"], cwd=tmp_path, check=True, capture_output=True,
                          text=True).stdout
    main = code[code.find("Function : tm_dmma_split_k"):]
    main = main[:main.find("Function : ", 10)] if "Function : " in main[10:] else main
    reduce = code[code.find("Function : reduce_dmma_split_k"):]
    reduce = reduce[:reduce.find("Function : ", 10)] if "Function : " in reduce[10:] else reduce
    per_stage = (cfg.wm // 16) * (cfg.wn // 8) * (cfg.bk // 8)
    # the FRAG_AHEAD loop runs two steps per iteration where a step has an odd count of 8-deep
    # sub-steps (the default's bk = 8)
    per_iteration = per_stage * (2 if cfg.frag_ahead and (cfg.bk // 8) % 2 else 1)
    assert main.count("DMMA.16x8x8") == 2 * per_iteration and "DFMA" not in main
    assert "DADD" in reduce and "LDG.E.128" in reduce and "DMMA" not in reduce


# -- the heuristic and the cost model ------------------------------------------------------------------
@pytest.mark.parametrize("shape", SMALL + LONG_K + DECODE + [(1024, 1024, 1024), (300, 300, 2000)])
def test_heuristic_picks_dmma_split_k_below_one_wave(shape):
    M, N, K = shape
    name, params = recommend(*shape, dtype="float64", sms=132)
    assert name == "dmma_split_k", (shape, name)
    cfg = ENTRY.make_config(**params).validate(H100_LIMITS, "float64")
    tiles, _, slices = cfg.grid(M, N)
    assert slices == cfg.split_k and K // slices >= DMMA_SPLIT_MIN_SLICE
    # one block per SM, unless the slice count or depth ran out first
    assert tiles * slices >= 132 or slices == 64 or K // (2 * slices) < DMMA_SPLIT_MIN_SLICE
    # off Hopper: the FFMA rules, as for float32 "ieee"
    assert recommend(*shape, dtype="float64", sms=132, dmma=False)[0] in ("split_k", "warp_tiled")


@pytest.mark.parametrize(
    "shape,picked",
    [((64, 64, 65536), dict(bm=32, bn=64, split_k=64)),     # two 32-row tiles x 64 slices
     ((256, 256, 131072), dict(bm=128, bn=64, split_k=32)),  # 8 big tiles x 32: every SM busy
     ((32, 1024, 32768), dict(bm=32, bn=64, split_k=16)),    # 32 rows: no padding on 32 x 64
     ((512, 512, 512), dict(bm=64, bn=64, split_k=4)),       # 128-deep slices
     ((256, 256, 256), dict(bm=32, bn=64, split_k=2))],      # two 128-deep slices at most
)
def test_heuristic_tile_and_slices(shape, picked):
    _, params = recommend(*shape, dtype="float64", sms=132)
    cfg = ENTRY.make_config(**params)
    assert {k: getattr(cfg, k) for k in picked} == picked, cfg.tag()


def test_heuristic_keeps_dmma_split_k_to_its_domain():
    assert recommend(2048, 2048, 2048, "float64", sms=132)[0] == "dmma"  # one wave of 128 x 128 tiles
    assert recommend(1024, 1024, 128, "float64", sms=132)[0] == "warp_tiled"  # K < 256
    for shape in [(1, 8192, 8192), (8, 8192, 8192), (8192, 1, 8192), (8192, 8, 8192), (3, 4096, 14336)]:
        assert recommend(*shape, "float64", sms=132)[0] in ("gemv_xb", "gemv_ax"), shape  # GEMV stays
    # skinny with a small stream: a GEMV rung from K = GEMV_SHORT_K, the FFMA tile below it
    assert recommend(GEMV_MAX, 16, 4096, "float64", sms=132)[0] == "gemv_xb"
    assert recommend(GEMV_MAX, 16, 40, "float64", sms=132)[0] == "warp_tiled"
    assert recommend(1024, 32, 32768, "float64", sms=16)[1]["split_k"] == 2  # sized to the SMs given
    assert recommend(256, 256, 131072, "float32", sms=132)[0] == "wgmma_split_k"  # float32 unchanged


@pytest.mark.parametrize("shape", SMALL + LONG_K + DECODE)
def test_cost_model_picks_dmma_split_k_for_the_lost_shapes(shape):
    """Below one wave of 128 x 128 dmma tiles the model picks split K, or, for the smallest cube,
    dmma's 32 x 32 tiles unsplit (256^3: 64 blocks of 256 deep; measured 8.0-8.3 us against
    9.4-9.8 split, H100, scripts/probe_dmma_configs.py and gpu_s8i.sh). At 768^3 it picks dmma's
    128 x 64 x 32 tile in 8 warps (twelfth session; 72 blocks, measured 0.76x cuBLAS there against
    the shipped entry's 0.91, which wins: the entry's bucket is what auto runs)."""
    best = costmodel.rank(*shape, "float64", device=H100_LIMITS)[0]
    if shape in ((256, 256, 256), (768, 768, 768)):
        tile = (32, 32, 32) if shape == (256, 256, 256) else (128, 64, 32)
        cfg = DMMA.make_config(**best.params).validate(H100_LIMITS, "float64")
        assert best.strategy == "dmma" and (cfg.bm, cfg.bn, cfg.bk) == tile, best.params
        return
    assert best.strategy == "dmma_split_k", (shape, best.strategy, best.params)
    ENTRY.make_config(**best.params).validate(H100_LIMITS, "float64")


@pytest.mark.parametrize("shape", [(1, 4096, 4096), (8, 8192, 8192), (8192, 1, 8192), (8192, 8, 8192),
                                   (1, 4096, 16384)])
def test_cost_model_keeps_gemv_for_skinny_float64(shape):
    assert costmodel.rank(*shape, "float64", device=H100_LIMITS)[0].strategy in ("gemv_xb", "gemv_ax")


def test_auto_picks_dmma_split_k_without_the_shipped_database(fresh_tunedb, monkeypatch):
    """float64 falls back to the cost model (and, in mode "heuristic", to the heuristic): both give
    dmma_split_k on the small and long-K shapes (the model: dmma's 32 x 32 tiles unsplit at 256^3
    and its 128 x 64 x 32 tile at 768^3, see test_cost_model_picks_dmma_split_k_for_the_lost_shapes).
    The shipped H100 database still names the older picks for most of those buckets (split_k,
    gemv_xb, gemv_ax, dmma), and wins where it has one."""
    monkeypatch.setattr(tdb, "shipped_db_paths", lambda: [])
    dev = tdb.device_id(H100_LIMITS)
    for shape in SMALL + LONG_K + DECODE:
        c = dispatch.choose(*shape, "float64", device=dev)
        want = "dmma" if shape in ((256, 256, 256), (768, 768, 768)) else "dmma_split_k"
        assert (c.source, c.strategy) == ("model", want), (shape, c)
    previous = dispatch.set_mode("heuristic")
    try:
        for shape in SMALL + LONG_K + DECODE:
            assert dispatch.choose(*shape, "float64", device=dev).strategy == "dmma_split_k", shape
    finally:
        dispatch.set_mode(previous)


def test_shipped_entries_over_the_new_pick():
    """On the H100 (scripts/gpu_dsk.sh, gpu_s5c.sh) dmma_split_k beat the shipped entries of the
    long-K and decode buckets (tuned before it: split_k, gemv_xb, gemv_ax, dmma at 0.31-0.64x
    cuBLAS), which were dropped or retuned with it among the candidates. 256^3-768^3 kept unsplit
    dmma until the sixth session: the tuner pruned every split candidate there on its first,
    unflushed call (60-90 us of host work against 13 us), and its timed GPU time is lower
    (scripts/probe_small.py: 32 x 64 tiles, 2-4 slices, 10-16 us against dmma's 14-23 us);
    retuned with the prune floor (scripts/gpu_s6b.sh), every bucket of these shapes that has an
    entry held dmma_split_k. In the eighth session dmma gained 32 x 32 tiles, as cuBLAS runs these
    cubes, and 256^3-512^3 went back to dmma, unsplit (scripts/gpu_s8i.sh: 0.92-0.96x cuBLAS,
    against 0.74-0.90 split); in the tenth, 32 x 64 tiles at 4 blocks per SM, and the 768 bucket
    (640^3, 768^3) went to them (scripts/gpu_s10e.sh: 0.88-0.90 / 0.81x, against 0.67-0.68 /
    0.75-0.76 split). In the twelfth, with the FRAG_AHEAD loop, the retune (scripts/gpu_retune.sh,
    RESULTS.md) moved 384^3 and 512^3 to the 32 x 64 tiles too (1.00 / 0.99x)."""
    path = tdb.shipped_db_paths()[0]
    entries = tdb.entries_for(tdb.read_db(path), tdb.DeviceId(tdb.H100_NAME, "90", ""), match_package=False)
    over = {}
    for shape in SMALL + LONG_K + DECODE:
        e = entries.get(tdb.bucket(*shape, "float64"))
        if e is not None and e["strategy"] != "dmma_split_k":
            over[shape] = (e["strategy"], e["params"]["bm"], e["params"]["bn"])
    assert over == {**{s: ("dmma", 32, 32) for s in [(256, 256, 256)]},
                    **{s: ("dmma", 32, 64) for s in SMALL if tdb.bucket(*s, "float64") in
                       ("float64/768x768x768", "float64/384x384x384", "float64/512x512x512")}}
    assert (768, 768, 768) in over
    assert {s for s in SMALL if tdb.bucket(*s, "float64") in entries} == set(SMALL)
    dev = tdb.device_id(H100_LIMITS)
    for shape in SMALL + LONG_K + DECODE:
        c = dispatch.choose(*shape, "float64", device=dev)
        if shape in over:
            assert (c.strategy, c.source) == ("dmma", "shipped-db"), (shape, c)
        else:
            assert c.strategy == "dmma_split_k" and c.source in ("shipped-db", "model"), (shape, c)
