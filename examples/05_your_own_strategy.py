"""Example 5: add your own rung to the ladder, from user code.

A strategy is two things: a jinja2 template of the CUDA kernel, and a config class (a frozen
dataclass deriving from ``tm.Config``) whose int fields are the template's parameters and which
states the rules the template relies on. ``tm.register_strategy`` puts the pair in the registry,
and from then on everything the library does works for it: validation, ``tm.source``,
``tm.matmul(strategy=...)``, ``tm.explain``, ``tm.bench.run`` and ``tm.tune``.

The rung built here is **1-D block tiling**, the step between ``smem_tiled`` and
``register_blocked``: a block stages a bm x bk tile of A and a bk x bn tile of B in shared memory
(bm and bn need not be equal), and each thread computes ``thread_rows`` outputs of one column.
Each value of B read from shared memory is kept in a register and used ``thread_rows`` times, so
the kernel does fewer shared-memory reads per FMA than one-output-per-thread tiling.

    python examples/05_your_own_strategy.py                   # register, validate, source, explain
    python examples/05_your_own_strategy.py --shape 2048      # ... and on a GPU: run, bench, tune

Without a GPU everything up to the model runs; the GPU part is skipped, saying why.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

import tiled_matmul as tm
from _common import have_gpu, label, random_inputs, shape

NAME = "blocktile_1d"

# The kernel. Template variables: each config parameter in upper case (BM, BN, BK, THREAD_ROWS),
# plus T (the element type), THREADS (threads per block, from the config's block()),
# KERNEL_NAME (a unique symbol), DTYPE and PARAMS (for the comment). Every strategy's kernel has
# the same signature; `flags` says whether rows are 16-byte aligned (unused here).
TEMPLATE = r"""// user strategy blocktile_1d ({{ DTYPE }}; {{ PARAMS }})
// One block:  a BM x BN tile of C, with THREADS = (BM / THREAD_ROWS) * BN threads.
// One thread: THREAD_ROWS outputs of one column of the tile.
typedef {{ T }} T;
constexpr int BM = {{ BM }}, BN = {{ BN }}, BK = {{ BK }}, TR = {{ THREAD_ROWS }};
constexpr int THREADS = {{ THREADS }};

extern "C" __global__ void __launch_bounds__(THREADS)
{{ KERNEL_NAME }}(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C,
                  int M, int N, int K, int flags)
{
    __shared__ T As[BM][BK];
    __shared__ T Bs[BK][BN];

    // Consecutive threads take consecutive columns: B loads and C stores are coalesced, and the
    // threads of a warp read one As element at a time (a broadcast, no bank conflict).
    const int col = threadIdx.x % BN;
    const int row0 = (threadIdx.x / BN) * TR;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;

    T acc[TR];
    #pragma unroll
    for (int i = 0; i < TR; ++i) acc[i] = T(0);

    for (int k0 = 0; k0 < K; k0 += BK) {
        // The block loads both tiles together, THREADS elements at a time; zeros past the edges.
        for (int i = threadIdx.x; i < BM * BK; i += THREADS) {
            const int r = block_row + i / BK, c = k0 + i % BK;
            As[i / BK][i % BK] = (r < M && c < K) ? A[(size_t)r * K + c] : T(0);
        }
        for (int i = threadIdx.x; i < BK * BN; i += THREADS) {
            const int r = k0 + i / BN, c = block_col + i % BN;
            Bs[i / BN][i % BN] = (r < K && c < N) ? B[(size_t)r * N + c] : T(0);
        }
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < BK; ++k) {
            const T b = Bs[k][col];  // one shared-memory read ...
            #pragma unroll
            for (int i = 0; i < TR; ++i) acc[i] += As[row0 + i][k] * b;  // ... used TR times
        }
        __syncthreads();
    }
    #pragma unroll
    for (int i = 0; i < TR; ++i) {
        const int r = block_row + row0 + i, c = block_col + col;
        if (r < M && c < N) C[(size_t)r * N + c] = acc[i];
    }
}
"""


@dataclass(frozen=True)
class BlockTile1DConfig(tm.Config):
    """bm x bn block tile, bk deep per step; each thread computes `thread_rows` rows of one column.

    The class defaults are the strategy's default config.
    """

    STRATEGY: ClassVar[str] = NAME
    bm: int = 64
    bn: int = 64
    bk: int = 8
    thread_rows: int = 8

    # Launch geometry: the library launches grid(M, N) blocks of block() threads. The base class's
    # grid() covers C with tiles of tile_mn, which is what this kernel expects.
    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.bm, self.bn)

    def block(self) -> tuple[int, int, int]:
        return ((self.bm // self.thread_rows) * self.bn, 1, 1)

    # What the traffic model (tm.explain) and the validation need.
    @property
    def tile_k(self) -> int:
        return self.bk

    def smem_bytes(self, dtype="float32") -> int:
        return (self.bm * self.bk + self.bk * self.bn) * np.dtype(str(dtype)).itemsize

    # The template's own rules, as (holds, message) pairs; validate() adds the device's limits on
    # threads per block and shared memory, and raises ValueError naming every broken rule.
    def rules(self, limits, dtype):
        yield (self.bm % self.thread_rows == 0,
               f"bm ({self.bm}) must be a multiple of thread_rows ({self.thread_rows})")


SEARCH_SPACE = [
    BlockTile1DConfig(),
    BlockTile1DConfig(bk=16),
    BlockTile1DConfig(bm=128, thread_rows=16),
    BlockTile1DConfig(bm=32, bn=64, thread_rows=4),
]


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shape", type=shape, default=(1024, 1024, 1024), help="N or MxNxK (default 1024)")
    p.add_argument("--repeat", type=int, default=10, help="timed calls per row in bench and tune (default 10)")
    args = p.parse_args(argv)
    M, N, K = args.shape
    if not hasattr(tm, "register_strategy"):
        raise SystemExit(f"this example needs tm.register_strategy, which tiled-matmul {tm.__version__} lacks")

    # 1. Register. The template may be text (as here) or a path to a .cu.j2 file.
    strategy = tm.register_strategy(
        NAME, template=TEMPLATE, config=BlockTile1DConfig, search_space=SEARCH_SPACE,
        summary="1-D block tiling: each thread computes thread_rows outputs of one column",
        replace=True,  # so the example can run twice in one process
    )
    try:
        print(f"registered {strategy.name!r}; tm.STRATEGIES now ends with {list(tm.STRATEGIES)[-3:]}")
        print(f"default config: {strategy.default}")

        # 2. Validation: bad configs are refused before anything renders or compiles.
        for bad in (dict(thread_rows=6), dict(bm=128, bn=128, thread_rows=4)):
            try:
                tm.source(NAME, **bad)
            except ValueError as exc:
                print(f"rejected {bad}: {exc}")
            else:
                print(f"NOT rejected {bad}: the config's rules did not catch it")

        # 3. The rendered CUDA source (no GPU needed).
        print("\n--- tm.source(%r, bk=16) " % NAME + "-" * 50)
        print(tm.source(NAME, bk=16))

        # 4. The traffic model: a bm x bn tile reads (bm + bn)·K elements for bm·bn outputs, so
        #    the reduction over naive (2K reads an output) is 2·bm·bn / (bm + bn).
        cfg = strategy.default
        m = tm.explain(NAME, (M, N, K), measure=False)
        print(f"model at {label(M, N, K)}: reads {m['tiled_bytes'] / 1e6:.1f} MB, "
              f"{m['threads_per_block']} threads, {m['smem_bytes']} B shared memory a block, "
              f"occupancy {m['occupancy']:.2f} ({m['occupancy_limiter']})")
        print(f"reduction (naive / tiled) = {m['reduction']:.6f}")
        print(f"2·bm·bn / (bm + bn)       = {2 * cfg.bm * cfg.bn / (cfg.bm + cfg.bn):.6f}"
              "   (equal when the tiles divide M, N and K)")

        if have_gpu("running, benchmarking and tuning the new strategy"):
            run_on_gpu(M, N, K, args.repeat)
    finally:
        tm.unregister_strategy(NAME)
        print(f"\nunregistered {NAME!r}: still registered? {NAME in tm.STRATEGIES}")


def run_on_gpu(M: int, N: int, K: int, repeat: int) -> None:
    # 5. Run it like any built-in strategy, and check the answer.
    a, b = random_inputs(M, N, K)
    c = tm.matmul(a, b, strategy=NAME)
    report = tm.check(c, a, b)
    print(f"\ntm.matmul(strategy={NAME!r}): relative error {report.rel_err:.2e} "
          f"(cuBLAS {report.cublas_rel_err:.2e}) -> {'PASSED' if report.passed else 'FAILED'}")

    # 6. The library's benchmark: validated against float64 first, then timed against cuBLAS.
    result = tm.bench.run(strategies=["smem_tiled", NAME], sizes=[(M, N, K)], tile_study=False, repeat=repeat)
    print(f"\nbench at {label(M, N, K)}:")
    for r in result.records:
        ms = f"{r.median_ms:.4f} ms, {r.tflops:.2f} TFLOP/s" if r.ok else f"{r.status}: {r.message}"
        print(f"  {r.strategy:<14} {r.config:<40} {ms}")

    # 7. The autotuner over the search space (save=False: leave your tuning database alone).
    t = tm.tune(M, N, K, strategies=[NAME], repeat=repeat, save=False, progress=False)
    if t.best is None:
        print("\ntune: no config of the search space passed the check")
        return
    print(f"\ntune: best {t.strategy} {t.params} at {t.best.median_ms:.4f} ms "
          f"({t.vs_cublas:.2f}x cuBLAS speed)")

    # 8. The model beside a measurement of the best config.
    m = tm.explain(NAME, (M, N, K), measure=True, **t.params)
    print(f"explain: measured {m['measured_ms']:.4f} ms; the traffic bound (DRAM at "
          f"{m['bandwidth_gbs']:.0f} GB/s, or FP32 peak) is {m['roofline_tiled_ms']:.4f} ms")


if __name__ == "__main__":
    main()
