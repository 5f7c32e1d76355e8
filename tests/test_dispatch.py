"""`strategy="auto"`: user database, then shipped database, then the heuristic; cached per bucket.

Runs on the CPU: without a GPU the device identity is the H100 stand-in, which looks itself up
under the H100's name, so the whole lookup path is exercised here.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import warnings

import numpy as np
import pytest

import tiled_matmul as tm

from tiled_matmul import costmodel, dispatch, measure
from tiled_matmul import tunedb as tdb
from tiled_matmul import tuner as tune_mod

DEV = tdb.device_id(tm.device_limits()) if not tm.gpu_available() else tdb.device_id(0)
TUNED = {"strategy": "register_blocked", "params": {"bm": 64, "bn": 64, "bk": 16, "tm": 4, "tn": 4}}
OTHER = {"strategy": "register_blocked", "params": {"bm": 128, "bn": 64, "bk": 16, "tm": 8, "tn": 4}}


@pytest.fixture(autouse=True)
def _fresh(fresh_tunedb):
    """Every test here starts from an empty user tuning DB and cold dispatch caches."""


@pytest.fixture
def no_shipped(monkeypatch):
    monkeypatch.setattr(tdb, "shipped_db_paths", lambda: [])


def fallback_choice(M, N, K, dtype="float32"):
    from tiled_matmul.heuristic import recommend

    name, params = recommend(M, N, K, dtype)
    return name, dict(params or {})


def test_identity_without_gpu():
    if tm.gpu_available():
        pytest.skip("checks the stand-in identity")
    assert DEV.name == "NVIDIA H100 80GB HBM3" and DEV.cc == "90" and DEV.package == tm.__version__


def test_user_db_entry_picked(no_shipped):
    tdb.save_entries({tdb.bucket(4096, 4096, 4096): TUNED}, DEV)
    c = dispatch.choose(4096, 4096, 4096, device=DEV)
    assert (c.strategy, c.params, c.source) == (TUNED["strategy"], TUNED["params"], "user-db")
    # a nearby shape in the same bucket shares the entry
    assert dispatch.choose(4000, 3900, 4090 - 2, device=DEV).params == TUNED["params"]
    # the kernel auto runs is the one named by the entry
    k = tm.kernel("auto").kernel_for(4000, 4000, 4000, "float32", 0)
    assert k.strategy.name == "register_blocked" and k.config.params() == TUNED["params"]
    assert tm.kernel("auto").kernel_for(4096, 4096, 4096).config == k.config


def test_falls_back_to_heuristic_when_absent(no_shipped):
    tdb.save_entries({tdb.bucket(4096, 4096, 4096): TUNED}, DEV)
    # (2000^3: the heuristic's TMA pick, which MODEL_TILES leaves to it)
    c = dispatch.choose(2000, 2000, 2000, device=DEV)
    assert c.source in ("heuristic", "fallback")
    assert (c.strategy, c.params) == fallback_choice(2000, 2000, 2000)
    # other dtype: not the float32 entry (float64 falls back to the cost model by default)
    assert dispatch.choose(4096, 4096, 4096, "float64", device=DEV).source in ("heuristic", "model")


def test_heuristic_used(no_shipped, monkeypatch):
    calls = []
    monkeypatch.setattr(dispatch, "recommend", lambda M, N, K, dtype, sms, precision, wgmma, dmma: calls.append(
        (M, N, K, dtype, precision)) or ("register_blocked", {"bk": 16}))
    c = dispatch.choose(300, 200, 100, device=DEV)
    assert (c.strategy, c.params, c.source) == ("register_blocked", {"bk": 16}, "heuristic")
    assert calls == [(300, 200, 100, "float32", "auto")]
    dispatch.choose(300, 200, 100, device=DEV)
    assert len(calls) == 1  # cached per bucket
    dispatch.choose(300, 200, 100, device=DEV, precision="ieee")  # the request is part of the cache key
    assert calls[-1] == (300, 200, 100, "float32", "ieee")


@pytest.mark.parametrize("shape", [(1011, 1381, 2795), (1000, 1000, 1000), (727, 717, 7276), (599, 361, 689),
                                   (41, 2421, 345), (22, 9393, 9661)])
def test_model_tiles_take_the_heuristics_mid_size_float32_tiles(no_shipped, shape):
    """Where the heuristic would give a float32 output under a wave of 128 x 128 tiles one of
    wgmma's 64-row or wgmma_split_k's tiles, `auto` runs the cost model's pick among the three
    wgmma rungs instead (dispatch.MODEL_TILES)."""
    from tiled_matmul import costmodel
    from tiled_matmul.heuristic import recommend

    overridden, among = dispatch.MODEL_TILES["float32"]
    assert recommend(*shape, "float32")[0] in overridden  # the case the rule is for
    c = dispatch.choose(*shape, device=DEV)
    want = costmodel.rank(*shape, "float32", efficiencies=dispatch.measured_efficiencies(DEV), strategies=among)[0]
    assert (c.source, c.strategy) == ("model", want.strategy)
    # the model's config, its tile height lowered to the output's where that is taller (dispatch.narrowed)
    assert tm.STRATEGIES[c.strategy].make_config(**c.params).params() == tm.STRATEGIES[c.strategy].make_config(
        **dispatch.narrowed(want.strategy, want.params, shape[0], DEV)).params()
    # the named modes and the heuristic's own mode keep the heuristic
    assert dispatch.choose(*shape, device=DEV, precision="ieee").source == "heuristic"
    previous = dispatch.set_mode("heuristic")
    try:
        c = dispatch.choose(*shape, device=DEV)
        name, params = fallback_choice(*shape)
        assert (c.source, c.strategy, c.params) == ("heuristic", name, dispatch.narrowed(name, params, shape[0], DEV))
    finally:
        dispatch.set_mode(previous)


@pytest.mark.parametrize("shape", [(2000, 2000, 2000), (4096, 8, 4096), (300, 300, 64), (8192, 1, 8192)])
def test_model_tiles_leave_other_float32_picks_to_the_heuristic(no_shipped, shape):
    """The TMA picks, the A·x GEMV rung (N <= heuristic.GEMV_MAX) and FFMA below TF32X3_MIN_K stay
    the heuristic's."""
    c = dispatch.choose(*shape, device=DEV)
    assert (c.source, c.strategy, c.params) == ("heuristic", *fallback_choice(*shape))


@pytest.mark.parametrize("shape", [(5, 300, 3000), (6, 45, 6043), (2, 36, 7515), (8, 236, 153), (6, 54074, 1474),
                                   (7, 8191, 8191)])
@pytest.mark.parametrize("precision", ["auto", "ieee"])
def test_model_configs_choose_gemv_xb_config(no_shipped, shape, precision):
    """Where the heuristic picks float32 gemv_xb, the rung stays and the cost model picks its config
    among gemv_xb's (dispatch.MODEL_CONFIGS); mode "heuristic" keeps the table's."""
    from tiled_matmul.heuristic import recommend

    name, params = recommend(*shape, "float32")
    assert name == "gemv_xb" and "gemv_xb" in dispatch.MODEL_CONFIGS["float32"]
    want = costmodel.rank(*shape, "float32", efficiencies=dispatch.measured_efficiencies(DEV), strategies=("gemv_xb",))[0]
    c = dispatch.choose(*shape, device=DEV, precision=precision)
    entry = tm.STRATEGIES["gemv_xb"]
    assert (c.source, c.strategy) == ("model", "gemv_xb")
    assert entry.make_config(**c.params) == entry.make_config(**want.params)
    previous = dispatch.set_mode("heuristic")
    try:
        c = dispatch.choose(*shape, device=DEV, precision=precision)
        assert (c.source, c.strategy, c.params) == ("heuristic", name, params)
    finally:
        dispatch.set_mode(previous)


@pytest.mark.parametrize("shape", [(85, 25, 247), (30, 34, 228), (25, 579, 234), (2062, 59, 156), (455, 15, 132)])
def test_model_small_takes_warp_tiled_small_skinny_picks(no_shipped, shape):
    """dispatch.MODEL_SMALL: where the heuristic gives a small skinny float32 output (thin side
    9-64, K >= 128) warp_tiled's tile, a plain call runs the cost model's pick among every rung;
    an ieee request, mode "heuristic", a call that needs extras, a short K and a wider output keep
    the heuristic's."""
    from tiled_matmul.heuristic import recommend

    assert recommend(*shape, "float32")[0] == "warp_tiled"
    eff = dispatch.measured_efficiencies(DEV)
    want = costmodel.rank(*shape, "float32", efficiencies=eff)[0]
    M, N, K = shape
    if (want.strategy == "gemv_xb_tma" and K < dispatch.SMALL_XB_SHORT_K
            and (M <= dispatch.SMALL_XB_TMA_ROWS or N <= dispatch.SMALL_XB_NARROW_N)):
        want = costmodel.rank(*shape, "float32", efficiencies=eff, strategies=("gemv_xb",))[0]  # (the short-K rule)
    c = dispatch.choose(*shape, device=DEV)
    assert (c.source, c.strategy) == ("model", want.strategy), c
    entry = tm.STRATEGIES[c.strategy]
    assert entry.make_config(**c.params) == entry.make_config(**dispatch.narrowed(want.strategy, want.params,
                                                                                     shape[0], DEV))
    assert dispatch.choose(*shape, device=DEV, precision="ieee").source == "heuristic"
    name, _ = dispatch.plain_choice(*shape, "float32", DEV, "tf32x3", frozenset({"epilogue"}))
    assert name == recommend(*shape, "float32")[0] or name in dispatch.MODEL_TILES["float32"][1]
    previous = dispatch.set_mode("heuristic")
    try:
        assert dispatch.choose(*shape, device=DEV).source == "heuristic"
    finally:
        dispatch.set_mode(previous)
    M, N, K = shape
    for other in ((M, N, 100), (max(M, 100), max(N, 100), K)):
        assert dispatch.choose(*other, device=DEV).strategy == recommend(*other, "float32")[0], other


@pytest.mark.parametrize("shape", [(47, 1505, 162), (58, 834, 131)])
def test_model_small_leaves_wide_b_chunks_over_32_rows_to_the_heuristic(no_shipped, shape):
    """The model's gemv_xb_tma pick for an x·B over SMALL_XB_TMA_ROWS rows (chunks that re-read a
    wide B) gives way to the heuristic's warp_tiled."""
    want = costmodel.rank(*shape, "float32", efficiencies=dispatch.measured_efficiencies(DEV))[0]
    assert want.strategy == "gemv_xb_tma" and shape[0] > dispatch.SMALL_XB_TMA_ROWS
    c = dispatch.choose(*shape, device=DEV)
    assert (c.source, c.strategy) == ("heuristic", "warp_tiled"), c


@pytest.mark.parametrize("shape,want", [((16, 409, 131), "gemv_xb"), ((52, 107, 135), "gemv_xb"),
                                        ((9, 704, 187), "gemv_xb"), ((37, 1731, 241), "warp_tiled"),
                                        ((20, 600, 300), None)])
def test_model_small_short_k_xb_tma_picks_run_gemv_xb(no_shipped, shape, want):
    """dispatch.SMALL_XB_SHORT_K: a small skinny x·B whose model pick is gemv_xb_tma with a K under
    256 runs gemv_xb's model config where it has at most 32 rows or a B of at most 512 columns; over
    32 rows of a wider B the heuristic's warp_tiled (SMALL_XB_TMA_ROWS); from K 256 the rule is off."""
    eff = dispatch.measured_efficiencies(DEV)
    first = costmodel.rank(*shape, "float32", efficiencies=eff)[0]
    c = dispatch.choose(*shape, device=DEV)
    if want is None:
        assert shape[2] >= dispatch.SMALL_XB_SHORT_K and c.strategy != "gemv_xb", c
        return
    assert first.strategy == "gemv_xb_tma", first
    assert c.strategy == want, c
    if want == "gemv_xb":
        best = costmodel.rank(*shape, "float32", efficiencies=eff, strategies=("gemv_xb",))[0]
        entry = tm.STRATEGIES["gemv_xb"]
        assert c.source == "model"
        assert entry.make_config(**c.params) == entry.make_config(**dispatch.narrowed("gemv_xb", best.params,
                                                                                     shape[0], DEV))


def test_model_configs_fix_the_narrow_b_picks(no_shipped):
    """The case the rule is for: on a 45-column B the table's one K group of 1024 columns idles 244
    of 256 threads; the model takes K groups. On a 54074-column B with a short K the groups' runs
    are short and their blocks come in waves (costmodel.groups_fit): one group, as the table."""
    entry = tm.STRATEGIES["gemv_xb"]
    narrow = entry.make_config(**dispatch.choose(6, 45, 6043, device=DEV).params)
    assert narrow.kg > 1 and recommend_kg(6, 45, 6043) == 1
    wide = entry.make_config(**dispatch.choose(6, 54074, 1474, device=DEV).params)
    assert wide.kg == 1


def recommend_kg(M, N, K):
    from tiled_matmul.heuristic import recommend

    return tm.STRATEGIES["gemv_xb"].make_config(**recommend(M, N, K, "float32")[1]).kg


@pytest.mark.parametrize("M", [1, 7, 17, 24, 33, 40, 57, 63, 64, 65, 100, 128, 300])
@pytest.mark.parametrize("name,params", [("wgmma", {}), ("wgmma", dict(bm=64, bn=64, stages=4, min_blocks=2)),
                                         ("wgmma_split_k", {"split_k": 4}), ("wgmma_split_k", dict(bm=128, bn=128, stages=3)),
                                         ("wgmma", dict(bm=96, bn=256, stages=3))])
def test_narrowed_lowers_the_tile_to_the_output_and_no_further(name, params, M):
    """bm becomes the least valid height (a multiple of 8 and of the rows per copy pass, within
    dispatch.NARROW_HEIGHTS) that holds M, only where that is under the config's own; every other
    param is kept."""
    lo, hi = dispatch.NARROW_HEIGHTS
    cfg = tm.STRATEGIES[name].make_config(**params)
    got = dispatch.narrowed(name, dict(params), M, DEV)
    if cfg.bm not in dispatch.NARROW_FROM:  # wgmma's 96-120-row tiles: heights of their own
        assert got == params
        return
    new = tm.STRATEGIES[name].make_config(**got)
    assert new.is_valid(tm.device_limits())
    assert {k: v for k, v in new.params().items() if k != "bm"} == {k: v for k, v in cfg.params().items() if k != "bm"}
    rows = cfg.threads // cfg.BK
    assert new.bm <= cfg.bm and new.bm % 8 == 0 and new.bm % rows == 0
    if new.bm < cfg.bm:
        assert lo <= new.bm <= hi and max(M, lo) <= new.bm < max(M, lo) + max(8, rows)  # the least such height
    else:
        assert max(M, lo) > min(cfg.bm, hi) - max(8, rows)  # nothing lower holds M
    assert dispatch.narrowed("gemv_xb", {"mt": 8}, M, DEV) == {"mt": 8}  # other rungs: as given


@pytest.mark.parametrize("shape", [(17, 4096, 12617), (40, 8192, 8192), (33, 1000, 5003), (48, 4096, 8192)])
def test_auto_narrows_skinny_wgmma_picks(no_shipped, shape):
    """x·B with 17-48 rows on the wgmma rungs: the tile is the output's height, not 64 rows."""
    c = dispatch.choose(*shape, device=DEV)
    assert c.strategy in dispatch.NARROW_RUNGS, c
    cfg = tm.STRATEGIES[c.strategy].make_config(**c.params)
    assert shape[0] <= cfg.bm < shape[0] + 8, c


@pytest.mark.parametrize("shape,to", [
    ((28, 19244, 4044), "narrow"),    # gemv_xb_tma's chunks over 2^24 elements of B
    ((17, 12228, 3936), "narrow"),
    ((31, 16772, 4933), "narrow"),    # wgmma_tma_tf32's 128-row tiles
    ((32, 26014, 2800), "narrow"),    # ... on a ragged B
    ((48, 18708, 8020), "tma64"),     # wgmma_tma_tf32's pick, 33-64 rows
    ((37, 17004, 1031), "tma64"),     # ... with K off 16 bytes (the heuristic's pick stands)
    ((63, 16056, 2028), "tma64"),     # wgmma's 64 x 128 under a wave, aligned: 0.96 of a wave
    ((57, 20581, 5252), "narrow"),    # wgmma_tma_tf32's pick on a ragged B (a copy of B)
    ((48, 18707, 2051), "narrow"),
    ((18, 2268, 1956), "chunks"),     # B under XB_CHUNKS_MAX_STREAM: the chunks stay
    ((61, 12942, 2540), "kept"),      # ragged B under a wave: no TMA tiles
    ((50, 4896, 6792), "kept"),       # B 38 tiles wide
    ((40, 17000, 20000), "kept"),     # K over AUTO_CHAIN_K: the split-K pick stays
])
def test_x_b_with_17_to_64_rows_leaves_chunks_and_tall_tma_tiles(no_shipped, shape, to):
    """dispatch.xb_choice: 17-32 rows go to the model's narrowed wgmma rungs from the chunks (over
    2^24 elements of B) and from wgmma_tma_tf32; 33-64 rows take wgmma_tma_tf32's 64 x 128 tiles
    where it was picked, or B is aligned, a wave wide and K one chain deep; its picks on a B with
    ragged rows go to the model's narrowed pick."""
    M, N, K = shape
    c = dispatch.choose(M, N, K, device=DEV)
    saved = dispatch.xb_choice
    try:
        dispatch.xb_choice = lambda *a, **k: None
        dispatch.clear_cache()
        before = dispatch.choose(M, N, K, device=DEV)
    finally:
        dispatch.xb_choice = saved
        dispatch.clear_cache()
    moved = to in ("narrow", "tma64")
    assert (c.moved_from is not None) == moved and before.moved_from is None
    if moved:
        assert c.moved_from == (before.strategy, before.params)  # what the fallback had picked
        notes = tm.explain("auto", f"{M}x{N}x{K}", measure=False)["notes"]
        assert any("dispatch.xb_choice" in n and before.strategy in n for n in notes), notes
    if to == "narrow":
        best = dispatch.model_choice(M, N, K, "float32", DEV, "auto", dispatch.NARROW_RUNGS)
        assert (c.strategy, c.params) == (best.strategy, dispatch.narrowed(best.strategy, dispatch._own_params(best), M, DEV))
        assert c.source == "model" and (before.strategy, before.params) != (c.strategy, c.params)
        assert tm.STRATEGIES[c.strategy].make_config(**c.params).bm == (-(-max(M, 24) // 8) * 8 if M <= 48 else 64)
    elif to == "tma64":
        assert (c.strategy, c.params) == ("wgmma_tma_tf32", dispatch.XB_TMA64), c
        assert tm.STRATEGIES[c.strategy].make_config(**c.params).is_valid(tm.device_limits())
        assert before != c
    else:
        assert c == before, (c, before)
        if to == "chunks":
            assert c.strategy == "gemv_xb_tma", c


@pytest.mark.parametrize("shape,dtype,precision,mode", [
    ((28, 19244, 4044), "float32", "ieee", "auto"),    # tf32x3 not allowed
    ((28, 19244, 4044), "float32", "auto", "heuristic"),
    ((48, 18708, 8020), "float32", "auto", "model"),
    ((48, 18708, 8020), "float64", "auto", "auto"),
    ((19244, 28, 4044), "float32", "auto", "auto"),    # A·x
    ((16, 19244, 4044), "float32", "auto", "auto"),    # 16 rows: one chunk
    ((65, 18708, 8020), "float32", "auto", "auto"),
])
def test_xb_choice_applies_to_auto_float32_x_b_only(no_shipped, shape, dtype, precision, mode):
    previous = dispatch.set_mode(mode)
    try:
        name, params = dispatch.choose(*shape, dtype, DEV, precision).strategy, {}
        assert dispatch.xb_choice(*shape, tm.dtypes.as_dtype(dtype), DEV, precision, name, params) is None
    finally:
        dispatch.set_mode(previous)


def test_database_entries_are_not_narrowed():
    """A tuned entry is run as tuned: the shipped 64 x 8192 x 8192 entry serves 57 rows unchanged."""
    c = dispatch.choose(57, 8192, 8192, device=DEV)
    assert c.source == "shipped-db" and c.params == c.entry["params"], c


@pytest.mark.parametrize("shape", [(16337, 20, 13807), (4096, 24, 16384), (8192, 32, 4096), (4099, 17, 4111),
                                   (8191, 48, 2053), (11046, 49, 8470), (8192, 64, 8192)])
def test_a_x_with_17_to_64_columns_runs_transposed(no_shipped, shape):
    """The choice for B^T A^T: a wgmma rung whose tile height covers the N columns, reading both
    operands column-major in place; auto's kernel object runs it for plain calls and the shape's
    own pick for the general path."""
    from tiled_matmul.api import TransposedKernel
    from tiled_matmul.execute import _untransposed

    M, N, K = shape
    c = dispatch.choose(M, N, K, device=DEV)
    t = c.transposed
    assert t is not None and t.strategy in dispatch.NARROW_RUNGS, c
    cfg = tm.STRATEGIES[t.strategy].make_config(**t.params)
    assert cfg.bm == (-(-N // 8) * 8 if N <= dispatch.AX_NARROW_MAX else 64) and (True, True) in cfg.layouts(), t
    k = tm.kernel("auto").kernel_for(M, N, K, "float32", device=0)
    assert isinstance(k, TransposedKernel) and k.inner.config == cfg
    assert _untransposed(k) is k.plain and k.plain.config == tm.STRATEGIES[c.strategy].make_config(**c.params)
    m = tm.explain("auto", f"{M}x{N}x{K}", measure=False)
    assert any("runs as its transpose" in n for n in m["notes"]), m["notes"]
    from rich.console import Console

    from tiled_matmul.analysis import explain_table

    with open(os.devnull, "w") as sink:
        console = Console(width=400, record=True, file=sink)
        console.print(explain_table(m))
    assert f"C^T = B^T A^T on {t.strategy}" in console.export_text()


@pytest.mark.parametrize("shape,dtype,precision", [
    ((8192, 16, 8192), "float32", "auto"),    # gemv_ax's chunks
    ((8192, 65, 8192), "float32", "auto"),    # past AX_TRANSPOSED; its own pick the split-K rung
    ((16384, 120, 4096), "float32", "auto"),  # AX_TRANSPOSED_WIDE: the TMA pick reads A in place
    ((12330, 123, 3352), "float32", "auto"),  # ... the same
    ((4570, 84, 1029), "float32", "auto"),    # ... its own pick the split-K rung
    ((17003, 129, 1031), "float32", "auto"),  # past AX_TRANSPOSED_WIDE
    ((8192, 32, 8192), "float32", "ieee"),    # tf32x3 not allowed
    ((8192, 32, 100), "float32", "auto"),     # K under TF32X3_MIN_K: ieee
    ((8192, 32, 8192), "float64", "auto"),
    ((4000, 32, 4000), "float32", "auto"),    # A under AX_TRANSPOSED_MIN_STREAM
    ((32, 8192, 8192), "float32", "auto"),    # x·B
])
def test_other_products_do_not_run_transposed(no_shipped, shape, dtype, precision):
    assert dispatch.transposed_choice(*shape, dtype, DEV, precision) is None
    assert dispatch.choose(*shape, dtype, DEV, precision).transposed is None


@pytest.mark.parametrize("shape", [(21665, 100, 1385), (17445, 117, 11803), (17003, 97, 1031), (20011, 125, 1001),
                                   (28834, 112, 1546)])
def test_a_x_with_65_to_128_columns_runs_transposed_off_the_tma_tiles(no_shipped, shape):
    """AX_TRANSPOSED_WIDE: where the shape's own pick is wgmma_tma_tf32 with K % 4 (A read from a
    padded copy), the model's pick for B^T A^T runs, its tile uncut, both operands column-major."""
    M, N, K = shape
    c = dispatch.choose(M, N, K, device=DEV)
    assert K % 4 and c.strategy == "wgmma_tma_tf32" and c.transposed is not None, c
    want = dispatch.model_choice(N, M, K, "float32", DEV, "auto", dispatch.NARROW_RUNGS)
    entry = tm.STRATEGIES[want.strategy]
    cfg = entry.make_config(**c.transposed.params)
    assert c.transposed.strategy == want.strategy and cfg == entry.make_config(**want.params) and cfg.bm >= N
    assert (True, True) in cfg.layouts()
    previous, dispatch.AX_TRANSPOSED_WIDE = dispatch.AX_TRANSPOSED_WIDE, None
    try:
        dispatch.clear_cache()
        assert dispatch.choose(M, N, K, device=DEV).transposed is None
    finally:
        dispatch.AX_TRANSPOSED_WIDE = previous
        dispatch.clear_cache()


def test_a_tuned_entry_keeps_its_shape_untransposed(fresh_tunedb):
    """A user database entry for the shape's bucket overrides the transposed run."""
    tdb.save_entries({tdb.bucket(8192, 32, 4096): {"strategy": "wgmma_split_k",
                                                   "params": {"bm": 64, "bn": 64, "split_k": 2}}}, DEV)
    assert dispatch.transposed_choice(8192, 32, 4096, "float32", DEV) is None
    assert dispatch.choose(8192, 32, 4096, device=DEV).source == "user-db"


@pytest.mark.parametrize("needed", [{"batch"}, {"layouts"}, {"epilogue"}, {"batch", "epilogue", "out_dtype"}])
def test_plain_choice_keeps_the_model_tiles_rule_to_rungs_that_take_the_call(needed):
    """A call whose first pick lacks a feature it needs: plain_pick's cp.async rung, or where
    MODEL_TILES applies, the model's pick among those of its rungs that take every feature needed
    (the TMA rung only for an epilogue alone)."""
    from tiled_matmul import costmodel
    from tiled_matmul.heuristic import plain_pick

    needed = frozenset(needed)
    mid, big = (1011, 1381, 2795), (4096, 4096, 4096)  # under and over one wave of 128 x 128 tiles
    among = tuple(n for n in dispatch.MODEL_TILES["float32"][1] if needed <= tm.STRATEGIES[n].default.extras())
    assert "wgmma" in among and ("wgmma_tma_tf32" in among) == (needed == {"epilogue"})
    name, params = dispatch.plain_choice(*mid, "float32", None, "tf32x3", needed)
    want = costmodel.rank(*mid, "float32", "tf32x3", efficiencies=dispatch.measured_efficiencies(), strategies=among)[0]
    assert name == want.strategy and tm.STRATEGIES[name].make_config(**params).params() == want.params
    assert plain_pick(*mid, "float32", 132, "tf32x3")[0] == "wgmma"  # what the rule replaced
    assert dispatch.plain_choice(*big, "float32", None, "tf32x3", needed) == plain_pick(*big, "float32", 132, "tf32x3")
    assert dispatch.plain_choice(*mid, "float32", None, "ieee", needed) == plain_pick(*mid, "float32", 132, "ieee")


@pytest.mark.parametrize("M", [20, 40, 48, 57, 72, 100])
def test_plain_choice_cuts_tiles_only_to_heights_run_with_extras(M):
    """The general path's picks take tiles cut up to PLAIN_NARROW_MAX rows; beyond, the tile as
    picked (the higher cuts have not run on a GPU with batches and epilogues)."""
    shape = (M, 6000, 6000)
    name, params = dispatch.plain_choice(*shape, "float32", None, "tf32x3", frozenset({"batch", "epilogue"}))
    assert name in dispatch.NARROW_RUNGS, (name, params)
    bm = tm.STRATEGIES[name].make_config(**params).bm
    if M <= dispatch.PLAIN_NARROW_MAX:
        assert bm == -(-max(M, 24) // 8) * 8, (name, params)
    else:
        assert bm in dispatch.NARROW_FROM, (name, params)  # not cut
    assert dispatch.choose(72, 6000, 6000).params.get("bm") == 72  # the plain 2-D call's pick is cut


def test_plain_choice_is_cached_per_shape(monkeypatch):
    """The call that needs plain_choice runs it every time: the model's ranking runs once per shape
    (until clear_cache)."""
    calls = []
    real = dispatch.model_choice
    monkeypatch.setattr(dispatch, "model_choice", lambda *a, **k: calls.append(a) or real(*a, **k))
    dispatch.clear_cache()
    first = dispatch.plain_choice(1011, 1381, 2795, "float32", None, "tf32x3", frozenset({"batch"}))
    assert dispatch.plain_choice(1011, 1381, 2795, "float32", None, "tf32x3", frozenset({"batch"})) == first
    assert len(calls) == 1
    dispatch.plain_choice(1011, 1381, 2795, "float32", None, "tf32x3", frozenset({"layouts"}))  # another key
    assert len(calls) == 2
    dispatch.clear_cache()
    assert dispatch.plain_choice(1011, 1381, 2795, "float32", None, "tf32x3", frozenset({"batch"})) == first
    assert len(calls) == 3


def test_precision_request_filters_db_entries(no_shipped, fresh_tunedb):
    """An "auto" entry on the tensor cores serves "auto" and "tf32x3" asks for it by its own key;
    "ieee" never takes it; below TF32X3_MIN_K "auto" does not either."""
    tdb.save_entries({tdb.bucket(4096, 4096, 4096): {"strategy": "tensor_core", "params": {"bk": 16}, "ms": 1.0},
                      tdb.bucket(4096, 4096, 4096, precision="ieee"): {"strategy": "tensor_core", "params": {}, "ms": 1.0},
                      tdb.bucket(4096, 4096, 64): {"strategy": "wgmma", "params": {}, "ms": 1.0}},
                     dev=DEV)
    dispatch.clear_cache()
    assert dispatch.choose(4096, 4096, 4096, device=DEV).strategy == "tensor_core"
    c = dispatch.choose(4096, 4096, 4096, device=DEV, precision="ieee")
    assert (c.strategy, c.source) == ("register_blocked", "heuristic")
    c = dispatch.choose(4096, 4096, 64, device=DEV)  # K < TF32X3_MIN_K: the FFMA rules
    assert c.source == "heuristic" and not tm.STRATEGIES[c.strategy].config_cls.TENSOR_CORES
    c = dispatch.choose(4096, 4096, 4096, device=DEV, precision="tf32")
    assert c.params.get("passes") == 1 and c.source == "heuristic"


def _write_shipped(path, entries, dev=DEV, package="0.0.0-any"):
    doc = {"schema": tdb.SCHEMA, "version": tdb.SCHEMA_VERSION, "devices": {
        f"{dev.name}|sm_{dev.cc}|{package}": {"device": dev.name, "cc": dev.cc, "package": package,
                                              "entries": entries}}}
    path.write_text(json.dumps(doc))


def test_shipped_db_then_user_db_precedence(tmp_path, monkeypatch):
    shipped = tmp_path / "tuned_test.json"
    key = tdb.bucket(2048, 2048, 2048)
    _write_shipped(shipped, {key: OTHER})  # another package version: shipped files still match
    monkeypatch.setattr(tdb, "shipped_db_paths", lambda: [shipped])
    c = dispatch.choose(2048, 2048, 2048, device=DEV)
    assert (c.params, c.source) == (OTHER["params"], "shipped-db")
    tdb.save_entries({key: TUNED}, DEV)  # clears the in-process cache itself
    c = dispatch.choose(2048, 2048, 2048, device=DEV)
    assert (c.params, c.source) == (TUNED["params"], "user-db")


def test_env_var_override(tmp_path, monkeypatch, no_shipped):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    tdb.save_entries({tdb.bucket(256, 256, 256): TUNED}, DEV, a)
    tdb.save_entries({tdb.bucket(256, 256, 256): OTHER}, DEV, b)
    monkeypatch.setenv(tdb.ENV_VAR, str(a))
    dispatch.clear_cache()
    assert dispatch.choose(256, 256, 256, device=DEV).params == TUNED["params"]
    monkeypatch.setenv(tdb.ENV_VAR, str(b))
    dispatch.clear_cache()
    assert dispatch.choose(256, 256, 256, device=DEV).params == OTHER["params"]


def test_stale_entry_warns_and_falls_back(no_shipped):
    tdb.save_entries({tdb.bucket(640, 640, 640): {"strategy": "no_such_strategy", "params": {}},
                      tdb.bucket(64, 64, 64): {"strategy": "register_blocked", "params": {"bm": 100}}}, DEV)
    with pytest.warns(tdb.TuneDBWarning, match="no_such_strategy"):
        c = dispatch.choose(640, 640, 640, device=DEV)
    assert c.source in ("heuristic", "model")  # (float32's mid-size tiles: MODEL_TILES)
    with pytest.warns(tdb.TuneDBWarning):
        assert dispatch.choose(64, 64, 64, device=DEV).source in ("heuristic", "fallback")


def test_corrupt_user_db_does_not_break_auto(tmp_path, monkeypatch, no_shipped):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    monkeypatch.setenv(tdb.ENV_VAR, str(bad))
    with pytest.warns(tdb.TuneDBWarning):
        assert dispatch.choose(128, 128, 128, device=DEV).source in ("heuristic", "fallback")
    k = tm.kernel("auto").kernel_for(128, 128, 128)
    assert isinstance(k, tm.MatmulKernel)


def test_cached_dispatch_is_a_dict_hit(no_shipped, monkeypatch):
    tdb.save_entries({tdb.bucket(1024, 1024, 1024): TUNED}, DEV)
    k = tm.kernel("auto").kernel_for(1024, 1024, 1024, "float32", 0)
    calls = []
    monkeypatch.setattr(dispatch, "choose", lambda *a, **kw: calls.append(a))
    for _ in range(100):
        assert tm.kernel("auto").kernel_for(1024, 1024, 1024, "float32", 0) is k
    assert calls == []


def test_shipped_db_is_valid():
    paths = [p for p in tdb.shipped_db_paths() if p.name == "tuned_h100.json"]
    assert paths, "tiled_matmul/data/tuned_h100.json is not among the shipped databases"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doc = tdb.read_db(paths[0])
    h100 = tdb.DeviceId("NVIDIA H100 80GB HBM3", "90", tm.__version__)
    entries = tdb.entries_for(doc, h100, match_package=False)
    assert entries, "the shipped H100 database has no H100 entries"
    for key, entry in entries.items():
        assert key.startswith(("float32/", "float64/")), key
        cfg = tm.STRATEGIES[entry["strategy"]].make_config(**entry["params"])
        cfg.validate(dtype=key.split("/")[0])


@pytest.mark.skipif(tm.gpu_available(), reason="looks up the H100 stand-in identity; this machine has a real GPU")
def test_shipped_db_answers_suite_shapes():
    assert any(p.name == "tuned_h100.json" for p in tdb.shipped_db_paths())
    c = dispatch.choose(1024, 1024, 1024, device=DEV)  # a suite shape the shipped database keeps
    assert c.source == "shipped-db"


# -- the API ------------------------------------------------------------------------------------
def test_kernel_auto_object():
    k = tm.kernel("auto")
    assert isinstance(k, tm.AutoKernel)
    assert "auto" in repr(k)
    with pytest.raises(TypeError, match="auto"):
        tm.kernel("auto", bm=64)
    with pytest.raises(TypeError, match="shape"):
        k.source()
    assert isinstance(k.resolve(100, 200, 300), dispatch.Choice)


def test_matmul_auto_rejects_params():
    a = np.zeros((4, 4), np.float32)
    with pytest.raises(TypeError, match="auto"):
        tm.matmul(a, a, strategy="auto", tile=16)


def test_matmul_auto_checks_operands_first():
    with pytest.raises(ValueError, match="inner dimensions"):
        tm.matmul(np.zeros((4, 5), np.float32), np.zeros((4, 5), np.float32), strategy="auto")
    with pytest.raises(ValueError, match="inner dimensions"):
        tm.kernel("auto")(np.zeros((4, 5), np.float32), np.zeros((4, 5), np.float32))


@pytest.mark.skipif(tm.gpu_available(), reason="checks the no-GPU error")
def test_matmul_auto_without_gpu_raises_runtime_error():
    a = np.ones((8, 8), np.float32)
    with pytest.raises(RuntimeError, match="CUDA device"):
        tm.matmul(a, a, strategy="auto")
    with pytest.raises(RuntimeError, match="CUDA device"):
        tm.kernel("auto")(a, a)


def test_tune_without_gpu_raises():
    if tm.gpu_available():
        pytest.skip("needs the no-GPU machine")
    with pytest.raises(RuntimeError, match="CUDA device"):
        tm.tune(64, 64, 64)


def test_tune_without_cupy_raises_the_same_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # `import cupy` now raises ImportError
    with pytest.raises(RuntimeError, match="CUDA device"):
        tm.tune(64, 64, 64)


def test_search_space_is_valid_and_tunable():
    space = tune_mod.search_space()
    assert space
    assert all(entry.tunable for entry, _ in space)
    assert all(cfg.is_valid(None, "float32") for _, cfg in space)
    assert len({(e.name, c) for e, c in space}) == len(space)  # no duplicates
    names = {e.name for e, _ in tune_mod.search_space(["naive"])}
    assert names == {"naive"}  # named strategies are searched even if not tunable


@pytest.mark.parametrize("shape,dtype,strategies,modes", [
    ((256, 256, 131072), "float64", ["dmma", "dmma_split_k"], ("ieee",)),
    ((1, 8192, 8192), "float32", None, ("ieee",)),
    ((3001, 2999, 3007), "float32", None, ("tf32x3",)),
    ((40, 8192, 8192), "float32", ["wgmma", "wgmma_split_k"], ("tf32x3",)),
])
def test_tune_candidates_hold_the_search_space_and_the_models_first_picks(shape, dtype, strategies, modes):
    """The tuner times its search space and, after it, the cost model's fastest predictions it lacks
    (split counts outside the search spaces among them), so that a tuned entry, which overrides
    the model, is never slower than the model's own pick measured beside it."""
    from tiled_matmul import costmodel
    from tiled_matmul.dispatch import measured_efficiencies

    space = tune_mod.search_space(strategies, dtype, None, modes)
    cands = tune_mod.candidates(*shape, dtype, strategies, None, modes, modes[0])
    assert cands[:len(space)] == space
    assert len({(e.name, c) for e, c in cands}) == len(cands)  # no duplicates
    names = None if strategies is None else strategies
    ranked = costmodel.rank(*shape, dtype, modes[0], None, measured_efficiencies(None), names)
    keyed = {(e.name, c) for e, c in cands}
    for p in ranked[:tune_mod.MODEL_PICKS]:
        assert (p.strategy, tm.STRATEGIES[p.strategy].make_config(**p.params)) in keyed, p
        # ... and as auto runs them, cut to the output's height (the 40-row product: bm 40)
        cut = dispatch.narrowed(p.strategy, dict(p.params), shape[0])
        assert (p.strategy, tm.STRATEGIES[p.strategy].make_config(**cut)) in keyed, (p, cut)
    if shape[0] == 40:
        assert any(c.bm == 40 for e, c in cands[len(space):])
    if dtype == "float64":  # the model's split of 32, which no search-space config has
        assert any(e.name == "dmma_split_k" and c.split_k == 32 for e, c in cands[len(space):])


def test_tune_builds_autos_transposed_run_as_a_row(no_shipped):
    """What tune times beside its candidates where auto runs an A·x product as its transpose: auto's
    own kernel for the shape, an api.TransposedKernel of dispatch.transposed_choice's inner kernel
    over the shape's own pick (the GPU test test_gpu_tune.py times it and checks what tune saves)."""
    from tiled_matmul.api import TransposedKernel

    t = dispatch.transposed_choice(8192, 32, 4096, "float32", DEV)
    assert t is not None
    k = tm.kernel("auto", precision="auto").kernel_for(8192, 32, 4096, "float32", DEV)
    row = tune_mod.transposed_row(k, "auto")
    cfg = tm.STRATEGIES[t.strategy].make_config(**t.params)
    assert (row.study, row.strategy, row.config, row.precision, row.request) == ("tune", t.strategy, cfg,
                                                                                  cfg.precision, "auto")
    assert isinstance(k, TransposedKernel) and k.inner.config == cfg
    own = dispatch.fallback_choice(8192, 32, 4096, "float32", DEV)
    assert k.plain.config == tm.STRATEGIES[own.strategy].make_config(**own.params)
    assert tune_mod.TuneResult((1, 1, 1), "float32", "", "", "", None).transposed is None


@pytest.mark.parametrize("shape", [(28, 19244, 4044), (17, 12228, 3936), (57, 20581, 5252), (8192, 32, 4096)])
def test_tune_candidates_hold_autos_own_pick(no_shipped, shape):
    """auto's pick where no entry serves the shape (x·B rules included) is among what the tuner
    times, so an entry it saves was measured against what auto would have run."""
    c = dispatch.choose(*shape, device=DEV)
    fb = dispatch.fallback_choice(*shape, "float32", DEV)
    assert (c.strategy, c.params, c.source) == (fb.strategy, fb.params, fb.source)
    keyed = {(e.name, cfg) for e, cfg in tune_mod.candidates(*shape, "float32")}
    assert (c.strategy, tm.STRATEGIES[c.strategy].make_config(**c.params)) in keyed, c
    only = tune_mod.candidates(*shape, "float32", ["gemv_xb"])
    assert {e.name for e, _ in only} == {"gemv_xb"}  # a named search keeps to its strategies


# -- the command line -----------------------------------------------------------------------------
@pytest.mark.parametrize("text,want", [("4096", (4096, 4096, 4096)), ("3001x2999x3007", (3001, 2999, 3007)),
                                       ("16384,64,4096", (16384, 64, 4096)), ("8192X8192x128", (8192, 8192, 128))])
def test_parse_size(text, want):
    assert measure.shape_arg(text) == want


@pytest.mark.parametrize("text", ["", "x", "1x2", "0", "1x2x3x4", "-4", "abc"])
def test_parse_size_rejects(text):
    with pytest.raises(argparse.ArgumentTypeError):
        measure.shape_arg(text)


def test_tune_arguments():
    p = tune_mod.add_arguments(argparse.ArgumentParser())
    args = p.parse_args(["--sizes", "256", "3001x2999x3007", "--strategies", "register_blocked",
                         "--repeat", "5", "--no-save", "--db", "/tmp/x.json", "-q"])
    assert args.sizes == [(256, 256, 256), (3001, 2999, 3007)]
    assert args.strategies == ["register_blocked"] and args.repeat == 5 and args.no_save and args.quiet
    assert args.dtype == ["float32"] and args.db == "/tmp/x.json"
    with pytest.raises(SystemExit):
        p.parse_args(["--sizes", "4", "--strategies", "bogus"])
    with pytest.raises(SystemExit):
        p.parse_args([])


def test_subcommand_registration():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd")
    tune_mod.add_subcommand(sub)
    args = p.parse_args(["tune", "--sizes", "1024", "--dtype", "float32", "float64"])
    assert args.func is tune_mod.run_cli and args.dtype == ["float32", "float64"]


def test_cli_tune_subcommand(capsys):
    cli = importlib.import_module("tiled_matmul.cli")
    with pytest.raises(SystemExit) as exc:
        cli.main(["tune", "--help"])
    assert exc.value.code == 0
    assert "--sizes" in capsys.readouterr().out


#: every size class a dimension falls in: the GEMV bounds (8, 9), the tile sizes and one past them,
#: and the heuristic's K thresholds (GEMV_MIN_K, HALF_TMA_MIN_K, HALF_SPLIT_MIN_K) on either side
_EDGE_DIMS = (1, 2, 3, 7, 8, 9, 63, 100, 127, 128, 255, 256, 511, 512, 1000, 4097)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_the_heuristic_gives_every_shape_a_valid_config(dtype):
    """No shape makes the fallback raise, and each pick validates for the dtype on the H100
    stand-in (a KeyError once hid here: float32 2 x 4096 x 100 asked gemv_xb for K groups' one-group
    fallback that only M = 1 and 4 have)."""
    import itertools

    from tiled_matmul.device import H100_LIMITS
    from tiled_matmul.heuristic import recommend

    for M, N, K in itertools.product(_EDGE_DIMS, repeat=3):
        name, params = recommend(M, N, K, dtype, sms=132)
        tm.STRATEGIES[name].make_config(**params).validate(H100_LIMITS, dtype)
    assert recommend(2, 4096, 100, "float32", sms=132) == ("gemv_xb", {"mt": 2})
    assert recommend(8, 4096, 100, "float32", sms=132) == ("gemv_xb", {"mt": 8, "unroll": 4})


def test_transposed_kernel_computes_c_from_its_transpose(monkeypatch):
    """TransposedKernel's glue on NumPy stand-ins (no GPU): `inner` is handed B^T and A^T (views)
    and a scratch C^T; C, fresh or the caller's, is C^T's transpose. Host operands, and every
    call without a GPU, go to `plain`."""
    import types

    from tiled_matmul import api

    calls = []

    class Inner:
        def __call__(self, a, b, out=None):
            calls.append((a.shape, b.shape, a.flags.f_contiguous, b.flags.f_contiguous, out.shape))
            np.matmul(a, b, out=out)

    class Plain:
        strategy, config = "plain-strategy", "plain-config"

        def _run(self, da, db, dout, dt):
            return "plain"

    monkeypatch.setattr(api, "cupy_bindings", lambda: types.SimpleNamespace(cupy=np))
    k = api.TransposedKernel(Inner(), Plain())
    assert (k.strategy, k.config) == ("plain-strategy", "plain-config")  # what the general path reads
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((37, 11)), rng.standard_normal((11, 5))
    c = k._launch_fast(a, b, None, 37, 5, 11, 0, None)
    assert c.shape == (37, 5) and c.flags.c_contiguous and np.allclose(c, a @ b)
    out = np.full((37, 5), np.nan)
    assert k._launch_fast(a, b, out, 37, 5, 11, 0, None) is out and np.allclose(out, a @ b)
    assert calls == [((5, 11), (11, 37), True, True, (5, 37))] * 2
    host = types.SimpleNamespace(on_host=True)
    assert k._run(host, host, None, None) == "plain"
    real = tm.kernel("auto").kernel_for(16337, 20, 13807, "float32", device=0)
    assert real.source() == real.plain.source()  # what kernel_for's users read: the general path's kernel
    assert real.launch_dims(16337, 20) == real.plain.launch_dims(16337, 20)
