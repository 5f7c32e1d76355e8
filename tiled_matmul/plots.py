"""The PNG plots of ``tiled-matmul bench`` (matplotlib, headless Agg backend), made from the
records of a :class:`tiled_matmul.bench.BenchResult`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .measure import CUBLAS, CUBLAS_TF32, shape_label

if TYPE_CHECKING:
    from .bench import BenchResult


def _pyplot():
    """matplotlib.pyplot on the Agg backend: plots are written to files, never shown."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: "str | Path") -> Path:
    fig.tight_layout()
    fig.savefig(path)
    _pyplot().close(fig)
    return Path(path)


def _lines(recs, xs: dict) -> dict[str, list[tuple[int, float]]]:
    """Points (x, TFLOP/s) per line of the ladder plot: one line per strategy, or per strategy and
    precision request ("wgmma [tf32]") where the run has several requests; a cuBLAS row measured
    in several requests' blocks is one line (its first measurement at each size)."""
    several = len({r.request for r in recs if r.strategy not in (CUBLAS, CUBLAS_TF32)}) > 1
    lines: dict[str, dict[int, float]] = {}
    for r in recs:
        cublas = r.strategy in (CUBLAS, CUBLAS_TF32)
        name = r.strategy if cublas or not several else f"{r.strategy} [{r.request or '-'}]"
        line = lines.setdefault(name, {})
        if r.ok and r.tflops and xs[r.shape] not in line:
            line[xs[r.shape]] = r.tflops
    return {name: sorted(line.items()) for name, line in lines.items()}


def plot_ladder(result: "BenchResult", path: "str | Path") -> Path:
    """TFLOP/s against size, one line per strategy, cuBLAS as a thick black line."""
    plt = _pyplot()
    recs = result.ladder()
    shapes = sorted({r.shape for r in recs}, key=lambda s: (s[0] * s[1] * s[2], s))
    xs = {s: i for i, s in enumerate(shapes)}
    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=110)
    for name, pts in _lines(recs, xs).items():
        if not pts:
            continue
        x, y = zip(*pts)
        if name == CUBLAS:
            ax.plot(x, y, color="black", linewidth=2.8, label=f"{CUBLAS} (FP32, TF32 off)", zorder=5)
        elif name == CUBLAS_TF32:
            ax.plot(x, y, color="gray", linewidth=2, linestyle="--", label=CUBLAS_TF32)
        else:
            ax.plot(x, y, marker="o", linewidth=1.4, label=name)
    ax.set_xticks(range(len(shapes)), [shape_label(s) for s in shapes])
    ax.set_yscale("log")
    ax.set_xlabel("problem size (M×N×K, ordered by FLOPs)")
    ax.set_ylabel("TFLOP/s (median)")
    ax.set_title(f"Strategy ladder, {result.meta.get('dtype', '')} — {result.meta.get('device', '')}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, loc="best")
    return _save(fig, path)


def plot_tiles(result: "BenchResult", path: "str | Path") -> Path:
    """Horizontal bars of TFLOP/s per tile config, labelled with threads and shared memory per block."""
    plt = _pyplot()
    recs = result.tiles()
    kernels = [r for r in recs if r.strategy != CUBLAS]
    ref = next((r for r in recs if r.strategy == CUBLAS and r.ok), None)
    fig, ax = plt.subplots(figsize=(9, 0.45 * max(len(kernels), 3) + 1.6), dpi=110)
    labels, vals, colors = [], [], []
    palette: dict[str, str] = {}
    for r in kernels:
        smem = "–" if r.smem_bytes is None else f"{r.smem_bytes / 1024:.1f} KiB"
        labels.append(f"{r.strategy} {r.config}\n{r.threads_per_block} thr, {smem}")
        vals.append(r.tflops if r.ok and r.tflops else 0.0)
        colors.append(palette.setdefault(r.strategy, f"C{len(palette)}"))
    ax.barh(range(len(labels)), vals, color=colors)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.invert_yaxis()
    for i, (v, r) in enumerate(zip(vals, kernels)):
        ax.text(v, i, f" {v:.2f}" if r.ok else f" {r.status}", va="center", fontsize=7)
    if ref is not None and ref.tflops:
        ax.axvline(ref.tflops, color="black", linewidth=2, label=f"cuBLAS {ref.tflops:.1f} TFLOP/s")
        ax.legend(fontsize=8, loc="lower right")
    shape = shape_label(recs[0].shape) if recs else ""
    ax.set_xlabel("TFLOP/s (median)")
    ax.set_title(f"Tile-size study at {shape}, {result.meta.get('dtype', '')}", fontsize=10)
    ax.grid(True, axis="x", alpha=0.3)
    return _save(fig, path)


__all__ = ["plot_ladder", "plot_tiles"]
