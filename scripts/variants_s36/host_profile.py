"""Thirty-sixth session: where a batched 16-bit call's host time goes (batched_routes.py measured
auto at 31-480 µs of host time per call against torch's 16-31 µs). For each row: host µs per call
(no synchronisation between calls), then cProfile's top functions over 300 calls.

    PYTHONPATH=. python3 scripts/variants_s36/host_profile.py
"""
import cProfile
import io
import pstats
import sys

ROWS = [(64, 217, 832, 96, False, False, ""), (36, 1918, 289, 361, True, False, ""),
        (7, 103, 229, 658, False, True, ""), (11, 78, 808, 929, True, False, "b")]


def main() -> int:
    import cupy
    import numpy as np

    import tiled_matmul as tm
    from tiled_matmul.timing import host_us_per_call

    rs = np.random.default_rng(0)
    for count, M, N, K, a_col, b_col, shared in ROWS:
        def mat(rows, cols, col):
            x = cupy.asarray(rs.uniform(-1, 1, (count, cols, rows) if col else (count, rows, cols)).astype(np.float16))
            return x.swapaxes(-1, -2) if col else x

        A, B = mat(M, K, a_col), mat(K, N, b_col)
        A, B = (A[0] if shared == "a" else A), (B[0] if shared == "b" else B)
        out = cupy.empty((count, M, N), np.float16)
        call = lambda: tm.matmul(A, B, out=out)  # noqa: E731
        us = host_us_per_call(call, calls=300, wait=False)
        print(f"## {count}x{M}x{N}x{K} a_col {a_col} b_col {b_col} shared {shared or '-'}: host {us:.1f} µs per call")
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(300):
            call()
        prof.disable()
        cupy.cuda.Device().synchronize()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(22)
        print("\n".join(line[:160] for line in buf.getvalue().splitlines()[6:34]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
