"""Precision modes on the CPU: validation, the process default and its environment, the database
keys, kernels per mode, the rendered TF32 split and range guard, the numerics helpers, and the
precision plumbing of bench, tune, explain and the CLI (no GPU needed)."""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import bench, cli, dispatch, measure, numerics, precision, report, tunedb, tuner
from tiled_matmul.measure import CUBLAS, CUBLAS_TF32, Record

from .test_measure import numpy_cupy  # noqa: F401  (the numpy stand-in for CuPy, a fixture)

TENSOR_CORE_RUNGS = ("tensor_core", "wgmma", "wgmma_split_k")
ALLOWED = ("'auto'", "'ieee'", "'tf32x3'", "'tf32'")


@pytest.fixture(autouse=True)
def _clean_default(monkeypatch):
    """Each test starts from the environment's default with neither variable set, and leaves the
    cached process default as it found it."""
    monkeypatch.delenv(precision.ENV, raising=False)
    monkeypatch.delenv(precision.TENSOR_CORES_ENV, raising=False)
    monkeypatch.setattr(precision, "_default", None)


# ---------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["bogus", "TF32", "", "fp32"])
def test_an_unknown_request_is_a_value_error_naming_the_allowed_ones(bad):
    with pytest.raises(ValueError) as exc:
        precision.check(bad)
    assert all(name in str(exc.value) for name in ALLOWED) and repr(bad) in str(exc.value)


@pytest.mark.parametrize("bad", [None, 3, b"ieee", ["ieee"]])
def test_a_non_string_request_is_a_type_error(bad):
    with pytest.raises(TypeError, match="precision must be a string"):
        precision.check(bad)


@pytest.mark.parametrize("request_", precision.REQUESTS)
def test_float32_takes_every_request(request_):
    assert precision.check(request_, "float32") == request_


@pytest.mark.parametrize("request_", precision.REQUESTS)
def test_float64_takes_only_auto_and_ieee(request_):
    if request_ in ("auto", "ieee"):
        assert precision.check(request_, "float64") == request_
        return
    with pytest.raises(ValueError, match="'auto' or 'ieee'") as exc:
        precision.check(request_, "float64")
    assert repr(request_) in str(exc.value)


def test_matmul_and_kernel_refuse_a_bad_precision_before_anything_runs():
    a = np.ones((4, 4), np.float32)
    with pytest.raises(ValueError, match="'tf32x3'"):
        tm.matmul(a, a, precision="fast")
    with pytest.raises(ValueError, match="'tf32x3'"):
        tm.kernel("auto", precision="fast")
    with pytest.raises(TypeError, match="string"):
        tm.kernel("wgmma", precision=1)


# ---------------------------------------------------------------------------------------------
# the process default and the environment
# ---------------------------------------------------------------------------------------------
def test_the_default_is_auto():
    assert tm.get_precision() == "auto"


def test_set_precision_returns_the_previous_default_and_none_restores_the_environments(monkeypatch):
    assert tm.set_precision("ieee") == "auto"
    assert tm.get_precision() == "ieee"
    assert tm.set_precision("tf32") == "ieee"
    monkeypatch.setenv(precision.ENV, "tf32x3")
    assert tm.set_precision(None) == "tf32"
    assert tm.get_precision() == "tf32x3"  # the environment's, read again


def test_set_precision_checks_its_argument_and_keeps_the_default_on_error():
    tm.set_precision("ieee")
    with pytest.raises(ValueError, match="'tf32x3'"):
        tm.set_precision("tf64")
    assert tm.get_precision() == "ieee"


@pytest.mark.parametrize("value, want", [("tf32", "tf32"), (" IEEE ", "ieee"), ("auto", "auto"), ("", "auto")])
def test_the_environment_variable_sets_the_default(monkeypatch, value, want):
    monkeypatch.setenv(precision.ENV, value)
    tm.set_precision(None)
    assert tm.get_precision() == want


def test_a_bad_environment_value_names_the_variable_and_the_allowed_values(monkeypatch):
    monkeypatch.setenv(precision.ENV, "fastest")
    with pytest.raises(ValueError) as exc:
        tm.get_precision()
    assert precision.ENV in str(exc.value) and "'fastest'" in str(exc.value) and "'tf32x3'" in str(exc.value)


def test_the_environment_is_read_once_then_cached(monkeypatch):
    monkeypatch.setenv(precision.ENV, "ieee")
    assert tm.get_precision() == "ieee"
    monkeypatch.setenv(precision.ENV, "tf32")
    assert tm.get_precision() == "ieee"


@pytest.mark.parametrize("value", ["0", "false", "off"])
def test_the_deprecated_tensor_cores_alias_warns_and_means_ieee(monkeypatch, value):
    monkeypatch.setenv(precision.TENSOR_CORES_ENV, value)
    with pytest.warns(DeprecationWarning, match=precision.ENV):
        assert tm.get_precision() == "ieee"


def test_the_precision_variable_wins_over_the_deprecated_alias(monkeypatch, recwarn):
    monkeypatch.setenv(precision.TENSOR_CORES_ENV, "0")
    monkeypatch.setenv(precision.ENV, "tf32")
    assert tm.get_precision() == "tf32"
    assert not [w for w in recwarn if issubclass(w.category, DeprecationWarning)]


def test_tensor_cores_on_is_no_alias(monkeypatch, recwarn):
    monkeypatch.setenv(precision.TENSOR_CORES_ENV, "1")
    assert tm.get_precision() == "auto"
    assert not [w for w in recwarn if issubclass(w.category, DeprecationWarning)]


def test_resolve_uses_the_default_only_when_none_is_given():
    tm.set_precision("ieee")
    assert precision.resolve(None, "float32") == "ieee"
    assert precision.resolve("tf32", "float32") == "tf32"
    tm.set_precision("tf32")
    assert precision.resolve(None, "float64") == "auto"  # the default governs float32 only


# ---------------------------------------------------------------------------------------------
# modes per request
# ---------------------------------------------------------------------------------------------
def test_auto_runs_ieee_below_the_tf32x3_depth_and_prefers_tf32x3_from_it():
    k = precision.TF32X3_MIN_K
    assert precision.modes_for("auto", "float32", k - 1) == ("ieee",)
    assert precision.modes_for("auto", "float32", 1) == ("ieee",)
    assert precision.modes_for("auto", "float32", k) == ("tf32x3", "ieee")
    assert precision.modes_for("auto", "float32", 65536) == ("tf32x3", "ieee")


@pytest.mark.parametrize("mode", precision.MODES)
@pytest.mark.parametrize("K", [1, precision.TF32X3_MIN_K - 1, 4096])
def test_an_explicit_mode_allows_only_itself(mode, K):
    assert precision.modes_for(mode, "float32", K) == (mode,)


@pytest.mark.parametrize("request_", ["auto", "ieee"])
def test_float64_computes_ieee(request_):
    assert precision.modes_for(request_, "float64", 4096) == ("ieee",)


# ---------------------------------------------------------------------------------------------
# database keys
# ---------------------------------------------------------------------------------------------
def test_database_keys_name_every_request_but_auto():
    keys = {r: tunedb.bucket(4096, 4096, 4096, "float32", r) for r in precision.REQUESTS}
    assert keys["auto"] == "float32/4096x4096x4096"
    for r in precision.MODES:
        assert keys[r] == f"float32:{r}/4096x4096x4096"
    assert len(set(keys.values())) == len(precision.REQUESTS)
    assert tunedb.bucket(3001, 2999, 3007, "float32", "tf32") == "float32:tf32/3072x3072x3072/ragged"
    assert tunedb.bucket(100, 100, 100, "float64", "ieee") == "float64:ieee/128x128x128"


def _tune_result(shape, request, strategy, params) -> tuner.TuneResult:
    """A TuneResult as tune() makes it, with a best record measured by no one."""
    M, N, K = shape
    cfg = tm.STRATEGIES[strategy].make_config(**params)
    best = Record("tune", strategy, measure.config_label(cfg), M, N, K, "float32", median_ms=1.0, min_ms=1.0,
                  iqr_ms=0.0, repeats=3, tflops=1.0, precision=cfg.precision, request=request)
    ident = tunedb.device_id()
    return tuner.TuneResult(shape, "float32", ident.name, ident.cc, tunedb.bucket(M, N, K, "float32", request), best,
                            [best], precision=request)


def test_a_tuned_entry_is_found_under_its_own_request_only(fresh_tunedb):
    shape = (2048, 2048, 2048)
    result = _tune_result(shape, "tf32", "tensor_core", {"passes": 1, "bm": 64})
    entry = result.entry()
    assert (entry["request"], entry["precision"]) == ("tf32", "tf32")
    tunedb.save_entries({result.bucket: entry}, tunedb.device_id(), fresh_tunedb)
    dispatch.clear_cache()
    found = dispatch.choose(*shape, "float32", precision="tf32")
    assert (found.source, found.strategy, found.params["passes"], found.params["bm"]) == ("user-db", "tensor_core", 1, 64)
    for other in ("auto", "tf32x3", "ieee"):
        assert dispatch.choose(*shape, "float32", precision=other).source != "user-db"


def test_an_auto_entry_computing_a_mode_the_shape_does_not_allow_is_not_used(fresh_tunedb):
    # tf32x3 saved under the auto key of a bucket that holds K = 124 (below TF32X3_MIN_K) too
    result = _tune_result((1024, 1024, 128), "auto", "tensor_core", {})
    tunedb.save_entries({result.bucket: result.entry()}, tunedb.device_id(), fresh_tunedb)
    dispatch.clear_cache()
    assert dispatch.choose(1024, 1024, 128, "float32", precision="auto").source == "user-db"
    low = dispatch.choose(1024, 1024, 124, "float32", precision="auto")
    assert low.source != "user-db"
    assert tm.STRATEGIES[low.strategy].make_config(**low.params).precision == "ieee"


# ---------------------------------------------------------------------------------------------
# kernels per mode
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", TENSOR_CORE_RUNGS)
def test_tensor_core_rungs_take_tf32_as_one_pass_and_tf32x3_as_three(name):
    assert tm.kernel(name, precision="tf32").config.passes == 1
    assert tm.kernel(name, precision="tf32").config.precision == "tf32"
    assert tm.kernel(name, precision="tf32x3").config.passes == 3
    assert tm.kernel(name).config.precision == "tf32x3"
    assert tm.kernel(name, precision="auto").config == tm.kernel(name).config
    with pytest.raises(ValueError, match="'tf32x3' or 'tf32'"):
        tm.kernel(name, precision="ieee")


@pytest.mark.parametrize("name", ["naive", "register_blocked", "warp_tiled", "split_k", "gemv_xb"])
def test_ffma_rungs_compute_ieee_only(name):
    assert tm.kernel(name, precision="ieee").config.precision == "ieee"
    for mode in ("tf32", "tf32x3"):
        with pytest.raises(ValueError) as exc:
            tm.kernel(name, precision=mode)
        assert repr(name) in str(exc.value) and "'ieee'" in str(exc.value) and repr(mode) in str(exc.value)


def test_auto_kernels_are_kept_per_request():
    k = tm.kernel("auto", precision="tf32")
    assert k.precision == "tf32" and tm.kernel("auto", precision="tf32") is k
    assert tm.kernel("auto").precision is None
    choice = k.resolve(4096, 4096, 4096)
    assert tm.STRATEGIES[choice.strategy].make_config(**choice.params).precision == "tf32"


def test_named_kernels_in_a_mode_are_kept_per_strategy_mode_and_params():
    """kernel(strategy, precision=...) is one dict lookup after the first call (the host path of
    tm.matmul(..., strategy, precision=...)): the same object for the same request, the mode's
    config, other params or modes their own objects; bad requests still raise every time."""
    x3 = tm.kernel("wgmma_tma_tf32", precision="tf32x3")
    one = tm.kernel("wgmma_tma_tf32", precision="tf32")
    assert tm.kernel("wgmma_tma_tf32", precision="tf32x3") is x3 and tm.kernel("wgmma_tma_tf32", precision="tf32") is one
    assert x3.config.passes == 3 and one.config.passes == 1
    assert one.config == tm.kernel("wgmma_tma_tf32", passes=1).config
    deep = tm.kernel("wgmma_tma_tf32", precision="tf32", stages=5)
    assert deep is not one and deep.config.stages == 5 and deep.config.passes == 1
    for _ in range(2):
        with pytest.raises(ValueError, match="'ieee'"):
            tm.kernel("wgmma_tma_tf32", precision="ieee")
        with pytest.raises(TypeError):
            tm.kernel("wgmma_tma_tf32", precision="tf32", stages=[6])


# ---------------------------------------------------------------------------------------------
# the rendered split and range guard
# ---------------------------------------------------------------------------------------------
def _round_tf32(src: str) -> str:
    m = re.search(r"unsigned round_tf32\(float x\) \{(.*?)\n\}", src, re.S)
    assert m, "round_tf32 is not in the rendered source"
    return m.group(1)


@pytest.mark.parametrize("passes", [1, 3])
@pytest.mark.parametrize("name", TENSOR_CORE_RUNGS)
def test_the_split_rounds_to_nearest(name, passes):
    src = tm.source(name, passes=passes)
    body = _round_tf32(src)
    assert "+ 0x1000u" in body and "0xffffe000u" in body  # add half the dropped weight, then clear
    assert "cvt.rz" not in src  # no truncating conversion anywhere
    split = re.search(r"void split_tf32\(float x, unsigned& big, unsigned& small\) \{(.*?)\n\}", src, re.S)
    assert split and split.group(1).count("round_tf32(") == 2  # both parts rounded


@pytest.mark.parametrize("passes", [1, 3])
@pytest.mark.parametrize("name", TENSOR_CORE_RUNGS)
def test_every_tensor_core_rendering_keeps_the_range_guard(name, passes):
    src = tm.source(name, passes=passes)
    assert "struct RangeGuard" in src and "RangeGuard guard;" in src
    assert re.search(r"split_tf32\([^;]*, guard\);", src), "operands are split without the guard seeing them"
    assert re.search(r"bool bad = guard\.out\(\)", src), "the guard's verdict is never read"
    assert "exact_tile(" in src


def _mma_calls(src: str) -> list[str]:
    return re.findall(r"(?:wgmma_tf32<\d>|mma_tf32)\([^;]*\);", src)


def test_one_pass_wgmma_renders_no_small_part_mmas():
    three = _mma_calls(tm.source("wgmma", passes=3))
    one = _mma_calls(tm.source("wgmma", passes=1))
    small = re.compile(r"frag\[1\]|small_desc")
    assert any(small.search(c) for c in three)  # the check sees small-part MMAs where they exist
    assert one and not any(small.search(c) for c in one)


def test_one_pass_tensor_core_renders_no_small_part_mmas():
    three = _mma_calls(tm.source("tensor_core", passes=3))
    one = _mma_calls(tm.source("tensor_core", passes=1))
    assert any("_small" in c for c in three)
    assert one and not any("_small" in c for c in one)


def test_three_pass_wgmma_issues_small_part_mmas_before_big_ones():
    calls = _mma_calls(tm.source("wgmma", passes=3))
    kinds = ["small" if ("frag[1]" in c or "small_desc" in c) else "big" for c in calls]
    assert "small" in kinds and kinds.index("big") > max(i for i, k in enumerate(kinds) if k == "small")


# ---------------------------------------------------------------------------------------------
# numerics helpers
# ---------------------------------------------------------------------------------------------
def test_bound_values():
    u = 2.0 ** -24
    assert numerics.bound("ieee", 1) == pytest.approx(u / (1 - u), rel=1e-15)
    assert numerics.bound("ieee", 1000) == pytest.approx(1000 * u / (1 - 1000 * u), rel=1e-15)
    assert numerics.bound("tf32x3", 32) == pytest.approx(3 * 2.0 ** -22 + (12 + 1 + 2) * 2.0 ** -23, rel=1e-15)
    assert numerics.bound("tf32", 32) == pytest.approx(2.0 ** -10 + 2.0 ** -22 + (4 + 1 + 2) * 2.0 ** -23, rel=1e-15)
    assert numerics.bound("ieee", 0) == numerics.bound("ieee", 1)  # K = 0 bounds like K = 1


def test_bounds_grow_with_k_and_order_the_modes():
    for mode in precision.MODES:
        vals = [numerics.bound(mode, k) for k in numerics.KS]
        assert vals == sorted(vals) and len(set(vals)) == len(vals)
    for k in (1, 8, 100, 1024):  # (at very large K the worst-case truncation terms, 3K/8 MMAs
        # against K/8, make the stated tf32x3 bound the larger one)
        assert numerics.bound("tf32x3", k) < numerics.bound("tf32", k)
    assert numerics.bound("ieee", 1) < numerics.bound("tf32x3", 1)


def test_bound_refuses_auto_and_unknown_modes():
    for bad in ("auto", "fp32"):
        with pytest.raises(ValueError, match="'ieee', 'tf32x3' or 'tf32'"):
            numerics.bound(bad, 8)


def test_componentwise_error_by_hand():
    a = np.array([[1.0, 2.0], [1.0, -1.0], [0.0, 0.0]], np.float32)
    b = np.array([[3.0], [4.0]], np.float32)
    # row 0: ref 11, |a||b| 11; row 1: ref -1, |a||b| 7; row 2: ref 0, |a||b| 0 (left out)
    c = np.array([[11.5], [-1.0], [5.0]], np.float32)
    assert numerics.componentwise_error(c, a, b) == pytest.approx(0.5 / 11)
    c = np.array([[11.0], [0.0], [5.0]], np.float32)  # the error relative to |a||b| = 7, not to |ref| = 1
    assert numerics.componentwise_error(c, a, b) == pytest.approx(1.0 / 7)
    assert numerics.componentwise_error(a @ b, a, b) == 0.0


def test_componentwise_error_leaves_out_non_finite_references_and_flags_a_nan_result():
    a = np.array([[np.inf, 1.0], [1.0, 1.0]], np.float32)
    b = np.array([[1.0], [1.0]], np.float32)
    c = np.array([[0.0], [2.0]], np.float32)  # row 0's reference is Inf: not counted
    assert numerics.componentwise_error(c, a, b) == 0.0
    c = np.array([[np.inf], [np.nan]], np.float32)  # a NaN where the reference is 2
    with np.errstate(invalid="ignore"):  # Inf - Inf in the left-out row
        assert numerics.componentwise_error(c, a, b) == np.inf
    zero = np.zeros((2, 2), np.float32)
    assert numerics.componentwise_error(np.ones((2, 2), np.float32), zero, zero) == 0.0


def test_nonfinite_mask():
    c = np.array([1.0, np.nan, np.inf, -np.inf], np.float32)
    assert numerics.nonfinite_mask(c).tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("name", list(numerics.DATASETS))
def test_every_data_set_makes_float32_operands_of_the_right_shapes(name):
    a, b = numerics.make(name, 6, 5, 7, seed=3)
    assert (a.shape, b.shape, a.dtype, b.dtype) == ((6, 7), (7, 5), np.float32, np.float32)
    a2, b2 = numerics.make(name, 6, 5, 7, seed=3)
    np.testing.assert_array_equal(a, a2)  # a seed makes the same data (NaN positions included)
    np.testing.assert_array_equal(b, b2)


def test_data_sets_have_their_character():
    M = N = 64
    K = 100
    a, b = numerics.make("small integers", M, N, K)
    assert np.all(a == np.round(a)) and np.abs(a).max() <= 64 and np.abs(b).max() <= 64
    a, _ = numerics.make("subnormal a~1e-40", M, N, K)
    nz = np.abs(a[a != 0])
    assert nz.size and nz.max() < np.finfo(np.float32).tiny
    a, _ = numerics.make("NaN and Inf", 512, N, K)
    assert np.isnan(a).any() and np.isposinf(a).any() and np.isneginf(a).any()
    a, b = numerics.make("a~3e38, b~1e-3", M, N, K)
    assert np.isfinite(a).all() and np.abs(a).max() > 1e38 and np.abs(b).max() < 1e-2
    a, _ = numerics.make("cancellation", M, N, K)
    assert np.abs(a[0] + a[1]).max() < 1e-3 < np.abs(a[0]).max()
    assert numerics.shape_for(65536) == (256, 256, 65536) and numerics.shape_for(8) == (512, 512, 8)


# ---------------------------------------------------------------------------------------------
# bench
# ---------------------------------------------------------------------------------------------
def _by_name(rows):
    return {r.strategy: r for r in rows}


def test_bench_rows_of_the_tf32_request():
    rows = _by_name(bench.request_rows("ladder", ["register_blocked", "wgmma", "auto"], "float32", "tf32"))
    assert rows["register_blocked"].skip and "'tf32'" in rows["register_blocked"].skip
    assert "ieee" in rows["register_blocked"].skip
    assert rows["wgmma"].config.passes == 1 and not rows["wgmma"].skip
    assert rows["wgmma"].tol == measure.TF32_TOL and rows["auto"].tol == measure.TF32_TOL
    assert CUBLAS_TF32 in rows and CUBLAS not in rows  # TF32 cuBLAS is the reference of tf32
    assert {r.request for r in rows.values()} == {"tf32"}


@pytest.mark.parametrize("request_", ["ieee", "tf32x3", "auto"])
def test_bench_rows_of_the_other_requests_use_fp32_cublas(request_):
    rows = _by_name(bench.request_rows("ladder", ["register_blocked", "wgmma", "auto"], "float32", request_))
    assert CUBLAS in rows and CUBLAS_TF32 not in rows
    assert rows[CUBLAS].precision == "ieee" and rows[CUBLAS].tol is None
    if request_ == "ieee":
        assert rows["wgmma"].skip and not rows["register_blocked"].skip
    elif request_ == "tf32x3":
        assert rows["register_blocked"].skip and rows["wgmma"].config.passes == 3
    else:
        assert not rows["register_blocked"].skip and not rows["wgmma"].skip
    with_tf32 = _by_name(bench.request_rows("ladder", ["wgmma"], "float32", request_, tf32=True))
    assert CUBLAS in with_tf32 and CUBLAS_TF32 in with_tf32


def test_bench_leaves_out_strategies_that_do_not_compute_the_dtype():
    rows = bench.request_rows("ladder", ["wgmma", "dmma", "register_blocked"], "float64", "ieee")
    assert [r.strategy for r in rows] == ["dmma", "register_blocked", CUBLAS]


@pytest.mark.parametrize("kwargs, exc, needle", [
    (dict(precision="tf32", dtype="float64"), ValueError, "'auto' or 'ieee'"),
    (dict(precision="ieee,fast"), ValueError, "'tf32x3'"),
    (dict(precision=[]), ValueError, "no precision"),
    (dict(precision=3), TypeError, "string"),
])
def test_bench_run_checks_the_precision_before_anything(kwargs, exc, needle):
    with pytest.raises(exc, match=needle):
        bench.run(sizes="64", **kwargs)


def test_bench_precisions_default_to_the_process_default_in_order_without_repeats():
    assert bench.resolve_precisions(None) == ["auto"]
    tm.set_precision("tf32x3")
    assert bench.resolve_precisions(None) == ["tf32x3"]
    assert bench.resolve_precisions("tf32, ieee,tf32") == ["tf32", "ieee"]


def test_auto_mode_names_what_auto_computes(fresh_tunedb):
    assert bench.auto_mode(1024, 1024, 64, "float32", "auto") == "ieee"  # below TF32X3_MIN_K
    assert bench.auto_mode(4096, 4096, 4096, "float32", "tf32") == "tf32"
    assert bench.auto_mode(4096, 4096, 4096, "float32", "ieee") == "ieee"
    assert bench.auto_mode(4096, 4096, 4096, "float64", "auto") == "ieee"


def test_a_skipped_row_is_recorded_and_never_called(numpy_cupy):  # noqa: F811
    row = measure.skipped_row("ladder", "register_blocked", tm.STRATEGIES["register_blocked"].default, "tf32",
                              "register_blocked computes precision ieee only, not 'tf32'")
    sets = measure.make_inputs((8, 8, 8), "float32")
    rec = measure.measure(row, sets, None, repeat=3)  # calling the row would raise
    assert rec.status == measure.SKIPPED and rec.message == row.skip and not rec.ok
    assert (rec.request, rec.precision, rec.median_ms) == ("tf32", "", None)


def _rec(strategy, request, ms, mode, status=measure.OK, message=""):
    return Record("ladder", strategy, "", 1024, 1024, 1024, "float32", status=status,
                  median_ms=ms if status == measure.OK else None, repeats=3, tflops=1.0, precision=mode,
                  request=request, message=message)


def _two_request_result() -> bench.BenchResult:
    recs = [_rec("naive", "ieee", 40.0, "ieee"), _rec("register_blocked", "ieee", 2.0, "ieee"),
            _rec(CUBLAS, "ieee", 1.0, "ieee"),
            _rec("register_blocked", "tf32", None, "", measure.SKIPPED, "register_blocked computes ieee only"),
            _rec("wgmma", "tf32", 0.5, "tf32"), _rec("auto", "tf32", 0.4, "tf32"), _rec(CUBLAS_TF32, "tf32", 0.25, "tf32")]
    bench._derive(recs)
    return bench.BenchResult({"device": "test GPU", "dtype": "float32", "precision": ["ieee", "tf32"],
                              "cublas": "cupy.matmul, TF32 off; TF32 for precision tf32"}, recs)


def test_ratios_are_against_the_reference_of_the_same_request():
    by = {(r.strategy, r.request): r for r in _two_request_result().records}
    assert by[("register_blocked", "ieee")].pct_cublas == pytest.approx(50.0)  # FP32 cuBLAS 1.0 ms
    assert by[("wgmma", "tf32")].pct_cublas == pytest.approx(50.0)  # TF32 cuBLAS 0.25 ms, not 1.0
    assert by[(CUBLAS_TF32, "tf32")].pct_cublas == pytest.approx(100.0)
    assert by[("wgmma", "tf32")].speedup_vs_naive == pytest.approx(80.0)
    assert by[("register_blocked", "tf32")].pct_cublas is None


def test_tables_show_each_rows_precision_and_request(tmp_path):
    from rich.console import Console

    res = _two_request_result()
    console = Console(width=220, record=True, file=open(os.devnull, "w"))
    console.print(report.ladder_table(res))
    text = console.export_text()
    assert "precision" in text and "request" in text and "SKIPPED" in text
    assert "register_blocked computes ieee only" in text
    wgmma_line = next(line for line in text.splitlines() if "wgmma" in line)
    assert "tf32" in wgmma_line
    md = report.markdown_tables(res)
    assert "| 1024³ | wgmma |  | tf32 | tf32 |" in md
    assert "| 1024³ | register_blocked |  | – | tf32 | skipped:" in md
    assert "precision ieee, tf32" in report.header_line(res)
    paths = report.write_outputs(res, tmp_path, with_plots=True)
    data = json.loads(paths["json"].read_text())
    assert [(r["precision"], r["request"]) for r in data["records"]] == [(r.precision, r.request) for r in res.records]
    assert paths["ladder_png"].stat().st_size > 5000


# ---------------------------------------------------------------------------------------------
# tune
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("modes, want", [
    (("tf32",), {"tf32"}), (("tf32x3",), {"tf32x3"}), (("ieee",), {"ieee"}), (("tf32x3", "ieee"), {"tf32x3", "ieee"}),
])
def test_tune_candidates_compute_the_requested_modes(modes, want):
    space = tuner.search_space(None, "float32", None, modes)
    assert {cfg.precision for _, cfg in space} == want
    assert len(space) == len({(e.name, c) for e, c in space})
    for entry, cfg in space:
        assert cfg.precision in modes and cfg.is_valid(None, "float32")
        if cfg.TENSOR_CORES:
            assert cfg.passes == precision.PASSES[cfg.precision]


def test_tune_tf32_tries_every_tensor_core_config_in_one_pass():
    three = [(e.name, c.replace(passes=1)) for e, c in tuner.search_space(None, "float32", None, ("tf32x3",))]
    one = [(e.name, c) for e, c in tuner.search_space(None, "float32", None, ("tf32",))]
    assert set(three) <= set(one) and one
    # only wgmma_tma_tf32 has tf32 tiles too wide for tf32x3's registers (accumulators alone)
    extra = {pair for pair in one if pair not in set(three)}
    assert extra and {name for name, _ in extra} == {"wgmma_tma_tf32"}
    assert all(not c.replace(passes=3).is_valid(None, "float32") for _, c in extra)


@pytest.mark.parametrize("kwargs, needle", [
    (dict(dtype="float64", precision="tf32"), "'auto' or 'ieee'"),
    (dict(precision="fast"), "'tf32x3'"),
    (dict(strategies=["register_blocked"], precision="tf32"), "no valid config"),
    (dict(strategies=["wgmma"], precision="ieee"), "no valid config"),
])
def test_tune_refuses_a_request_before_needing_a_gpu(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        tm.tune(256, 256, 256, **kwargs)


# ---------------------------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------------------------
def test_bench_and_tune_parse_a_precision_list():
    p = cli.build_parser()
    assert p.parse_args(["bench", "--precision", "ieee,tf32x3,tf32"]).precision == ["ieee", "tf32x3", "tf32"]
    assert p.parse_args(["bench"]).precision is None
    assert p.parse_args(["tune", "--sizes", "64", "--precision", "auto,tf32"]).precision == ["auto", "tf32"]
    assert p.parse_args(["explain", "wgmma", "--shape", "64", "--precision", "tf32"]).precision == "tf32"


@pytest.mark.parametrize("argv", [
    ["bench", "--precision", "fast"],
    ["bench", "--precision", "ieee,fp16"],
    ["tune", "--sizes", "64", "--precision", "TF32"],
    ["explain", "wgmma", "--shape", "64", "--precision", "ieee,tf32"],
    ["source", "wgmma", "--precision", "x"],
])
def test_a_bad_precision_is_a_usage_error_naming_the_allowed_values(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--precision" in err and "tf32x3" in err and "ieee" in err


@pytest.mark.parametrize("argv", [
    ["bench", "--dtype", "float64", "--precision", "tf32"],
    ["tune", "--sizes", "64", "--dtype", "float32", "float64", "--precision", "auto,tf32x3"],
    ["explain", "smem_tiled", "--shape", "64", "--dtype", "float64", "--precision", "tf32"],
])
def test_float64_with_a_tensor_core_mode_is_a_clear_error(argv, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "float64" in err and "'auto' or 'ieee'" in err and "GPU" not in err


def test_explain_auto_shows_the_choice_for_the_request(capsys, fresh_tunedb):
    assert cli.main(["explain", "--auto", "--shape", "4096", "--precision", "tf32", "--registers", "64",
                     "--json", "--no-measure"]) == 0
    m = json.loads(capsys.readouterr().out)
    assert m["auto"]["request"] == "tf32" and m["auto"]["bucket"] == "float32:tf32/4096x4096x4096"
    assert m["precision"] == "tf32" and m["params"]["passes"] == 1 and m["strategy"] == m["auto"]["strategy"]
    assert cli.main(["explain", "auto", "--shape", "4096x4096x64", "--registers", "64", "--json",
                     "--no-measure"]) == 0
    m = json.loads(capsys.readouterr().out)
    assert m["auto"]["request"] == "auto" and m["precision"] == "ieee"  # K = 64 is below TF32X3_MIN_K


def test_explain_models_a_strategy_in_the_requested_mode(capsys):
    assert cli.main(["explain", "wgmma", "--shape", "4096", "--precision", "tf32", "--registers", "64",
                     "--json", "--no-measure"]) == 0
    m = json.loads(capsys.readouterr().out)
    assert m["params"]["passes"] == 1 and m["precision"] == "tf32" and m["auto"] is None
    assert any("tf32: 1 TF32 MMA per product" in n for n in m["notes"])
    assert cli.main(["explain", "register_blocked", "--shape", "64", "--precision", "tf32"]) == 2
    assert "computes precision 'ieee' only" in capsys.readouterr().err


@pytest.mark.parametrize("argv, needle", [
    (["explain", "--shape", "64"], "or give --auto"),
    (["explain", "wgmma", "--auto", "--shape", "64"], "give no STRATEGY"),
])
def test_explain_needs_a_strategy_or_auto(argv, needle, capsys):
    assert cli.main(argv) == 2
    assert needle in capsys.readouterr().err


def test_source_renders_the_requested_mode(capsys):
    assert cli.main(["source", "wgmma", "--precision", "tf32"]) == 0
    assert capsys.readouterr().out == tm.source("wgmma", passes=1)
    assert cli.main(["source", "wgmma"]) == 0
    assert capsys.readouterr().out == tm.source("wgmma", passes=3)


def test_a_tf32_process_default_leaves_float64_on_auto():
    """The process default governs float32; float64 calls under a tf32 default run "auto" (ieee),
    while an explicit precision="tf32" on float64 is still an error."""
    from tiled_matmul import precision

    previous = precision.set_precision("tf32")
    try:
        assert precision.resolve(None, "float32") == "tf32"
        assert precision.resolve(None, "float64") == "auto"
        with pytest.raises(ValueError, match="float64 products take precision 'auto' or 'ieee'"):
            precision.resolve("tf32", "float64")
    finally:
        precision.set_precision(None if previous == "auto" else previous)


def test_exact64_keeps_float32_subnormals():
    """The float64 copy a reference is computed from keeps subnormal float32 values (CuPy's own
    astype flushes them; the device path goes through the host for that reason)."""
    from tiled_matmul import numerics

    x = np.array([1e-40, -3e-42, 0.0, 1.0], dtype=np.float32)
    y = numerics.exact64(x)
    assert y.dtype == np.float64 and y[0] > 0 and y[1] < 0 and y[2] == 0
    np.testing.assert_array_equal(y, x.astype(np.float64))
