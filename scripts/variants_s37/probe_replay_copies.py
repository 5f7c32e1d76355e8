"""Thirty-seventh session: calls that copy an operand into row-major order (a layout the picked
config does not read) were never kept as plans, so every such call ran the whole general path:
the batched draw of seed 3505 timed 10 x 91x76x160 a.T @ b (float16) at 379 µs and
13 x 803x103x136 a @ b.T (bfloat16) at 335 µs against cuBLAS's 7.4 and 15.4 (mma_half's route
copies the transposed operand; its host work passed the 200 µs timing lead).

With replay_copies.patch applied, such a plan is kept and replay makes the same copy. Per row:
the result checked against float64 per element (NaN-poisoned out, the first call and a replayed
one), then host µs per call (300 calls, no synchronisation between them) with the plan kept and
with the plans cleared before every call (the old behaviour), and the events' µs of a flushed call
(200 µs spin ahead) for both.

    PYTHONPATH=. python3 scripts/variants_s37/probe_replay_copies.py
"""
import sys

import numpy as np

#: (count, M, N, K, A column-major, B column-major, dtype): the two rows of seed 3505, 2-D and
#: float32 transposed calls that copy (mma_half and the float32 rungs without layouts), and a
#: control that copies nothing
ROWS = [(10, 91, 76, 160, True, False, "float16"), (13, 803, 103, 136, False, True, "bfloat16"),
        (1, 91, 76, 160, True, False, "float16"), (8, 300, 200, 100, True, False, "float32"),
        (4, 500, 300, 64, False, True, "float64"), (16, 256, 256, 256, False, False, "float16")]


def main() -> int:
    import cupy
    import ml_dtypes

    import tiled_matmul as tm
    from tiled_matmul import execute, numerics
    from tiled_matmul.timing import host_us_per_call

    rs = np.random.default_rng(3705)
    print("| batch × M×N×K | dtype | a_col b_col | copies per call | max err / bound | host µs kept | host µs cleared |")
    print("|---|---|---|---:|---:|---:|---:|")
    for count, M, N, K, a_col, b_col, dname in ROWS:
        dt = ml_dtypes.bfloat16 if dname == "bfloat16" else np.dtype(dname)

        def mat(rows, cols, col):
            shape = (count, cols, rows) if col else (count, rows, cols)
            x = cupy.asarray(rs.uniform(-1, 1, shape).astype(dt))
            x = x.swapaxes(-1, -2) if col else x
            return x[0] if count == 1 else x

        A, B = mat(M, K, a_col), mat(K, N, b_col)
        shape = (M, N) if count == 1 else (count, M, N)
        out = cupy.empty(shape, dt)
        execute.clear_plans()
        worst, copies = 0.0, []
        for _ in range(3):  # the planning call, then replays on fresh data
            A[...] = cupy.asarray(rs.uniform(-1, 1, A.shape).astype(dt))
            numerics.poison(out)
            before = sum(execute.layout_copies_made.values())
            tm.matmul(A, B, out=out)
            copies.append(sum(execute.layout_copies_made.values()) - before)
            a64 = cupy.asnumpy(A).astype(np.float64)
            b64 = cupy.asnumpy(B).astype(np.float64)
            ref, scale = np.matmul(a64, b64), np.matmul(np.abs(a64), np.abs(b64))
            err = np.abs(cupy.asnumpy(out).astype(np.float64) - ref) / (2 * tm.tolerance(dname, K) * scale + 1e-30)
            worst = max(worst, float(np.nan_to_num(err, nan=np.inf).max()))
        kept = bool(execute._plans)
        call = lambda: tm.matmul(A, B, out=out)  # noqa: E731

        def cleared():
            execute.clear_plans()
            tm.matmul(A, B, out=out)

        us_kept = host_us_per_call(call, calls=300, wait=False)
        us_cleared = host_us_per_call(cleared, calls=300, wait=False)
        print(f"| {count} × {M}×{N}×{K} | {dname} | {int(a_col)} {int(b_col)} | {copies} (plan kept: {kept}) | "
              f"{worst:.3f} | {us_kept:.1f} | {us_cleared:.1f} |", flush=True)
        if worst > 1:
            print("  FAILED: error over the bound")
    return 0


if __name__ == "__main__":
    sys.exit(main())
