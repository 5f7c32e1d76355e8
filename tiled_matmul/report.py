"""What ``tiled-matmul bench`` shows and writes: rich tables, markdown, JSON and CSV, all made from
the same :class:`tiled_matmul.measure.Record` rows of a :class:`tiled_matmul.bench.BenchResult`;
and the terminal plumbing (console, progress bar) the commands share."""

from __future__ import annotations

import csv
import json
import sys
import time
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from . import plots
from .measure import CUBLAS, CUBLAS_TF32, SKIPPED, Record, shape_label

if TYPE_CHECKING:
    from .bench import BenchResult

TF32_NOTE = "cuBLAS = cupy.matmul, TF32 off (plain FP32 compute)"
#: Column order of the CSV (and keys of every JSON record).
COLUMNS: tuple[str, ...] = ("shape",) + tuple(f.name for f in fields(Record))


# ---------------------------------------------------------------------------------------------
# terminal
# ---------------------------------------------------------------------------------------------
def console(file=None):
    """A rich Console on `file` (default stdout)."""
    from rich.console import Console

    stream = file or sys.stdout
    # Not a terminal (a log file, CI): wide enough that the tables do not wrap.
    return Console(file=stream, width=None if stream.isatty() else 150, highlight=False)


class Progress:
    """A rich progress bar on stderr, called as ``progress(done, total, label)``; it appears only
    once the run has taken `after_s` seconds, so quick runs print nothing. `transient` bars vanish
    when closed."""

    def __init__(self, title: str, after_s: float = 0.0, transient: bool = True, file=None):
        self.title, self.after_s, self.transient = title, after_s, transient
        self.console = console(file or sys.stderr)
        self.t0 = time.perf_counter()
        self.bar = None
        self.task = None

    def __call__(self, done: int, total: int, label: str) -> None:
        if self.bar is None:
            if time.perf_counter() - self.t0 < self.after_s or done >= total:
                return
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bar

            self.bar = Bar(TextColumn(f"[bold]{self.title}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                           TextColumn("{task.description}"), console=self.console, transient=self.transient)
            self.bar.start()
            self.task = self.bar.add_task(label, total=total, completed=done)
        self.bar.update(self.task, completed=done, description=label)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


# ---------------------------------------------------------------------------------------------
# bench tables
# ---------------------------------------------------------------------------------------------
def _fmt(v: "float | None", spec: str, empty: str = "–") -> str:
    return empty if v is None else format(v, spec)


def _ms(v: "float | None") -> str:
    if v is None:
        return "–"
    return f"{v:.4f}" if v < 1 else f"{v:.3f}" if v < 100 else f"{v:.1f}"


def _smem(r: Record) -> str:
    return "–" if r.smem_bytes is None else f"{r.smem_bytes / 1024:.1f} KiB"


def _requests(result: "BenchResult") -> list[str]:
    """The precision requests of the run, in order (older results without them: none)."""
    return list(result.meta.get("precision") or dict.fromkeys(r.request for r in result.ladder() if r.request))


def _mode(r: Record) -> str:
    """What the precision column shows: the mode the row computes in, or "–" (a skipped row)."""
    return r.precision or "–"


def header_line(result: "BenchResult") -> str:
    m = result.meta
    reqs = _requests(result)
    prec = f"precision {', '.join(reqs)} · " if reqs else ""
    return (f"{m.get('device', '?')} · {m.get('dtype', '?')} · {prec}{m.get('cublas', TF32_NOTE)} · "
            f"repeats {m.get('repeat')} (≥{m.get('min_repeat')} when a row exceeds {m.get('row_budget_s')} s) · "
            f"L2 flushed between repeats")


def _untimed_rows(t, r: Record, lead: list[str], width: int, message_col: int) -> None:
    """A row that was not timed: its status where the time would be, its message below in column
    `message_col` (red for a failure, dim for a row skipped by design)."""
    color = "dim" if r.status == SKIPPED else "red"
    t.add_row(*lead, f"[{color}]{r.status.upper()}[/{color}]", *[""] * (width - len(lead) - 1))
    t.add_row(*[""] * message_col, f"[{color}]{r.message}[/{color}]", *[""] * (width - message_col - 1))


def ladder_table(result: "BenchResult"):
    """A rich Table of the ladder, one section per shape (and per precision request where the run
    has several). The precision column is the mode each row computes in; % cuBLAS is against the
    cuBLAS reference of the row's request (TF32 cuBLAS for "tf32", FP32 otherwise)."""
    from rich.table import Table

    reqs = _requests(result)
    several = len(reqs) > 1
    dtypes = str(result.meta.get("dtype", "float32")).split(",")
    by_dtype = len(dtypes) > 1  # a block per dtype at each shape, the dtype beside the shape
    if by_dtype:
        ref = "the same dtype" + ("; float32 TF32 off" if "float32" in dtypes else "")
    elif dtypes[0] != "float32":
        ref = dtypes[0]
    elif "tf32" in reqs:
        ref = "TF32 off; TF32 on for precision tf32" if several else "TF32 on"
    else:
        ref = "TF32 off"
    title = f"Strategy ladder vs cuBLAS ({ref})"
    if len(reqs) == 1:
        title += f", precision {reqs[0]}"
    t = Table(title=f"{title} — {result.meta.get('device', '')}", title_justify="left")
    cols = [("shape", "left"), ("strategy", "left"), ("config", "left"), ("precision", "left")]
    if several:
        cols.append(("request", "left"))
    cols += [("median ms", "right"), ("± IQR", "right"), ("TFLOP/s", "right"), ("% cuBLAS", "right"),
             ("× naive", "right"), ("runs", "right")]
    for col, just in cols:
        t.add_column(col, justify=just, no_wrap=col != "config")
    last = None
    for r in result.ladder():
        if last is not None and (r.shape != last[0] or (several and r.request != last[1]) or r.dtype != last[2]):
            t.add_section()
        shape = shape_label(r.shape) if last is None or r.shape != last[0] else ""
        if by_dtype and (last is None or (r.shape, r.dtype) != (last[0], last[2])):
            shape = f"{shape_label(r.shape)} {r.dtype}"
        last = (r.shape, r.request, r.dtype)
        lead = [shape, r.strategy, r.config, _mode(r)] + ([r.request or "–"] if several else [])
        if r.ok:
            t.add_row(*lead, _ms(r.median_ms), _ms(r.iqr_ms), _fmt(r.tflops, ".2f"),
                      _fmt(r.pct_cublas, ".1f"), _fmt(r.speedup_vs_naive, ".1f"), str(r.repeats),
                      style="bold" if r.strategy in (CUBLAS, CUBLAS_TF32) else None)
        else:
            _untimed_rows(t, r, lead, len(cols), 2)
    return t


def tile_table(result: "BenchResult"):
    """A rich Table of the tile-size study."""
    from rich.table import Table

    rows = result.tiles()
    size = shape_label(rows[0].shape) if rows else ""
    t = Table(title=f"Tile-size study at {size} ({result.meta.get('dtype', '')})", title_justify="left")
    for col in ("strategy", "config", "threads/block", "smem/block", "median ms", "± IQR", "TFLOP/s", "% cuBLAS"):
        t.add_column(col, justify="left" if col in ("strategy", "config") else "right")
    for r in rows:
        thr = "–" if r.threads_per_block is None else str(r.threads_per_block)
        if r.ok:
            t.add_row(r.strategy, r.config, thr, _smem(r), _ms(r.median_ms), _ms(r.iqr_ms), _fmt(r.tflops, ".2f"),
                      _fmt(r.pct_cublas, ".1f"), style="bold" if r.strategy == CUBLAS else None)
        else:
            _untimed_rows(t, r, [r.strategy, r.config, thr, _smem(r)], 8, 1)
    return t


def markdown_tables(result: "BenchResult") -> str:
    """The ladder and the tile study as GitHub-markdown tables (for a README or RESULTS file)."""
    lines = [f"_{header_line(result)}_", "",
             "| shape | strategy | config | precision | request | median ms | ± IQR | TFLOP/s | % cuBLAS | × naive |",
             "|---|---|---|---|---|---:|---:|---:|---:|---:|"]
    for r in result.ladder():
        lead = f"| {shape_label(r.shape)} | {r.strategy} | {r.config} | {_mode(r)} | {r.request or '–'} |"
        if r.ok:
            lines.append(f"{lead} {_ms(r.median_ms)} | {_ms(r.iqr_ms)} | "
                         f"{_fmt(r.tflops, '.2f')} | {_fmt(r.pct_cublas, '.1f')} | {_fmt(r.speedup_vs_naive, '.1f')} |")
        else:
            lines.append(f"{lead} {r.status}: {r.message} | | | | |")
    tiles = result.tiles()
    if tiles:
        lines += ["", f"Tile-size study at {shape_label(tiles[0].shape)}:", "",
                  "| strategy | config | threads/block | smem/block | median ms | TFLOP/s | % cuBLAS |",
                  "|---|---|---:|---:|---:|---:|---:|"]
        for r in tiles:
            lines.append(f"| {r.strategy} | {r.config} | {r.threads_per_block or '–'} | {_smem(r)} | {_ms(r.median_ms)} | "
                         f"{_fmt(r.tflops, '.2f')} | {_fmt(r.pct_cublas, '.1f')} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------------
def write_json(result: "BenchResult", path: "str | Path") -> Path:
    path = Path(path)
    path.write_text(json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_csv(result: "BenchResult", path: "str | Path") -> Path:
    path = Path(path)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(COLUMNS))
        w.writeheader()
        for r in result.records:
            d = r.as_dict()
            w.writerow({k: ("" if d[k] is None else d[k]) for k in COLUMNS})
    return path


def read_csv(path: "str | Path") -> list[dict[str, str]]:
    with Path(path).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def write_outputs(result: "BenchResult", out_dir: "str | Path", with_plots: bool = True) -> dict[str, Path]:
    """Write bench.json and bench.csv; with `with_plots` also bench.md, ladder.png and (with a tile
    study) tiles.png."""
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot create output folder {str(out)!r}: {exc.strerror or exc}") from None
    paths = {"json": write_json(result, out / "bench.json"), "csv": write_csv(result, out / "bench.csv")}
    if not with_plots:
        return paths
    paths["markdown"] = out / "bench.md"
    paths["markdown"].write_text(markdown_tables(result), encoding="utf-8")
    if result.ladder():
        paths["ladder_png"] = plots.plot_ladder(result, out / "ladder.png")
    if result.tiles():
        paths["tiles_png"] = plots.plot_tiles(result, out / "tiles.png")
    return paths


__all__ = ["console", "Progress", "header_line", "ladder_table", "tile_table", "markdown_tables", "write_json",
           "write_csv", "read_csv", "write_outputs", "COLUMNS", "TF32_NOTE"]
