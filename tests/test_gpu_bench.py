"""`tiled-matmul bench` and `explain` on a real GPU (marked `gpu`; skipped without a device)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import bench, cli, measure, report
from tiled_matmul.analysis import explain

pytestmark = pytest.mark.gpu

SIZES = [(128, 128, 128), (200, 150, 100)]


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    code = cli.main(["bench", "--quick", "--sizes", "128,200x150x100", "--tile-size", "256", "--repeat", "4",
                     "--out", str(out)])
    return code, out


def test_quick_bench_writes_json_csv_png(quick_run):
    code, out = quick_run
    assert code == 0
    for name in ("bench.json", "bench.csv", "bench.md", "ladder.png", "tiles.png"):
        assert (out / name).is_file(), name
    for name in ("ladder.png", "tiles.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_json_and_csv_rows_agree(quick_run):
    _, out = quick_run
    data = json.loads((out / "bench.json").read_text())
    rows = report.read_csv(out / "bench.csv")
    assert len(rows) == len(data["records"]) > 0
    for rec, row in zip(data["records"], rows):
        for key in ("study", "strategy", "config", "shape", "status", "M", "N", "K", "repeats"):
            assert row[key] == str(rec[key]), key
        assert float(row["median_ms"]) == pytest.approx(rec["median_ms"])
        assert float(row["tflops"]) == pytest.approx(rec["tflops"])


def test_every_row_validated_and_timed(quick_run):
    _, out = quick_run
    res = bench.BenchResult.from_dict(json.loads((out / "bench.json").read_text()))
    assert res.meta["tf32"] == "off" and "TF32 off" in res.meta["cublas"]
    ladder = res.ladder()
    assert {r.shape for r in ladder} == set(SIZES)
    for shape in SIZES:
        names = [r.strategy for r in ladder if r.shape == shape]
        # every registered float32 strategy this GPU runs (not wgmma off Hopper), auto, cuBLAS
        assert names == [*(n for n, s in tm.STRATEGIES.items() if s.runs_on() and s.supports("float32")),
                         bench.AUTO, bench.CUBLAS]
    for r in res.records:
        assert r.status == "ok", r
        assert r.rel_err is not None and r.rel_err <= r.tol
        assert 1 <= r.repeats <= 4
        M, N, K = r.shape
        assert r.tflops == pytest.approx(2 * M * N * K / (r.median_ms * 1e-3) / 1e12)
        assert r.min_ms <= r.median_ms <= r.max_ms
    for r in ladder:
        if r.strategy == "naive":
            assert r.speedup_vs_naive == pytest.approx(1.0)
        if r.strategy == bench.CUBLAS:
            assert r.pct_cublas == pytest.approx(100.0)
    tiles = res.tiles()
    assert {r.shape for r in tiles} == {(256, 256, 256)}
    assert sorted(int(r.config.split("=")[1]) for r in tiles if r.strategy == "smem_tiled") == [8, 16, 32]
    assert all(r.threads_per_block for r in tiles if r.strategy != bench.CUBLAS)


def test_a_failed_validation_is_reported_and_not_timed():
    calls = []

    def broken(a, b, c):
        calls.append(1)
        c.fill(0)

    res = bench.run(strategies=["naive"], sizes=[(64, 64, 64)], repeat=3, tile_study=False,
                    extra_rows=[bench.Row(bench.LADDER, "broken", broken)])
    by = {r.strategy: r for r in res.records}
    assert by["naive"].ok and by[bench.CUBLAS].ok
    bad = by["broken"]
    assert bad.status == "failed" and "validation failed" in bad.message
    assert bad.median_ms is None and bad.repeats == 0 and bad.pct_cublas is None
    assert len(calls) == 1  # the validation call only: nothing was timed


def test_tf32_row_is_explicit_and_restored():
    from cupy._core import _routines_linalg as rl

    before = rl.get_compute_type(np.float32)
    res = bench.run(strategies=["smem_tiled"], sizes="512", repeat=3, tf32=True, tile_study=False)
    assert rl.get_compute_type(np.float32) == before
    names = [r.strategy for r in res.records]
    assert names == ["smem_tiled", bench.CUBLAS, measure.CUBLAS_TF32]
    tf32 = res.records[-1]
    assert tf32.ok and tf32.tol == measure.TF32_TOL
    assert res.meta["tf32_row"] is True and "TF32 off" in res.meta["cublas"]


def test_explain_measures_beside_the_roofline():
    m = explain("smem_tiled", (1024, 1024, 1024), tile=32, repeat=5)
    assert m["device_is_real"]
    assert m["registers_source"].startswith("compiled kernel") and m["registers"] > 0
    assert m["bandwidth_gbs"] > 100
    assert m["peak_tflops"] > 1
    assert m["measured_ms"] > 0
    assert m["measured_ms"] >= m["roofline_ms"]  # the roofline is a lower bound on time
    assert 0 < m["pct_of_roofline"] <= 100
    assert m["reduction"] == 32.0  # the model does not depend on the device


def test_bench_runs_a_block_per_precision_request(tmp_path):
    res = bench.run(strategies=["register_blocked", "tensor_core", "auto"], sizes="1024", repeat=3,
                    tile_study=False, precision="ieee,tf32")
    rows = {(r.request, r.strategy): r for r in res.records}
    assert res.meta["precision"] == ["ieee", "tf32"]
    assert rows[("ieee", "tensor_core")].status == measure.SKIPPED
    assert rows[("tf32", "register_blocked")].status == measure.SKIPPED
    assert rows[("tf32", "tensor_core")].ok and rows[("tf32", "tensor_core")].precision == "tf32"
    assert rows[("ieee", "register_blocked")].ok and rows[("ieee", "auto")].precision == "ieee"
    assert rows[("tf32", "auto")].ok and rows[("tf32", "auto")].precision == "tf32"
    assert (("ieee", bench.CUBLAS) in rows and ("tf32", measure.CUBLAS_TF32) in rows
            and ("tf32", bench.CUBLAS) not in rows)
    tc, ref = rows[("tf32", "tensor_core")], rows[("tf32", measure.CUBLAS_TF32)]
    assert tc.pct_cublas == pytest.approx(100.0 * ref.median_ms / tc.median_ms)
    assert cli.main(["bench", "--strategies", "tensor_core,register_blocked", "--sizes", "256", "--precision",
                     "tf32", "--repeat", "3", "--no-tile-study", "--no-plots", "--out", str(tmp_path)]) == 0
