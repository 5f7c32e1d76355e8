"""Write examples/tiled_matmul_tour.ipynb from the cells defined here (outputs empty).

The notebook of the seed documents, rebuilt on the library: the ladder, the traffic model and its
table, the tile-size analysis, the accuracy check and the benchmark against cuBLAS, one idea a
cell. Edit the cells here, never the .ipynb by hand, then rebuild and re-execute:

    python3 scripts/build_notebook.py             # needs nbformat (pip install -e ".[examples]")
    python3 scripts/run_notebook.py               # executes it in place with nbclient (GPU cells need a GPU)

Cell ids are fixed, so rebuilding unchanged cells writes the same file.
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATH = ROOT / "examples" / "tiled_matmul_tour.ipynb"

# (kind, id, source): kind is "md" or "code".
CELLS: list[tuple[str, str, str]] = [
    ("md", "title", """\
# A tour of tiled matrix multiplication, on `tiled_matmul`

The seed notebook wrote one tiled kernel by hand, counted the bytes it reads, guessed at tile sizes
and timed it. Here every rung of the ladder is a template in `kernels/`, rendered for the tile
sizes you ask for and compiled at run time, so each idea is one call:

1. **the ladder**: the strategies, from one thread per output to tensor cores;
2. **the traffic model**: why tiling cuts global-memory reads, and by how much;
3. **tile sizes**: reuse against occupancy;
4. **accuracy**: every result checked against cuBLAS and a float64 reference;
5. **speed**: the ladder against cuBLAS, and the seeds' tile-size table filled in.

Sections 1-3 need no GPU. Cells that need one print why they skip. Install with
`pip install -e ".[examples,cuda13]"`; `python3 scripts/run_notebook.py` re-executes this file."""),
    ("code", "setup", """\
%matplotlib inline
import numpy as np
import matplotlib.pyplot as plt
import tiled_matmul as tm

GPU = tm.gpu_available()
limits = tm.device_limits()
print(f"tiled-matmul {tm.__version__}; device: {limits.name}")
if not GPU:
    print("no CUDA GPU: the model uses the H100 stand-in limits, and the GPU cells skip")"""),
    ("md", "ladder-md", """\
## 1. The ladder

Each strategy is one jinja2 template plus a config class that names its tile parameters and the
rules they must obey. They are registered in ladder order; each rung changes one thing about
where the operands live while they are reused."""),
    ("code", "ladder", """\
for i, (name, entry) in enumerate(tm.STRATEGIES.items(), 1):
    params = " ".join(f"{k}={v}" for k, v in entry.default.params().items())
    print(f"{i}. {name:<17} {entry.summary}\\n   default: {params}")"""),
    ("md", "source-md", """\
### Reading a rung

`tm.source` renders a template for a config (no GPU needed): this is exactly the code NVRTC
compiles. `smem_tiled` is the seed's kernel: each thread loads one element of A and one of B
into shared memory per phase, the block waits (`__syncthreads`), then every thread reads TILE
elements of each tile. The second `__syncthreads` keeps the next phase from overwriting tiles
that slower threads are still reading."""),
    ("code", "source", """\
print(tm.source("smem_tiled", tile=16))"""),
    ("md", "traffic-md", """\
## 2. The traffic model

Counting the bytes read from global memory (elements of `itemsize` bytes):

| | elements read | for 1024³, T = 32 |
|---|---|---|
| naive | M·N·2K: each output reads a row of A and a column of B | 8.6 GB |
| tiled | ⌈M/T⌉·⌈N/T⌉·⌈K/T⌉·2T²: each block reads two T×T tiles per step | 0.27 GB |
| minimum | M·K + K·N: each input once | 8.4 MB |

So square tiles divide the traffic by T (when T divides the sizes), and the arithmetic intensity
(FLOP per byte) rises by the same factor. `tm.explain` does this count for any strategy and
config, on the padded grid, and adds occupancy and a roofline."""),
    ("code", "traffic", """\
shape, T = (1024, 1024, 1024), 32
naive = tm.explain("naive", shape, measure=False)
tiled = tm.explain("smem_tiled", shape, tile=T, measure=False)
print(f"naive:   {naive['naive_bytes'] / 1e9:8.3f} GB")
print(f"tiled:   {tiled['tiled_bytes'] / 1e9:8.3f} GB")
print(f"minimum: {tiled['min_bytes'] / 1e6:8.3f} MB")
print(f"reduction factor: {tiled['reduction']:.1f}x (theoretical: T = {T})")
print(f"intensity: {naive['intensity']:.2f} -> {tiled['intensity']:.2f} FLOP/B "
      f"(at the minimum traffic: {tiled['intensity_min']:.0f})")"""),
    ("md", "traffic-table-md", """\
### The model for every rung

The same count for each strategy's default config. Register tiles (`thread_tile`,
`register_blocked` and up) grow the block tile, which is what cuts global traffic; warp tiling,
pipelining and tensor cores change how fast the traffic and the math are served, not how much
traffic there is. `split_k` reads more than `warp_tiled` on purpose: smaller tiles, more blocks."""),
    ("code", "traffic-table", """\
print(f"{'strategy':<17} {'GB read':>8} {'reduction':>9} {'FLOP/B':>7} {'threads':>7} {'smem KB':>7} {'occupancy':>9}")
for name in tm.STRATEGIES:
    m = tm.explain(name, shape, measure=False)
    print(f"{name:<17} {m['tiled_bytes'] / 1e9:8.3f} {m['reduction']:9.1f} {m['intensity']:7.2f} "
          f"{m['threads_per_block']:7d} {m['smem_bytes'] / 1024:7.1f} {m['occupancy']:9.2f}")"""),
    ("md", "tiles-md", """\
## 3. Tile size: reuse against occupancy

A bigger tile reuses each loaded element more, but needs more threads and shared memory per block,
so fewer blocks fit on an SM. The seed guessed the limits ("48 KB typical", 1024 threads); here
they are read from the device (or the H100 stand-in), with registers per thread from the compiled
kernel (or `ptxas`). The number of resident blocks is the smallest of the limits."""),
    ("code", "tiles", """\
configs = [("smem_tiled", dict(tile=t)) for t in (8, 16, 32)] + [
    ("rect_tiled", dict(tile_m=32, tile_n=16, tile_k=16, coarsen=1)),
    ("rect_tiled", dict(tile_m=32, tile_n=64, tile_k=16, coarsen=4)),
]
print(f"{'config':<52} {'threads':>7} {'smem B':>7} {'reuse':>6} {'regs':>5} {'blocks/SM':>9} {'occupancy':>9}  limited by")
for name, params in configs:
    m = tm.explain(name, shape, measure=False, **params)
    label = name + " " + " ".join(f"{k}={v}" for k, v in params.items())
    print(f"{label:<52} {m['threads_per_block']:7d} {m['smem_bytes']:7d} {m['reuse_factor']:6.1f} "
          f"{str(m['registers']):>5} {m['blocks_per_sm']:9d} {m['occupancy']:9.2f}  {m['occupancy_limiter']}")"""),
    ("md", "accuracy-md", """\
## 4. Accuracy: check every answer

A fast wrong kernel is worth nothing, so every result is checked before it is timed.
`tm.check(c, a, b)` compares `c` with a float64 reference and with cuBLAS (`cupy.matmul`). The
error of a float32 dot product grows with K (roughly √K·ε for random signed data), and each
tiling sums in its own order, so results differ from cuBLAS in the last bits; the tolerance
`tm.tolerance(dtype, K)` allows for that and no more."""),
    ("code", "accuracy", """\
M, N, K = 1000, 700, 1500  # ragged on purpose: no tile divides it
print(f"tolerance for float32 at K={K}: {tm.tolerance('float32', K):.2e}")
if GPU:
    import cupy
    a = cupy.random.uniform(-1, 1, (M, K), dtype=cupy.float32)
    b = cupy.random.uniform(-1, 1, (K, N), dtype=cupy.float32)
    for name, entry in tm.STRATEGIES.items():
        if not entry.supports("float32"):
            print(f"{name:<17} skipped: computes {', '.join(entry.config_cls.SUPPORTED_DTYPES)} only")
            continue
        if not entry.runs_on():
            print(f"{name:<17} skipped: needs {entry.config_cls.NVRTC_ARCH}")
            continue
        r = tm.check(tm.matmul(a, b, strategy=name), a, b)
        print(f"{name:<17} relative error {r.rel_err:.2e} (cuBLAS {r.cublas_rel_err:.2e})  "
              f"{'PASSED' if r.passed else 'FAILED'}")
else:
    print("skipped: running the kernels needs a CUDA GPU")"""),
    ("md", "bench-md", """\
## 5. The ladder against cuBLAS

`tm.bench.run` is what `tiled-matmul bench` runs: at each size every row is first validated
against float64, then timed with CUDA events after warm-up, with the L2 cache flushed before every
repeat; the median is kept. cuBLAS runs in plain FP32 (TF32 off), so the comparison is like for
like. The same call also runs the tile-size study (section 6)."""),
    ("code", "bench", """\
if GPU:
    result = tm.bench.run(sizes=[512, 1024, 2048, 4096], tile_study=True, tile_size=2048, repeat=10)
    ladder = [r for r in result.records if r.study == "ladder" and r.ok]
    fig, ax = plt.subplots(figsize=(9, 5))
    for name in dict.fromkeys(r.strategy for r in ladder):
        rows = sorted((r for r in ladder if r.strategy == name), key=lambda r: r.M)
        style = dict(color="k", ls="--", lw=2) if name == "cuBLAS" else dict(marker="o")
        ax.plot([r.M for r in rows], [r.tflops for r in rows], label=name, **style)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("M = N = K")
    ax.set_ylabel("TFLOP/s (median)")
    ax.set_title(f"the ladder against cuBLAS FP32 on {limits.name}")
    ax.legend(fontsize=8, ncol=2)
    plt.show()
else:
    result = None
    print("skipped: benchmarking needs a CUDA GPU")"""),
    ("md", "tile-table-md", """\
## 6. The seeds' tile-size table, filled in

The seed left `| tile size | time(ms) |` empty. Here it is, from the tile study of the run above,
beside what the traffic model predicts: the time to read each config's traffic at the measured
DRAM bandwidth (or the FP32 compute bound, if longer). Real kernels land above that bound; how
far above says what else limits them (shared-memory bandwidth, latency, occupancy)."""),
    ("code", "tile-table", """\
if result is not None:
    tiles = [r for r in result.records if r.study == "tiles" and r.ok]
    print(f"{'strategy':<11} {'config':<40} {'time ms':>8} {'TFLOP/s':>8} {'% cuBLAS':>8} {'MB read':>8} {'model ms':>8}")
    points = []
    for r in tiles:
        params = dict((k, int(v)) for k, v in (kv.split("=") for kv in r.config.split()))
        if r.strategy == "cuBLAS":
            print(f"{'cuBLAS':<11} {'':<40} {r.median_ms:8.3f} {r.tflops:8.2f}")
            continue
        m = tm.explain(r.strategy, (r.M, r.N, r.K), measure=False, **params)
        points.append((m["tiled_bytes"] / 1e6, r.median_ms, r.strategy))
        print(f"{r.strategy:<11} {r.config:<40} {r.median_ms:8.3f} {r.tflops:8.2f} {r.pct_cublas or 0:8.1f} "
              f"{m['tiled_bytes'] / 1e6:8.0f} {m['roofline_tiled_ms']:8.3f}")
    fig, ax = plt.subplots(figsize=(6, 4))
    for name in ("smem_tiled", "rect_tiled"):
        xs = [p for p in points if p[2] == name]
        ax.scatter([p[0] for p in xs], [p[1] for p in xs], label=name)
    ax.set_xlabel("MB read from global memory (model)")
    ax.set_ylabel("measured ms")
    ax.set_title("does traffic predict time?")
    ax.legend()
    plt.show()
else:
    print("skipped: the tile study needs a CUDA GPU")"""),
    ("md", "next-md", """\
## Where next

* `examples/02_swap_tiles.py` is section 6 as a script; `examples/04_climb_the_ladder.py` plots
  every rung at one shape.
* The seed's exercise 2 (rectangular tiles) is the `rect_tiled` strategy;
  `examples/05_your_own_strategy.py` goes one step further and adds a rung of your own (1-D block
  tiling) with `tm.register_strategy`: your template and config class, then validation, source,
  `matmul`, bench, tune and explain work for it like for the built-in ones.
* `tiled-matmul explain register_blocked --shape 4096` shows the model of a fast rung."""),
]


def build():
    """The notebook as an nbformat object (no outputs)."""
    import nbformat
    from nbformat import v4

    cells = []
    for kind, cell_id, source in CELLS:
        cell = v4.new_markdown_cell(source) if kind == "md" else v4.new_code_cell(source)
        cell.id = cell_id
        cells.append(cell)
    nb = v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })
    nbformat.validate(nb)
    return nb


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description="Write the tour notebook from the cells in this script.")
    p.add_argument("--out", type=Path, default=DEFAULT_PATH, help=f"where to write it (default {DEFAULT_PATH.relative_to(ROOT)})")
    args = p.parse_args(argv)
    try:
        import nbformat
    except ImportError:
        raise SystemExit("build_notebook needs nbformat: pip install -e \".[examples]\"") from None
    nb = build()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(args.out))
    print(f"wrote {args.out} ({len(nb.cells)} cells)")


if __name__ == "__main__":
    main()
