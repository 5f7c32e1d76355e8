"""Operand layouts read in place (CPU only): which strides are read as they lie and which are
copied, which layouts each strategy reads, the rendered layout kernels, and nvcc on them (0 spills).

The GPU side (values, and that no copy happens) is tests/test_gpu_layouts.py."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.configs import ALL_LAYOUTS
from tiled_matmul.epilogue import ExSpec, layout_vars, struct_type
from tiled_matmul.ptxas import _report, nvcc_path
from tiled_matmul.render import kernel_name, render
from tiled_matmul.semantics import Layout, is_plain, layout_copies, operand_layout

from .conftest import HAS_NVCC


def _lay(x: np.ndarray):
    """operand_layout of a numpy view, as execute sees a cupy one (same shape/strides rules)."""
    return operand_layout(x.shape, x.strides, x.itemsize)


BIG = np.zeros((600, 800), np.float32)
BIG_F = np.asfortranarray(BIG)

#: (what, view, expected Layout or None): expected None means "copied first"
CASES = [
    ("C order", BIG, Layout(False, 800)),
    (".T", BIG.T, Layout(True, 800)),
    ("Fortran order", BIG_F, Layout(True, 600)),
    ("column slice (ld > width)", BIG[:, 10:500], Layout(False, 800)),
    ("row slice", BIG[7:300], Layout(False, 800)),
    ("[::1, :k]", BIG[::1, :64], Layout(False, 800)),
    ("slice of a transpose", BIG.T[:, 3:90], Layout(True, 800)),
    ("slice of a Fortran array", BIG_F[5:400, :70], Layout(True, 600)),
    ("batched C order", np.zeros((3, 5, 7), np.float64), Layout(False, 7)),
    ("batched .T", np.zeros((3, 5, 7), np.float64).swapaxes(-1, -2), Layout(True, 7)),
    ("batched column slice", np.zeros((3, 5, 9), np.float64)[:, :, 2:6], Layout(False, 9)),
    ("one row", BIG[4:5, 3:9], Layout(False, 6)),
    ("one column slice", BIG[:, 3:4], Layout(False, 800)),
    ("one column of a transpose", BIG.T[:, 5:6], Layout(False, 1)),
    ("every other column", BIG[:, ::2], None),
    ("every other row of a transpose", BIG.T[::2, :], None),
    ("reversed rows", BIG[::-1], None),
    ("reversed columns", BIG[:, ::-1], None),
    ("both strides non-unit", BIG[::2, ::3], None),
    ("broadcast rows (stride 0)", np.broadcast_to(BIG[0], (5, 800)), None),
]


@pytest.mark.parametrize("what,view,expected", CASES, ids=[c[0] for c in CASES])
def test_operand_layout_classifies_strides(what, view, expected):
    assert _lay(view) == expected


def test_contiguous_operand_needs_no_strides():
    assert operand_layout((4, 5), None, 4) == Layout(False, 5)
    assert is_plain(Layout(False, 5), 5) and not is_plain(Layout(False, 6), 5) and not is_plain(Layout(True, 4), 4)


def test_misaligned_byte_strides_are_copied():
    # a stride that is not a whole number of elements cannot be indexed by element
    assert operand_layout((4, 4), (18, 4), 4) is None


def test_leading_dimension_over_int32_is_copied():
    assert operand_layout((4, 4), (4 * 2**31, 4), 4) is None
    assert operand_layout((4, 4), (4 * (2**31 - 1), 4), 4) == Layout(False, 2**31 - 1)


#: the strategies that read every layout in place, and the GEMV rungs' partial sets
FULL = [n for n, e in tm.STRATEGIES.items() if e.config_cls.LAYOUTS == ALL_LAYOUTS]


def test_every_tunable_rung_reads_layouts():
    # the half rungs (added beside the layouts) do not read other layouts yet: a transposed or
    # sliced float16/bfloat16 operand is copied first (issue 14's closing note says so)
    # wgmma_tma (half, TMA) reads every pair through its tensor maps (thirty-second session: 16-bit
    # wgmma takes either operand K-major or MN-major); wgmma_tma_tf32 reads B column-major and
    # leading dimensions through its tensor maps in both modes (LAYOUTS), A column-major with B
    # row-major in tf32x3 alone (its split transposes A's stage: layouts()), and tf32 copies a
    # column-major A (TF32 wgmma: k-major A); dmma_tail (thirteenth session) takes plain products
    # only (Config.EXTRAS empty): `auto` gives a call with other layouts to another rung, and a
    # call that names it copies such operands first; so do the fourteenth session's half rungs
    # (mma_half_split_k, gemv_xb_half, gemv_ax_half), the fifteenth's gemv_ax_mma, the
    # eighteenth's wgmma_tma_split_k and the twentieth's gemv_xb_tma
    plain_only = {"mma_half", "dmma_tail", "mma_half_split_k", "gemv_xb_half", "gemv_ax_half", "gemv_ax_mma",
                  "wgmma_tma_split_k", "gemv_xb_tma"}
    tunable = [n for n, e in tm.STRATEGIES.items() if e.tunable and n not in plain_only]
    for name in plain_only:
        assert tm.STRATEGIES[name].config_cls.LAYOUTS == (), name
    for name in tunable:
        layouts = tm.STRATEGIES[name].config_cls.LAYOUTS
        assert (False, False) in layouts and len(layouts) >= 2, name
    for name in ("register_blocked", "warp_tiled", "split_k", "tensor_core", "wgmma", "wgmma_split_k", "dmma", "wgmma_tma"):
        assert name in FULL
    assert tm.STRATEGIES["gemv_xb"].config_cls.LAYOUTS == ((False, False), (True, False))
    assert tm.STRATEGIES["gemv_ax"].config_cls.LAYOUTS == ((False, False), (False, True))
    assert tm.STRATEGIES["wgmma_tma_tf32"].config_cls.LAYOUTS == ((False, False), (False, True))
    assert (True, False) in tm.STRATEGIES["wgmma_tma_tf32"].default.layouts()
    for name in ("naive", "thread_tile", "smem_tiled", "rect_tiled"):  # teaching rungs: copied
        assert tm.STRATEGIES[name].config_cls.LAYOUTS == ()


K, N = 64, 48
ROW, ROW_LD = Layout(False, K), Layout(False, K + 16)
COL_A, COL_B = Layout(True, 40), Layout(True, K)


@pytest.mark.parametrize("name", list(tm.STRATEGIES))
@pytest.mark.parametrize("a,b", [(ROW, Layout(False, N)), (COL_A, Layout(False, N)), (ROW, COL_B), (COL_A, COL_B),
                                 (ROW_LD, Layout(False, N + 4))],
                         ids=["plain", "a.T@b", "a@b.T", "a.T@b.T", "slices"])
def test_copies_per_strategy(name, a, b):
    """What the general path copies before each strategy: nothing for the rungs that read every
    layout, the one operand a GEMV rung (or wgmma_tma_tf32) cannot read, everything non-plain for
    the teaching rungs."""
    layouts = tm.STRATEGIES[name].config_cls.LAYOUTS
    copy_a, copy_b = layout_copies(a, b, K, N, layouts)
    plain_a, plain_b = is_plain(a, K), is_plain(b, N)
    if plain_a and plain_b:
        assert (copy_a, copy_b) == (False, False)
    elif name in FULL:
        assert (copy_a, copy_b) == (False, False)
    elif name == "gemv_xb":
        assert (copy_a, copy_b) == (False, b.col)
    elif name in ("gemv_ax", "wgmma_tma_tf32"):  # A column-major is copied (wgmma_tma_tf32: by tf32)
        assert (copy_a, copy_b) == (a.col, False)
    else:
        assert (copy_a, copy_b) == (not plain_a, not plain_b)
    after = (a.col and not copy_a, b.col and not copy_b)
    assert after in layouts or (not after[0] and not after[1])


def test_spec_carries_leading_dimensions():
    s = ExSpec("float", a_col=True)
    assert s.ld and s.layout and s.tag() == "ldAb"
    assert [n for n, _ in s.fields()][:2] == ["lda", "ldb"]
    assert [f[0] for f in struct_type(s)._fields_] == [n for n, _ in s.fields()]
    assert not s.epilogue and not s.batched
    assert ExSpec("double", ld=True, batched=True).tag() == "batched+ldab"


def test_layout_index_expressions():
    plain = layout_vars(None)
    assert plain["A_AT"]("gr", "gc + e") == "(size_t)gr * K + gc + e"  # the plain kernels' own text
    assert plain["B_AT"]("gr", "gc") == "(size_t)gr * N + gc" and not plain["LD"]
    v = layout_vars(ExSpec("float", a_col=True))
    assert v["A_AT"]("gr + e", "gc") == "(size_t)gc * ex.lda + (gr + e)"
    assert v["B_AT"]("gr", "gc + e") == "(size_t)gr * ex.ldb + (gc + e)"
    v = layout_vars(ExSpec("float", b_col=True))
    assert v["B_AT"]("(k0 + k)", "col0 + j") == "(size_t)(col0 + j) * ex.ldb + ((k0 + k))"


def _pairs(name):
    return [pair for pair in tm.STRATEGIES[name].config_cls.LAYOUTS]


#: each config's own layouts (Config.layouts: dmma's pairs layout reads row-major operands only)
LAYOUT_RENDERS = [(n, c, dt, pair) for n, e in tm.STRATEGIES.items() for c in e.configs
                  for dt in e.config_cls.SUPPORTED_DTYPES for pair in c.layouts()]


@pytest.mark.parametrize("name,cfg,dtype,pair", LAYOUT_RENDERS,
                         ids=[f"{n}-{c.tag()}-{d}-{'A' if p[0] else 'a'}{'B' if p[1] else 'b'}"
                              for n, c, d, p in LAYOUT_RENDERS])
def test_layouts_render(name, cfg, dtype, pair):
    entry = tm.STRATEGIES[name]
    ct = "float" if dtype == "float32" else "double"
    src = render(entry, cfg, dtype, ExSpec(ct, a_col=pair[0], b_col=pair[1], ld=True))
    if "layouts" in entry.config_cls.EXTRAS:  # the leading dimensions travel in TmExtra
        assert "ex.lda" in src and "int lda" in src
    elif name == "wgmma_tma":  # the tensor maps carry the layouts; wgmma's transpose bits say which
        assert f"p, 1, 1, {int(pair[0])}, {int(not pair[1])};" in src
    else:  # a rung that reads its layouts through its own arguments (wgmma_tma_tf32: tensor maps)
        assert "int lda" in src
    assert "#error" not in src


@pytest.mark.parametrize("name", ["naive", "rect_tiled"])
def test_a_strategy_without_layouts_refuses_them(name):
    entry = tm.STRATEGIES[name]
    with pytest.raises(ValueError, match="no hooks for operand layouts"):
        render(entry, entry.default, "float32", ExSpec("float", a_col=True))


@pytest.mark.parametrize("name,pair", [("gemv_xb", (False, True)), ("gemv_ax", (True, False))])
def test_gemv_rungs_refuse_the_layout_they_do_not_stream(name, pair):
    entry = tm.STRATEGIES[name]
    src = render(entry, entry.default, "float32", ExSpec("float", a_col=pair[0], b_col=pair[1]))
    assert "#error" in src  # never compiled: execute copies that operand first


# -- nvcc: every layout kernel compiles without spills -------------------------------------------
#: every rung's default config x dtype x layout pair (each with run-time lda/ldb), and batched with
#: its last pair (both column-major for most); with TM_LAYOUT_FULL=1 every other config of every
#: search space x dtype x layout pair too
#: (batched only for the rungs whose template takes batches: wgmma_tma_tf32 reads its layouts
#: through its own arguments, and tests/test_wgmma_tma_tf32.py compiles those kernels)
NVCC_LAYOUTS = [(n, e.default, dt, pair, batched) for n, e in tm.STRATEGIES.items()
                for dt in e.config_cls.SUPPORTED_DTYPES for pair in _pairs(n) for batched in (False, True)
                if not batched or (pair == _pairs(n)[-1] and "batch" in e.config_cls.EXTRAS)]
if os.environ.get("TM_LAYOUT_FULL"):
    # (in the strategy's default dtype, as tests/test_nvcc.py: bn=256 with tn=16 is a float32 tile)
    NVCC_LAYOUTS += [(n, c, e.default_dtype.name, pair, batched) for n, e in tm.STRATEGIES.items()
                     for c in e.search_space if c != e.default for pair in c.layouts() for batched in (False, True)
                     if not batched or (pair == c.layouts()[-1] and "batch" in e.config_cls.EXTRAS)]

#: layout kernels of search-space configs at their register cap that spill a few bytes (each
#: plain kernel fits just under it): warp_tiled and gemv_xb at min_blocks=2's 128, tensor_core's bk=32
#: config (its plain kernel is 20 B from spilling with the range guard; it spills with batched
#: extras too, test_epilogue.KNOWN_SPILLS); run with TM_LAYOUT_FULL=1
KNOWN_LAYOUT_SPILLS = {
    ("warp_tiled", "bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages5_group_m8_min_blocks2", (True, False), False),
    ("warp_tiled", "bm128_bn128_bk16_wm32_wn64_tm8_tn8_stages2_group_m8_min_blocks2", (True, True), True),
    *(("tensor_core", "bm128_bn128_bk32_wm32_wn64_stages4_group_m8_min_blocks1_passes3", pair, batched)
      for pair in ALL_LAYOUTS for batched in (False, True)),
    ("gemv_xb", "threads256_mt8_unroll4_min_blocks2", (False, False), False),  # 8 rows of A at 128 registers
}


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("name,cfg,dtype,pair,batched", NVCC_LAYOUTS,
                         ids=[f"{n}-{c.tag()}-{d}-{'A' if p[0] else 'a'}{'B' if p[1] else 'b'}{'-batched' if bt else ''}"
                              for n, c, d, p, bt in NVCC_LAYOUTS])
def test_layouts_compile_without_spills(name, cfg, dtype, pair, batched):
    entry = tm.STRATEGIES[name]
    ct = "float" if dtype == "float32" else "double"
    s = ExSpec(ct, a_col=pair[0], b_col=pair[1], ld=True, batched=batched)
    rep = _report(nvcc_path(), render(entry, cfg, dtype, s), cfg.NVRTC_ARCH or "sm_90", kernel_name(name, cfg, dtype),
                  f"{name} {cfg.tag()} {dtype} {s.tag()}")
    assert rep.registers > 0, rep.log
    if (name, cfg.tag(), pair, batched) in KNOWN_LAYOUT_SPILLS and (rep.spill_stores or rep.spill_loads):
        pytest.xfail(f"known: {rep.spill_stores} B spill stores at the 128-register cap")
    assert rep.spill_stores == 0 and rep.spill_loads == 0, rep.log
    assert rep.stack_frame == 0, rep.log


def test_layout_pairs_are_all_four():
    assert set(ALL_LAYOUTS) == set(itertools.product((False, True), repeat=2))


def test_explain_says_which_layouts_are_read_in_place():
    m = tm.explain("wgmma", (512, 512, 512), measure=False)
    assert m["layouts"] == ["a @ b", "a.T @ b", "a @ b.T", "a.T @ b.T"]
    assert any("a.T @ b, a @ b.T, a.T @ b.T read in place" in n for n in m["notes"])
    m = tm.explain("gemv_xb", (4, 4096, 4096), measure=False)
    assert m["layouts"] == ["a @ b", "a.T @ b"]
    assert any("a @ b.T, a.T @ b.T: the column-major B is copied" in n for n in m["notes"])
    m = tm.explain("gemv_ax", (4096, 4, 4096), measure=False)
    assert any("the column-major A is copied" in n for n in m["notes"])
    m = tm.explain("naive", (64, 64, 64), measure=False)
    assert m["layouts"] == [] and any("plain row-major only" in n for n in m["notes"])


def test_a_config_whose_tiles_do_not_split_reads_no_layout():
    # 16 warps for a 32 x 8 A tile: the column-major copies' passes do not divide it, so that
    # config has its transposed operands copied (the search spaces hold no such config)
    cfg = tm.STRATEGIES["tensor_core"].default.replace(bm=32, bn=128, bk=8, wm=16, wn=16)
    assert cfg.threads == 512 and cfg.layouts() == ()
    for name, e in tm.STRATEGIES.items():
        for c in e.configs:
            # (wgmma_tma_tf32 adds A column-major in its tf32x3 mode: A_COL_LAYOUTS)
            extra = getattr(c, "A_COL_LAYOUTS", ()) if getattr(c, "passes", 1) == 3 else ()
            if getattr(c, "pairs", 0):  # dmma's pairs layout: row-major operands only, of those its class takes
                assert c.layouts() == tuple(lay for lay in e.config_cls.LAYOUTS if lay == (False, False)), (name, c)
                assert name == "dmma_tail" or c.layouts() == ((False, False),), (name, c)
                continue
            assert c.layouts() == e.config_cls.LAYOUTS + extra, (name, c)
