"""dmma (float64 on the FP64 tensor cores) without a GPU: registry entry, rules and their messages,
geometry, the shared-memory layout's bank-conflict analysis, rendering, the ptxas report of every
config, and the heuristic's float64 pick."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess

import pytest

import tiled_matmul as tm
from tiled_matmul import cli, dispatch, registry
from tiled_matmul import tunedb as tdb
from tiled_matmul.device import H100_LIMITS
from tiled_matmul.heuristic import recommend
from tiled_matmul.ptxas import arch_flags, ptxas_report
from tiled_matmul.render import kernel_name
from tiled_matmul.strategies.dmma import DmmaConfig

from .conftest import HAS_NVCC

ENTRY = tm.STRATEGIES["dmma"]
CONFIGS = ENTRY.configs
IDS = [c.tag() for c in CONFIGS]
AMPERE = dataclasses.replace(H100_LIMITS, name="NVIDIA A100", compute_capability="80")


def test_registry_entry():
    assert ENTRY.config_cls is DmmaConfig and ENTRY.template == "12_dmma.cu.j2" and ENTRY.tunable
    assert DmmaConfig.SUPPORTED_DTYPES == ("float64",) and ENTRY.default_dtype == "float64"
    assert DmmaConfig.NVRTC_ARCH == "sm_90" and not DmmaConfig.TENSOR_CORES  # not 3xTF32
    # (14 since the twelfth session's three tiles in the row-major block order and its 128 x 64 x
    # 32 tile in 8 warps, 19 since the twenty-second's five in the pairs layout: the tuner times
    # every one per shape, about 1 s each at 4096^3)
    assert 6 <= len(ENTRY.search_space) <= 19
    # block tiles from 32 x 32 (the small cubes unsplit) to 128 x 128, and both MMA depths
    assert {(32, 32), (64, 64), (128, 64), (64, 128), (128, 128)} <= {c.tile_mn for c in CONFIGS}
    assert {c.mma_k for c in CONFIGS} == {4, 8}


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_every_config_is_valid_for_float64_on_hopper(cfg):
    assert cfg.validate(H100_LIMITS) is cfg  # the default dtype is float64
    assert cfg.validate(H100_LIMITS, "float64") is cfg
    need, budget = cfg.registers()
    assert need <= budget <= 255


def test_geometry_and_shared_memory():
    cfg = DmmaConfig()
    assert cfg.block() == ((128 // 64) * (128 // 32) * 32, 1, 1)
    assert cfg.grid(3001, 2999) == (24 * 24, 1, 1) and cfg.grid(0, 5) == (0, 1, 1)
    assert cfg.tile_mn == (128, 128) and cfg.tile_k == 16
    # per stage: A tile bm x (bk + 4) and B tile bk x (bn + 4) doubles
    assert cfg.smem_bytes() == cfg.smem_bytes("float64") == 3 * (128 * 20 + 16 * 132) * 8
    assert DmmaConfig(bm=64, bn=64, wm=32, wn=32).block() == (128, 1, 1)


@pytest.mark.parametrize(
    "cfg,needle",
    [
        (DmmaConfig(wm=48), "bm (128) must be a multiple of wm (48)"),
        (DmmaConfig(wn=48), "bn (128) must be a multiple of wn (48)"),
        (DmmaConfig(bm=96, wm=24), "wm (24) must be a multiple of 16 (the MMA tile's rows)"),
        (DmmaConfig(bn=96, wn=12), "wn (12) must be a multiple of 8 (the MMA tile's columns)"),
        (DmmaConfig(bk=12), "bk (12) must be a multiple of 8"),
        (DmmaConfig(mma_k=16), "mma_k (16) must be one of 4, 8"),
        (DmmaConfig(wm=64, wn=64), "gives 128 double accumulators per thread (256 registers); at most 64"),
        (DmmaConfig(min_blocks=2), "registers per thread (accumulators, one step's fragments, addresses) "
                                   "must fit the 128 that 2 block(s) of 256 threads leave a thread"),
        (DmmaConfig(stages=9), "stages (9) must be between 2 and 8"),
        (DmmaConfig(stages=8), "shared memory = 299008 B for float64 must be <= 232448 B"),
        (DmmaConfig(bm=64, bn=64, wm=32, wn=32, stages=4, min_blocks=4),
         "min_blocks (4) blocks of 75776 B shared memory"),
        (DmmaConfig(bm=32, bn=32, bk=8, wm=16, wn=8), "the A tile (128 vectors of 2) must split evenly over 256 threads"),
    ],
)
def test_bad_configs_name_the_rule_and_a_valid_config(cfg, needle):
    with pytest.raises(ValueError) as err:
        cfg.validate(H100_LIMITS)
    msg = str(err.value)
    assert needle in msg, msg
    assert "A valid config is" in msg and all(f"{k}={v}" in msg for k, v in DmmaConfig().params().items())


@pytest.mark.parametrize("pairs", [-1, 2])
def test_pairs_is_a_switch_of_0_or_1(pairs):
    """`pairs` is a Config.SWITCHES parameter: 0 passes the >= 1 rule, anything but 0 or 1 is refused."""
    DmmaConfig(pairs=0).validate(H100_LIMITS)
    with pytest.raises(ValueError, match=rf"\(pairs: 0 or 1\), got pairs={pairs};"):
        DmmaConfig(pairs=pairs).validate(H100_LIMITS)
    with pytest.raises(ValueError, match="the pairs layout needs bk and wn multiples of 16"):
        DmmaConfig(bk=8, wm=32, wn=64, pairs=1).validate(H100_LIMITS)


def test_refuses_float32_and_gpus_without_the_sm90_f64_mma():
    with pytest.raises(ValueError, match=r"dmma computes float64 only, got float32; strategies for float32: .*wgmma"):
        DmmaConfig().validate(H100_LIMITS, "float32")
    with pytest.raises(ValueError, match="computes float64 only"):
        tm.source("dmma", dtype="float32")
    with pytest.raises(ValueError, match="dmma runs only on sm_90 .* NVIDIA A100 is sm_80"):
        DmmaConfig().validate(AMPERE)
    assert not ENTRY.runs_on(AMPERE) and ENTRY.runs_on(H100_LIMITS)
    assert "dmma" in registry.strategies_for("float64") and "dmma" not in registry.strategies_for("float32")


def test_source_defaults_to_float64():
    src = tm.source("dmma")
    assert src == tm.source("dmma", dtype="float64") == tm.kernel("dmma").source()
    assert f"{kernel_name('dmma', DmmaConfig(), 'float64')}(" in src and "typedef double T;" in src
    assert "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64" in src and "constexpr int MMA_K = 8;" in src
    assert "__launch_bounds__(THREADS, MIN_BLOCKS)" in src and "cp.async.cg.shared.global" in src
    assert "constexpr int MMA_K = 4;" in tm.source("dmma", mma_k=4)
    assert tm.explain("dmma", 2048, registers=254, measure=False)["dtype"] == "float64"


def test_cli_source_and_explain_default_to_float64(capsys):
    assert cli.main(["source", "dmma", "--set", "mma_k=4"]) == 0
    out = capsys.readouterr().out
    assert kernel_name("dmma", DmmaConfig(mma_k=4), "float64") in out
    assert cli.main(["source", "smem_tiled"]) == 0  # the others stay float32
    assert "tm_smem_tiled_f32_" in capsys.readouterr().out
    assert cli.main(["explain", "dmma", "--shape", "2048", "--registers", "254", "--json", "--no-measure"]) == 0
    assert '"dtype": "float64"' in capsys.readouterr().out


# -- shared-memory banks: the template's Banks notes, checked lane by lane ------------------------------
def _layout(cfg):
    return cfg.bk + cfg.A_PAD, cfg.bn + cfg.B_PAD, cfg.threads // 32, cfg.bn // cfg.wn


def _fragment_reads(cfg):
    """Every fragment read of every warp as 32 double indices (lane 4g + t), exactly as the
    template addresses As[m][k] (row stride A_LD) and Bs[k][n] (row stride B_LD)."""
    a_ld, b_ld, warps, warps_n = _layout(cfg)
    for warp in range(warps):
        warp_row, warp_col = (warp // warps_n) * cfg.wm, (warp % warps_n) * cfg.wn
        for kk in range(0, cfg.bk, 8):
            for i in range(cfg.wm // 16):
                for dm, dk in ((0, 0), (8, 0), (0, 4), (8, 4)):  # a0..a3
                    yield [(warp_row + 16 * i + dm + lane // 4) * a_ld + kk + dk + lane % 4 for lane in range(32)]
            for j in range(cfg.wn // 8):
                for dk in (0, 4):  # b0, b1
                    yield [(kk + dk + lane % 4) * b_ld + warp_col + 8 * j + lane // 4 for lane in range(32)]


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_fragment_reads_are_bank_conflict_free(cfg):
    """8-byte reads are served a half-warp at a time: 16 lanes must hit 16 different doubles mod 16
    (each double spans 2 of the 32 four-byte banks)."""
    a_ld, b_ld, _, _ = _layout(cfg)
    assert a_ld % 8 == 4 and b_ld % 8 == 4  # what the analysis rests on
    reads = list(_fragment_reads(cfg))
    assert len(reads) == (cfg.threads // 32) * (cfg.bk // 8) * (4 * cfg.wm // 16 + 2 * cfg.wn // 8)
    for addrs in reads:
        for half in (addrs[:16], addrs[16:]):
            assert len({a % 16 for a in half}) == 16, (cfg.tag(), half)


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_tile_copies_are_16_byte_aligned_and_conflict_free(cfg):
    """16-byte cp.async writes are served a quarter-warp at a time: 8 lanes must hit 8 different
    16-byte slots mod 8. With BK = 8 two padded A rows share a quarter-warp: at most 2-way."""
    a_ld, b_ld, _, _ = _layout(cfg)
    for rows, row_len, ld in ((cfg.bm, cfg.bk, a_ld), (cfg.bk, cfg.bn, b_ld)):
        vecs = row_len // 2
        assert ld % 2 == 0 and rows * row_len // 2 % cfg.threads == 0
        for first in range(0, rows * vecs, 8):
            slots = [((idx // vecs) * ld + (idx % vecs) * 2) // 2 % 8 for idx in range(first, first + 8)]
            worst = max(slots.count(s) for s in slots)
            assert worst == 1 or (row_len % 16 and worst <= 2), (cfg.tag(), slots)


# -- operands read in place: the tiles of a column-major A (As[k][m]) and B (Bs[n][k]) ----------------
def _b_swizzle(cfg, n):
    """The template's b_swizzle: the XOR mask (doubles) of row n of Bs[n][k]."""
    rows = 16 // cfg.bk if cfg.bk < 16 else 1
    return 4 * ((n // rows) % (4 // rows))


def _bt_at(cfg, n, k):
    return n * cfg.bk + (k ^ _b_swizzle(cfg, n))


def _layout_fragment_reads(cfg):
    """Every fragment read of every warp as 32 double indices, as the template addresses As[k][m]
    (row stride BM + A_PAD) and Bs[n][k] (rows of BK, swizzled), with the kernel's own
    arithmetic: the lane's base plus a constant, B's k as (kk ^ swz) + t."""
    at_ld, warps, warps_n = cfg.bm + cfg.A_PAD, cfg.threads // 32, cfg.bn // cfg.wn
    for warp in range(warps):
        warp_row, warp_col = (warp // warps_n) * cfg.wm, (warp % warps_n) * cfg.wn
        for kk in range(0, cfg.bk, 8):
            for i in range(cfg.wm // 16):
                for dm, dk in ((0, 0), (8, 0), (0, 4), (8, 4)):
                    yield "A", [(kk + dk + lane % 4) * at_ld + warp_row + 16 * i + dm + lane // 4 for lane in range(32)]
            for j in range(cfg.wn // 8):
                for dk in (0, 4):
                    addrs = [(warp_col + lane // 4) * cfg.bk + lane % 4 + 8 * j * cfg.bk
                             + ((kk + dk) ^ _b_swizzle(cfg, lane // 4)) for lane in range(32)]
                    # the same element as the unrolled address: row n, k = kk + dk + t
                    assert addrs == [_bt_at(cfg, warp_col + 8 * j + lane // 4, kk + dk + lane % 4) for lane in range(32)]
                    yield "B", addrs


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_layout_tiles_fit_their_stages_and_swizzle_within_rows(cfg):
    assert cfg.bk * (cfg.bm + cfg.A_PAD) <= cfg.bm * (cfg.bk + cfg.A_PAD)  # As[k][m] in the As[m][k] stage
    assert cfg.bn * cfg.bk <= cfg.bk * (cfg.bn + cfg.B_PAD)                 # Bs[n][k] in the Bs[k][n] stage
    for n in range(cfg.bn):
        ks = [k ^ _b_swizzle(cfg, n) for k in range(cfg.bk)]
        assert sorted(ks) == list(range(cfg.bk))                            # a permutation of the row
        assert all(ks[k + 1] == ks[k] + 1 for k in range(0, cfg.bk, 2))     # 16-byte pairs stay whole


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_layout_fragment_reads_are_bank_conflict_free(cfg):
    reads = list(_layout_fragment_reads(cfg))
    assert len(reads) == (cfg.threads // 32) * (cfg.bk // 8) * (4 * cfg.wm // 16 + 2 * cfg.wn // 8)
    for which, addrs in reads:
        for half in (addrs[:16], addrs[16:]):
            assert len({a % 16 for a in half}) == 16, (cfg.tag(), which, half)


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_layout_tile_copies_are_conflict_free(cfg):
    """The 16-byte copies of copy_rows and of the interior path (thread tid: row tid // RV, pair
    tid % RV of a tile row of RV pairs, rows THREADS // RV apart): 8 lanes, 8 slots mod 8."""
    at_ld = cfg.bm + cfg.A_PAD
    a_rv, b_rv = cfg.bm // 2, cfg.bk // 2
    for rv, rows, at in ((a_rv, cfg.bk, lambda r, c: r * at_ld + c), (b_rv, cfg.bn, lambda r, c: _bt_at(cfg, r, c))):
        step = cfg.threads // rv
        assert cfg.threads % rv == 0 and rows % step == 0
        for p in range(rows // step):
            for first in range(0, cfg.threads, 8):
                addrs = [at(tid // rv + p * step, (tid % rv) * 2) for tid in range(first, first + 8)]
                assert all(a % 2 == 0 for a in addrs)  # 16-byte aligned
                assert len({a // 2 % 8 for a in addrs}) == 8, (cfg.tag(), addrs)
    # a thread's interior B rows share its swizzle
    assert (cfg.threads // b_rv) % 4 == 0


def _functions(code: str) -> dict[str, str]:
    """cuobjdump -sass output split by function: {symbol: its SASS}."""
    parts = code.split("Function : ")[1:]
    return {p.split()[0]: p for p in parts}


def test_elem_kernel_is_a_second_function_that_launches_pick_by_flags():
    """The rendered source holds the main kernel (16-byte interior copies) and the misaligned-
    operand kernel (8-byte pairs), each with only its own interior copy routine, and the direct
    launcher runs the second one exactly where a 16-byte bit of `flags` is clear."""
    from tiled_matmul.compile import DirectLauncher

    cfg = DmmaConfig()
    src = tm.source("dmma")
    name = kernel_name("dmma", cfg, "float64")
    main, rest = src.split(cfg.elem_symbol(name) + "(")
    elem, edge = rest.split(cfg.edge_symbol(name) + "(")
    assert name + "(" in main and "load_interior_elem" not in main and "load_interior(" in main
    assert "load_interior_elem(" in elem and "auto load_interior =" not in elem
    launcher = DirectLauncher.__new__(DirectLauncher)
    launcher.fptr, launcher.elem_fptr, launcher.elem_flags = 1, 2, cfg.ELEM_FLAGS
    launcher.edge_fptr, launcher.tile = 1, (1, 1)
    assert [launcher.fptr_for(f, 7, 9) for f in (0, 1, 2, 3, 3 | 256)] == [2, 2, 2, 1, 1]
    # register_blocked's second kernel (sixteenth session) only where C's rows are unaligned
    from tiled_matmul.strategies.register_blocked import RegisterBlockedConfig

    launcher.elem_flags = RegisterBlockedConfig.ELEM_FLAGS
    assert [launcher.fptr_for(f, 7, 9) for f in (0, 1, 2, 3, 3 | 256)] == [2, 2, 1, 1, 1]
    src = tm.source("register_blocked")
    main, elem = src.split(RegisterBlockedConfig.elem_symbol(kernel_name("register_blocked", RegisterBlockedConfig(),
                                                                          "float32")) + "(")
    assert "STAGE_C" not in main and "STAGE_C && !bc_vec" in elem


def test_edge_kernel_is_a_third_function_for_aligned_partial_tiles():
    """dmma's third kernel (EDGE_KERNEL) shifts a partial tile back inside M and N and stores only
    its own outputs; the main kernel has none of it, and the direct launcher runs the edge kernel
    exactly where the operands are aligned and M or N is not a whole number of tiles but both hold
    one tile (smaller outputs run the elem kernel)."""
    from tiled_matmul.compile import DirectLauncher

    cfg = DmmaConfig(bm=128, bn=64, wm=64, wn=32, min_blocks=2)
    src = tm.source("dmma", bm=128, bn=64, wm=64, wn=32, min_blocks=2)
    name = kernel_name("dmma", cfg, "float64")
    main, rest = src.split(cfg.elem_symbol(name) + "(")
    elem, edge = rest.split(cfg.edge_symbol(name) + "(")
    for part in (main, elem):
        assert "own_row" not in part and "own_col" not in part
    assert "block_row = min(block_row, M - BM)" in edge and "row < own_row" in edge and "col < own_col" in edge
    assert "auto load_interior =" in edge and "load_interior_elem" not in edge
    launcher = DirectLauncher.__new__(DirectLauncher)
    launcher.fptr, launcher.elem_fptr, launcher.edge_fptr = 1, 2, 3
    launcher.elem_flags, launcher.tile = cfg.ELEM_FLAGS, cfg.tile_mn
    picks = [launcher.fptr_for(f, M, N) for f, M, N in
             [(3, 256, 128), (3, 257, 128), (3, 256, 130), (3, 100, 40), (1, 257, 130), (2, 256, 128), (3 | 256, 128, 64),
              (3, 127, 640), (3, 640, 63), (3, 129, 64)]]
    # an output under one tile in M or N: the elem kernel, which copies aligned pairs too
    assert picks == [1, 3, 3, 2, 2, 2, 1, 2, 2, 3]
    for strategy in ("dmma_split_k", "dmma_tail"):  # the kernels that include dmma's template
        text = tm.source(strategy)
        assert "edge_" in text and "block_col = min(block_col, N - BN)" in text, strategy


def test_plain_kernel_has_no_layout_code():
    src = tm.source("dmma")
    assert "AT_LD" not in src and "b_swizzle" not in src and "ex.lda" not in src


# -- registers: ptxas on every config, the table the lead reads ------------------------------------------
@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
def test_ptxas_registers_of_the_search_space():
    """Every config compiles for sm_90 with 0 spills, no stack, and within the registers its
    launch bounds leave; the table prints with `pytest -s`."""
    lines = [f"{'config':<72} {'regs':>4} {'budget':>6} {'smem B':>7} spills"]
    for cfg in CONFIGS:
        rep = ptxas_report("dmma", cfg)
        need, budget = cfg.registers()
        lines.append(f"{cfg.tag():<72} {rep.registers:>4} {budget:>6} {cfg.smem_bytes():>7} "
                     f"{rep.spill_stores}/{rep.spill_loads}")
        assert rep.spill_stores == rep.spill_loads == rep.stack_frame == 0, rep.log
        assert need <= rep.registers <= budget, (cfg.tag(), rep.registers, need, budget)
        # the misaligned-operand kernel (DmmaConfig.ELEM_KERNEL) and the partial-tile one
        # (EDGE_KERNEL) too: three functions, none spills
        assert rep.log.count("Compiling entry function") == 3, rep.log
        assert rep.log.count("0 bytes spill stores, 0 bytes spill loads") == 3, rep.log
    print("\n".join(lines))


@pytest.mark.slow
@pytest.mark.skipif(not (HAS_NVCC and shutil.which("cuobjdump")), reason="needs nvcc and cuobjdump")
@pytest.mark.parametrize("mma_k,sass", [(8, "DMMA.16x8x8"), (4, "DMMA.16x8x4")])
def test_products_run_on_the_fp64_tensor_cores(tmp_path, mma_k, sass):
    cfg = DmmaConfig(mma_k=mma_k)
    (tmp_path / "k.cu").write_text(tm.source("dmma", mma_k=mma_k))
    subprocess.run(["nvcc", "-cubin", *arch_flags("sm_90"), "-std=c++17", "-o", "k.cubin", "k.cu"],
                   cwd=tmp_path, check=True, capture_output=True)
    code = subprocess.run(["cuobjdump", "-sass", "k.cubin"], cwd=tmp_path, check=True, capture_output=True,
                          text=True).stdout
    # one MMA per (m16, n8) tile pair per 8-deep step (two of k4), in each of the two main loops
    # (interior blocks' copies, and the general edge-checked ones) of each kernel (the main one,
    # the misaligned-operand one and the partial-tile one), and no FP64 FMA anywhere
    per_stage = (cfg.wm // 16) * (cfg.wn // 8) * (cfg.bk // 8) * (8 // mma_k)
    funcs = _functions(code)
    assert len(funcs) == 3 and all(f.count(sass) == 2 * per_stage for f in funcs.values())
    assert "DFMA" not in code


@pytest.mark.slow
@pytest.mark.skipif(not (HAS_NVCC and shutil.which("cuobjdump")), reason="needs nvcc and cuobjdump")
@pytest.mark.parametrize("pair", [(True, False), (False, True)], ids=["a.T@b", "a@b.T"])
def test_layout_kernels_copy_16_bytes_and_have_an_interior_loop(tmp_path, pair):
    """A column-major operand is copied by 16-byte cp.async (LDGSTS.128) as it lies, and interior
    blocks run their own main loop (twice the DMMAs of one loop)."""
    from tiled_matmul.epilogue import ExSpec
    from tiled_matmul.render import render

    cfg = DmmaConfig()
    src = render(ENTRY, cfg, "float64", ExSpec("double", a_col=pair[0], b_col=pair[1], ld=True))
    (tmp_path / "k.cu").write_text(src)
    subprocess.run(["nvcc", "-cubin", *arch_flags("sm_90"), "-std=c++17", "-o", "k.cubin", "k.cu"],
                   cwd=tmp_path, check=True, capture_output=True)
    code = subprocess.run(["cuobjdump", "-sass", "k.cubin"], cwd=tmp_path, check=True, capture_output=True,
                          text=True).stdout
    per_stage = (cfg.wm // 16) * (cfg.wn // 8) * (cfg.bk // 8)
    funcs = _functions(code)
    main = funcs[kernel_name("dmma", cfg, "float64")]
    elem = funcs[cfg.elem_symbol(kernel_name("dmma", cfg, "float64"))]
    assert main.count("DMMA.16x8x8") == elem.count("DMMA.16x8x8") == 2 * per_stage
    # a thread's 16-byte pairs of both tiles, in the steady state and the STAGES-1 prologue steps of
    # both loops (66 at this writing; 21 when the column-major operand took one element per copy)
    pairs = (cfg.bm * cfg.bk + cfg.bk * cfg.bn) // 2 // cfg.threads
    assert main.count("LDGSTS.E.BYPASS.128") >= 2 * cfg.stages * pairs
    # the misaligned-operand kernel's interior loop copies a pair as two 8-byte copies (and keeps
    # 16-byte ones for an aligned operand): at least a pair of 8-byte copies per pair of a tile
    assert elem.count("LDGSTS.E.64") >= 2 * (cfg.stages - 1) * pairs


@pytest.mark.slow
@pytest.mark.skipif(not (HAS_NVCC and shutil.which("cuobjdump")), reason="needs nvcc and cuobjdump")
@pytest.mark.parametrize("pair", [None, (True, False), (False, True)], ids=["a@b", "a.T@b", "a@b.T"])
def test_interior_k_step_copies_among_the_dmmas(tmp_path, pair):
    """The interior loop (the shorter of the two DMMA loops) issues its first DMMA soon after the
    barrier and its next stage's copies (LDGSTS) after that DMMA, interleaved with the others:
    copies issued between the barrier and the first DMMA keep every warp of the block, released
    together, off the tensor cores (159 instructions at the default config's plain kernel)."""
    import re

    from tiled_matmul.epilogue import ExSpec
    from tiled_matmul.render import render

    cfg = DmmaConfig()
    spec = None if pair is None else ExSpec("double", a_col=pair[0], b_col=pair[1], ld=True)
    (tmp_path / "k.cu").write_text(render(ENTRY, cfg, "float64", spec))
    subprocess.run(["nvcc", "-cubin", *arch_flags("sm_90"), "-std=c++17", "-o", "k.cubin", "k.cu"],
                   cwd=tmp_path, check=True, capture_output=True)
    code = subprocess.run(["cuobjdump", "-sass", "k.cubin"], cwd=tmp_path, check=True, capture_output=True,
                          text=True).stdout
    code = _functions(code)[kernel_name("dmma", cfg, "float64")]  # the main kernel's loops
    ins = [(int(m.group(1), 16), m.group(2)) for m in re.finditer(r"/\*([0-9a-f]{4,})\*/\s+([^;]*);", code)]
    at = {a: i for i, (a, _) in enumerate(ins)}
    loops = []
    for i, (a, text) in enumerate(ins):
        m = re.search(r"BRA (?:\S+, )?(0x[0-9a-f]+)", text)
        if m and int(m.group(1), 16) < a:
            body = [x for _, x in ins[at[int(m.group(1), 16)]:i + 1] if not x.startswith("NOP")]
            if any("DMMA" in x for x in body):
                loops.append(body)
    assert len(loops) == 2
    body = min(loops, key=len)
    bar = next(k for k, x in enumerate(body) if "BAR.SYNC" in x)
    first = next(k for k, x in enumerate(body) if "DMMA" in x)
    copies = [k for k, x in enumerate(body) if "LDGSTS" in x]
    assert first - bar < 50, (first - bar, body)
    assert copies and min(copies) > first, body


# -- the heuristic and auto ------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192),
                                   (3001, 2999, 3007), (1536, 1536, 64), (16384, 1024, 1024)])
def test_heuristic_picks_dmma_for_float64_from_one_wave(shape):
    assert recommend(*shape, dtype="float64", sms=132) == ("dmma", {"bn": 64, "wm": 64, "wn": 32, "min_blocks": 2})
    assert recommend(*shape, dtype="float64", sms=132, dmma=False) == ("warp_tiled", {})  # not Hopper
    ENTRY.make_config().validate(H100_LIMITS, "float64")
    # float32 picks do not depend on the flag
    assert recommend(*shape, sms=132, dmma=False) == recommend(*shape, sms=132)


@pytest.mark.parametrize("shape", [(1, 1, 1), (64, 64, 64), (1024, 1024, 128), (4, 16, 4096), (8, 8, 4096)])
def test_heuristic_keeps_ffma_rungs_below_one_wave_for_short_k(shape):
    """Below one wave of dmma's tiles, float64 with K < 256 keeps to the FFMA rules; M or N <= 8
    with a long K goes to the GEMV rungs (heuristic.GEMV_MIN_K), float32 and float64 alike."""
    name, _ = recommend(*shape, dtype="float64", sms=132)
    assert name == recommend(*shape, sms=132, precision="ieee")[0]
    assert name in (("gemv_xb", "gemv_ax") if min(shape[:2]) <= 8 and shape[2] >= 128 else ("warp_tiled", "split_k"))


@pytest.mark.parametrize("shape", [(1024, 1024, 1024), (1408, 1408, 4096), (128, 128, 65536), (512, 512, 16384),
                                   (256, 256, 256)])
def test_heuristic_splits_k_below_one_wave(shape):
    """Below one wave of dmma's tiles and K >= 256: dmma_split_k (tests/test_dmma_split_k.py); off
    Hopper the FFMA rules."""
    assert recommend(*shape, dtype="float64", sms=132)[0] == "dmma_split_k"
    assert recommend(*shape, dtype="float64", sms=132, dmma=False)[0] == recommend(*shape, sms=132, precision="ieee")[0]


def test_auto_picks_dmma_for_big_float64_on_hopper(fresh_tunedb, monkeypatch):
    monkeypatch.setattr(tdb, "shipped_db_paths", lambda: [])
    dev = tdb.device_id(H100_LIMITS)
    if tm.gpu_available():
        dev = tdb.device_id(0)
    want = "dmma" if dev.cc == "90" else "warp_tiled"
    assert dispatch.choose(4096, 4096, 4096, "float32", device=dev).strategy != "dmma"
    if dev.cc == "90":
        # float64 falls back to the cost model by default: dmma_split_k at 512^3 (the shipped
        # database, left out here, holds the tuner's split_k from before that rung)
        assert dispatch.choose(4096, 4096, 4096, "float64", device=dev).strategy == "dmma"
        assert dispatch.choose(512, 512, 512, "float64", device=dev).strategy == "dmma_split_k"
    previous = dispatch.set_mode("heuristic")
    try:
        assert dispatch.choose(4096, 4096, 4096, "float64", device=dev).strategy == want
        assert dispatch.choose(512, 512, 512, "float64", device=dev).strategy == (
            "dmma_split_k" if dev.cc == "90" else "warp_tiled")
    finally:
        dispatch.set_mode(previous)


def test_frag_ahead_loop_is_rendered_for_one_or_two_rows_per_warp():
    """The K loop that reads fragments ahead of their DMMAs renders where DmmaConfig.frag_ahead
    says (warp tiles of one or two m16 rows; not at four, nor for dmma_split_k at 4 blocks per SM),
    and the other loop everywhere else."""
    from tiled_matmul.registry import get
    from tiled_matmul.render import render

    seen = set()
    for name in ("dmma", "dmma_split_k"):
        strat = get(name)
        for cfg in strat.configs_for("float64"):
            expected = cfg.wm // 16 <= 2 and not (name == "dmma_split_k" and cfg.min_blocks >= 4)
            assert cfg.frag_ahead == expected, cfg
            src = render(strat, cfg, "float64")
            if cfg.pairs:  # the pairs layout's own loops: a sub-step ahead (interior), just before (edge copies)
                assert "T fa[2][4]" not in src and "T a[MT][4]" not in src, cfg
                assert "T bf[2][CT][4], af[2][RT][2];" in src and "T bf[1][CT][4], af[1][RT][2];" in src, cfg
                continue
            assert ("T fa[2][4], fb[2][NT][2];" in src) == expected, cfg
            assert ("T a[MT][4], b[NT][2];" in src) == (not expected), cfg
            seen.add(expected)
    assert seen == {True, False}
