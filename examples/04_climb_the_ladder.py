"""Example 4: climb the ladder, every rung at one shape, in one plot.

Each registered strategy (``tm.STRATEGIES``, in ladder order) at its default config: what the
step changes, what the traffic model says it reads from global memory, and (with a GPU) how fast it
runs next to cuBLAS and to ``strategy="auto"``. The plot is saved to ``--out`` (matplotlib, Agg:
no display needed). Without a GPU the plot holds the traffic model alone.

    python examples/04_climb_the_ladder.py --out ladder.png            # 1024^3
    python examples/04_climb_the_ladder.py --shape 4096 --out ladder4096.png
"""

from __future__ import annotations

import argparse

import matplotlib

matplotlib.use("Agg")  # write files, never open a window
import matplotlib.pyplot as plt

import tiled_matmul as tm
from _common import device_operands, have_gpu, label, median_ms, shape, tflops

#: What each step up the ladder changes, and why it helps. Rungs not listed here (a strategy
#: registered later, or your own from example 5) are described by their registry summary.
WHY = {
    "naive": "one thread per output, every operand from global memory: 2K loads per output",
    "thread_tile": "a thread computes a small tile of outputs: each loaded value feeds several FMAs "
                   "from a register, but every load still goes to global memory",
    "smem_tiled": "a block stages TILE x TILE tiles of A and B in shared memory: each element read "
                  "from global memory once per tile and used TILE times",
    "rect_tiled": "rectangular tiles and several outputs per thread: a wider B tile reuses each A value "
                  "more, with fewer threads per output",
    "register_blocked": "big block tiles (128x128), each thread an 8x8 outer product in registers, "
                        "128-bit loads, double-buffered shared memory: the first rung near cuBLAS",
    "warp_tiled": "warps own sub-tiles, cp.async copies overlap the math (a multi-stage pipeline), "
                  "blocks run in grouped order so neighbours share L2",
    "split_k": "K is cut into slices computed by separate blocks and summed: more blocks to fill "
               "the GPU when M x N alone gives too few",
    "tensor_core": "the products move to TF32 tensor cores (mma.sync), split 3 ways (3xTF32) so the "
                   "result keeps float32 accuracy",
    "wgmma": "Hopper's warpgroup MMA (wgmma): four warps issue one large asynchronous MMA (sm_90 only)",
    "gemv_xb": "a rung for skinny x.B (few rows of A), not for this square shape: B is streamed once per "
               "mt rows with 16-byte loads, the time is the bytes of B (here B is re-read for every mt rows)",
    "gemv_ax": "a rung for skinny A.x (few columns of B): A is streamed once per nt columns, a warp per "
               "row of A along K (here A is re-read for every nt columns)",
}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shape", type=shape, default=(1024, 1024, 1024), help="N or MxNxK (default 1024)")
    p.add_argument("--out", default="ladder.png", help="where to save the plot (default ladder.png)")
    p.add_argument("--repeat", type=int, default=10, help="timed calls per rung (default 10)")
    args = p.parse_args(argv)
    M, N, K = args.shape
    gpu = have_gpu("timing the rungs (the traffic model and the plot of it need no GPU)")
    if gpu:
        import cupy

        a, b, c = device_operands(M, N, K)

    names, reads, times = [], [], []
    minimum = None
    for step, (name, entry) in enumerate(tm.STRATEGIES.items(), 1):
        params = " ".join(f"{k}={v}" for k, v in entry.default.params().items())
        print(f"\n[{step}] {name} ({params})")
        print(f"    {WHY.get(name, entry.summary)}")
        if not entry.supports("float32"):
            print("    skipped: it does not compute float32")
            continue
        m = tm.explain(name, (M, N, K), measure=False)
        minimum = m["min_bytes"]
        print(f"    model: reads {m['tiled_bytes'] / 1e9:.3f} GB of A and B ({m['reduction']:.0f}x less than naive), "
              f"{m['threads_per_block']} threads and {m['smem_bytes'] / 1024:.1f} KB shared memory a block, "
              f"occupancy {m['occupancy']:.2f} ({m['occupancy_limiter']})")
        ms = None
        if gpu and not entry.runs_on():
            print(f"    not timed: this GPU cannot run it ({entry.config_cls.NVRTC_ARCH} only)")
        elif gpu:
            k = tm.kernel(name)
            k(a, b, out=c)
            report = tm.check(c, a, b)  # never time a wrong answer
            if report.passed:
                ms = median_ms(lambda: k(a, b, out=c), args.repeat)
                print(f"    measured: {ms:.4f} ms, {tflops(M, N, K, ms):.2f} TFLOP/s, "
                      f"relative error {report.rel_err:.1e}")
            else:
                print(f"    FAILED the check: relative error {report.rel_err:.2e} > {report.tol:.2e}; not timed")
        names.append(name)
        reads.append(m["tiled_bytes"] / 1e9)
        times.append(ms)

    cublas_ms = auto_ms = None
    if gpu:
        cublas_ms = median_ms(lambda: cupy.matmul(a, b, out=c), args.repeat)
        auto_ms = median_ms(lambda: tm.matmul(a, b, out=c), args.repeat)
        choice = tm.kernel("auto").resolve(M, N, K)
        print(f"\ncuBLAS (cupy.matmul, FP32): {cublas_ms:.4f} ms, {tflops(M, N, K, cublas_ms):.2f} TFLOP/s")
        print(f"auto (the tuned pick, {choice.strategy}): {auto_ms:.4f} ms, {tflops(M, N, K, auto_ms):.2f} TFLOP/s")

    # One figure: the model on the left, the measurement (with a GPU) on the right.
    fig, axes = plt.subplots(1, 2 if gpu else 1, figsize=(13 if gpu else 7, 4.8), squeeze=False)
    ax = axes[0][0]
    ax.bar(names, reads, color="tab:blue")
    ax.axhline(minimum / 1e9, color="k", ls="--", lw=1, label="minimum: A and B read once")
    ax.set_yscale("log")
    ax.set_ylabel("GB read from global memory (model)")
    ax.set_title(f"traffic model, {label(M, N, K)} float32")
    ax.legend()
    ax.tick_params(axis="x", rotation=45)
    if gpu:
        ax = axes[0][1]
        rate = [tflops(M, N, K, t) if t else 0.0 for t in times]
        ax.bar(names + ["auto"], rate + [tflops(M, N, K, auto_ms)], color=["tab:orange"] * len(names) + ["tab:green"])
        ax.axhline(tflops(M, N, K, cublas_ms), color="k", ls="--", lw=1, label="cuBLAS FP32")
        ax.set_ylabel("TFLOP/s (median)")
        ax.set_title(f"measured on {tm.device_limits().name}")
        ax.legend()
        ax.tick_params(axis="x", rotation=45)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"\nplot saved to {args.out}")


if __name__ == "__main__":
    main()
