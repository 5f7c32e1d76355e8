"""The command line and the bench plumbing that needs no GPU: parsing, messages, exit codes,
the repeat planner, and the JSON/CSV/PNG writers fed with synthetic records."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tiled_matmul as tm
from tiled_matmul import bench, cli, measure, report

ROOT = Path(__file__).resolve().parent.parent


def run_cli(argv, capsys):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------------------- parsing
@pytest.mark.parametrize(
    "text,sizes",
    [
        ("1024,4096", [(1024, 1024, 1024), (4096, 4096, 4096)]),
        ("3000x2000x1000", [(3000, 2000, 1000)]),
        ("256, 3000x2000x1000", [(256, 256, 256), (3000, 2000, 1000)]),
    ],
)
def test_parse_sizes(text, sizes):
    assert measure.parse_shapes(text) == sizes


@pytest.mark.parametrize("bad", ["", "1024,", "10x20", "abc", "0", "4096,-1"])
def test_parse_sizes_rejects(bad):
    with pytest.raises(ValueError, match="size|sizes"):
        measure.parse_shapes(bad)


def test_parse_set():
    assert cli.parse_set("tile=16") == ("tile", 16)
    assert cli.parse_set(" bm = 64 ") == ("bm", 64)
    for bad in ("tile", "=3", "tile=abc", "tile=1.5", "1x=2"):
        with pytest.raises(argparse.ArgumentTypeError):
            cli.parse_set(bad)


def test_bench_flags_parse():
    args = cli.build_parser().parse_args(
        ["bench", "--strategies", "naive,smem_tiled", "--sizes", "1024,3000x2000x1000", "--dtype", "float64",
         "--repeat", "7", "--quick", "--tf32", "--out", "somewhere", "--tile-size", "512"])
    assert args.strategies == ["naive", "smem_tiled"]
    assert args.sizes == [(1024,) * 3, (3000, 2000, 1000)]
    assert (args.dtype, args.repeat, args.quick, args.tf32, args.out) == ("float64", 7, True, True, "somewhere")
    assert args.tile_size == (512,) * 3
    defaults = cli.build_parser().parse_args(["bench"])
    assert defaults.out == "./tiled-matmul-results"
    assert defaults.strategies is None and defaults.sizes is None and defaults.repeat is None
    assert not defaults.quick and not defaults.tf32


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["bench", "--strategies", "nope"], "unknown strategy 'nope'"),
        (["bench", "--sizes", "10x20"], "bad size"),
        (["bench", "--repeat", "0"], "positive int"),
        (["bench", "--dtype", "int8"], "invalid choice"),
        (["explain", "smem_tiled"], "--shape"),
        (["explain", "smem_tiled", "--shape", "1x2"], "MxNxK"),
        (["source", "smem_tiled", "--set", "tile"], "NAME=VALUE"),
        ([], "COMMAND"),
    ],
)
def test_usage_errors_exit_2(argv, needle, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    assert needle in capsys.readouterr().err


# ------------------------------------------------------------------------------- no GPU
def test_bench_without_gpu_prints_one_line_and_exits_2(monkeypatch, capsys):
    monkeypatch.setattr("tiled_matmul.device.gpu_available", lambda: False)
    code, out, err = run_cli(["bench", "--quick"], capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("tiled-matmul bench: error: no CUDA GPU")
    assert "Traceback" not in err


def test_bench_without_gpu_as_a_process():
    """The real entry point, with the GPU hidden: no traceback, one line, exit code 2."""
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "tiled_matmul", "bench"], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "no CUDA GPU" in proc.stderr and "Traceback" not in proc.stderr


def test_bench_run_without_gpu_raises_no_gpu_error(monkeypatch):
    monkeypatch.setattr("tiled_matmul.device.gpu_available", lambda: False)
    with pytest.raises(bench.NoGPUError, match="no CUDA GPU"):
        bench.run(sizes="64")


@pytest.mark.parametrize(
    "kwargs,exc,needle",
    [
        (dict(tf32=True, dtype="float64"), ValueError, "float32 only"),
        (dict(repeat=0), ValueError, "repeat"),
        (dict(strategies="nope"), ValueError, "unknown strategy"),
        (dict(dtype="int32"), TypeError, "not supported"),
        (dict(sizes=[(1, 2)]), ValueError, "three dims"),
        (dict(extra_rows=[object()]), TypeError, "bench.Row"),
    ],
)
def test_bench_run_checks_arguments_before_anything(kwargs, exc, needle):
    with pytest.raises(exc, match=needle):
        bench.run(**kwargs)


# ------------------------------------------------------------------------------- explain / list / source
def test_explain_json(capsys):
    code, out, err = run_cli(["explain", "smem_tiled", "--shape", "1024x1024x1024", "--set", "tile=32",
                              "--registers", "32", "--no-measure", "--json"], capsys)
    assert code == 0, err
    m = json.loads(out)  # exactly one JSON object
    for key in ("naive_bytes", "tiled_bytes", "min_bytes", "output_bytes", "reduction", "intensity",
                "threads_per_block", "smem_bytes", "occupancy"):
        assert key in m
    assert (m["naive_bytes"], m["tiled_bytes"], m["min_bytes"], m["reduction"]) == (
        8_589_934_592, 268_435_456, 8_388_608, 32.0)
    assert m["threads_per_block"] == 1024 and m["smem_bytes"] == 8192


def test_explain_table(capsys):
    code, out, _ = run_cli(["explain", "rect_tiled", "--shape", "3000x2000x1000", "--registers", "40",
                            "--no-measure"], capsys)
    assert code == 0
    assert "1,164,312,576" in out  # tiled_bytes of the default 32x64x16 tiles (see test_explain)
    assert "occupancy" in out and "reduction" in out


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["explain", "nope", "--shape", "64"], "unknown strategy 'nope'"),
        (["explain", "smem_tiled", "--shape", "64", "--set", "tile=64"], "threads per block = 4096"),
        (["explain", "smem_tiled", "--shape", "64", "--set", "bogus=1"], "no parameter(s) bogus"),
        (["explain", "smem_tiled", "--shape", "64", "--set", "tile=8", "--set", "tile=16"], "given twice"),
        (["source", "register_blocked", "--set", "tm=6"], "must be a multiple of 4"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, needle, capsys):
    code, out, err = run_cli(argv, capsys)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_list_names_every_strategy_with_defaults(capsys):
    code, out, _ = run_cli(["list", "--json"], capsys)
    assert code == 0
    items = json.loads(out)
    assert [it["strategy"] for it in items] == list(tm.STRATEGIES)
    for it in items:
        assert it["parameters"] == tm.STRATEGIES[it["strategy"]].default.params()
        assert it["constraints"] and it["summary"]
    code, out, _ = run_cli(["list"], capsys)
    assert code == 0
    for name in tm.STRATEGIES:
        assert name in out


def test_source_prints_the_rendered_kernel(capsys):
    code, out, _ = run_cli(["source", "smem_tiled", "--set", "tile=16"], capsys)
    assert code == 0
    assert 'extern "C"' in out and "tm_smem_tiled_f32_tile16" in out
    code, out64, _ = run_cli(["source", "smem_tiled", "--dtype", "float64"], capsys)
    assert "tm_smem_tiled_f64_tile32" in out64 and "double" in out64


def test_explain_and_list_need_no_gpu_as_a_process():
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "tiled_matmul", "explain", "smem_tiled", "--shape", "1024",
                           "--registers", "32", "--json"], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["reduction"] == 32.0


# ------------------------------------------------------------------------------- subcommand table
def test_a_subcommand_is_one_table_entry(monkeypatch, capsys):
    seen = {}

    def configure(p):
        p.add_argument("--name", required=True)

    def handler(args):
        seen["name"] = args.name
        return 3

    monkeypatch.setattr(cli, "SUBCOMMANDS", list(cli.SUBCOMMANDS))
    cli.register(cli.Subcommand("hello", "say hello", configure, handler))
    assert cli.main(["hello", "--name", "x"]) == 3 and seen == {"name": "x"}
    # needs_gpu is enforced by the CLI, before the handler runs
    monkeypatch.setattr("tiled_matmul.device.gpu_available", lambda: False)
    cli.register(cli.Subcommand("hello", "say hello", configure, handler, needs_gpu=True))
    seen.clear()
    assert cli.main(["hello", "--name", "y"]) == 2 and seen == {}
    assert "no CUDA GPU" in capsys.readouterr().err


def test_subcommand_from_a_module(tmp_path, monkeypatch):
    (tmp_path / "tm_fake_cmd.py").write_text(
        "def add_arguments(p):\n    p.add_argument('--n', type=int, default=1)\n"
        "def cli_main(args):\n    return args.n * 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cli, "SUBCOMMANDS", list(cli.SUBCOMMANDS))
    cli.register(cli.Subcommand.from_module("fake", "tm_fake_cmd", "a fake command"))
    assert cli.main(["fake", "--n", "4"]) == 8


# ------------------------------------------------------------------------------- bench plumbing (no GPU)
@pytest.mark.parametrize(
    "probe_ms,repeat,budget,expect",
    [
        (0.05, 10, 1.0, (10, 3)),  # fast: every repeat, 3 warm-ups
        (50.0, 10, 1.0, (10, 1)),  # 500 ms in all: fits
        (150.0, 10, 1.0, (6, 1)),  # 1.5 s would not fit: 1000 // 150 = 6
        (1500.0, 10, 1.0, (3, 0)),  # naive at 4096^3: the minimum 3, no extra warm-up
        (1500.0, 2, 1.0, (2, 0)),  # never more than asked for
    ],
)
def test_plan_repeats(probe_ms, repeat, budget, expect):
    assert measure.plan_repeats(probe_ms, repeat, budget, 3) == expect


def test_input_sets_rotate_only_when_a_set_fits_in_l2():
    l2 = 50 * 2**20
    assert measure.n_input_sets(3 * 4096 * 4096 * 4, l2) == 1  # 192 MiB: never cached between repeats
    assert measure.n_input_sets(3 * 2048 * 2048 * 4, l2) == 2  # 48 MiB: two sets exceed L2
    assert measure.n_input_sets(3 * 256 * 256 * 4, l2) == measure.MAX_INPUT_SETS


def _synthetic() -> bench.BenchResult:
    R = measure.Record
    recs = []
    for shape, t_naive in (((256, 256, 256), 0.2), ((3000, 2000, 1000), 40.0)):
        M, N, K = shape
        for name, ms in (("naive", t_naive), ("smem_tiled", t_naive / 5), (bench.CUBLAS, t_naive / 50)):
            recs.append(R("ladder", name, "tile=32" if name == "smem_tiled" else "", M, N, K, "float32",
                          median_ms=ms, min_ms=ms * 0.9, max_ms=ms * 1.2, iqr_ms=ms * 0.05, repeats=10,
                          tflops=2 * M * N * K / (ms * 1e-3) / 1e12, threads_per_block=1024, smem_bytes=8192))
    recs.append(R("ladder", "rect_tiled", "tile_m=32", 256, 256, 256, "float32", status="failed",
                  message="validation failed: rel_err 1 > tol 1e-05; not timed"))
    for tile, ms in ((8, 3.0), (16, 1.5), (32, 1.2)):
        recs.append(R("tiles", "smem_tiled", f"tile={tile}", 2048, 2048, 2048, "float32", median_ms=ms,
                      repeats=10, tflops=2 * 2048**3 / (ms * 1e-3) / 1e12, threads_per_block=tile * tile,
                      smem_bytes=2 * tile * tile * 4))
    recs.append(R("tiles", bench.CUBLAS, "", 2048, 2048, 2048, "float32", median_ms=0.4, repeats=10,
                  tflops=2 * 2048**3 / 0.4e-3 / 1e12))
    bench._derive(recs)
    return bench.BenchResult({"device": "test GPU", "dtype": "float32", "cublas": "cupy.matmul, TF32 off",
                              "repeat": 10, "min_repeat": 3, "row_budget_s": 1.0}, recs)


def test_derived_columns():
    res = _synthetic()
    by = {(r.strategy, r.shape): r for r in res.ladder()}
    naive = by[("naive", (3000, 2000, 1000))]
    smem = by[("smem_tiled", (3000, 2000, 1000))]
    cub = by[(bench.CUBLAS, (3000, 2000, 1000))]
    assert naive.speedup_vs_naive == 1.0 and smem.speedup_vs_naive == pytest.approx(5.0)
    assert cub.pct_cublas == 100.0 and smem.pct_cublas == pytest.approx(10.0)
    failed = by[("rect_tiled", (256, 256, 256))]
    assert failed.pct_cublas is None and failed.speedup_vs_naive is None
    tiles = {r.config: r for r in res.tiles()}
    assert tiles["tile=32"].pct_cublas == pytest.approx(100 * 0.4 / 1.2)


def test_outputs_agree_with_each_other(tmp_path):
    res = _synthetic()
    paths = report.write_outputs(res, tmp_path / "out")
    assert {p.name for p in paths.values()} == {"bench.json", "bench.csv", "bench.md", "ladder.png", "tiles.png"}
    data = json.loads(paths["json"].read_text())
    rows = report.read_csv(paths["csv"])
    assert len(data["records"]) == len(rows) == len(res.records)
    for rec, row in zip(data["records"], rows):
        assert list(row) == list(report.COLUMNS)
        for key in ("study", "strategy", "config", "shape", "status"):
            assert row[key] == str(rec[key])
        if rec["median_ms"] is None:
            assert row["median_ms"] == ""
        else:
            assert float(row["median_ms"]) == pytest.approx(rec["median_ms"])
            assert float(row["tflops"]) == pytest.approx(rec["tflops"])
    for png in (paths["ladder_png"], paths["tiles_png"]):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
    assert bench.BenchResult.from_dict(data).records == res.records
    md = paths["markdown"].read_text()
    assert "TF32 off" in md and "| 3000×2000×1000 | smem_tiled | tile=32 |" in md


def test_tables_render_and_state_tf32_off():
    from rich.console import Console

    res = _synthetic()
    console = Console(width=200, record=True, file=open(os.devnull, "w"))
    console.print(report.ladder_table(res))
    console.print(report.tile_table(res))
    text = console.export_text()
    assert "TF32 off" in text
    assert "FAILED" in text and "validation failed" in text
    assert "3000×2000×1000" in text and "Tile-size study at 2048³" in text


def test_tile_study_uses_registered_search_spaces():
    cfgs = bench.tile_study_configs()
    smem = [c.params()["tile"] for n, c in cfgs if n == "smem_tiled"]
    assert sorted(smem) == [8, 16, 32]
    rect = [c for n, c in cfgs if n == "rect_tiled"]
    entry = tm.STRATEGIES["rect_tiled"]
    assert set(rect) == {entry.default, *entry.search_space}


def test_default_strategy_list_is_the_registry():
    assert bench.resolve_strategies(None) == [*tm.STRATEGIES, "auto"]
    assert bench.resolve_strategies("all") == [*tm.STRATEGIES, "auto"]
    assert bench.resolve_strategies("auto,naive") == ["auto", "naive"]
    assert bench.resolve_strategies("smem_tiled, naive") == ["smem_tiled", "naive"]
