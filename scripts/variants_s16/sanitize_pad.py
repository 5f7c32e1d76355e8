"""compute-sanitizer workload of the padding copies (tiled_matmul.pad): `auto` on products whose
operand rows are not 16-byte aligned, through wgmma_tma's padded copies (float16), mma_half_split_k's
(bfloat16) and wgmma_tma_tf32's (float32), each checked. Prints "sanitize run done" last.

    compute-sanitizer --tool memcheck python3 scripts/variants_s16/sanitize_pad.py
"""

from __future__ import annotations

import cupy as cp
import numpy as np

import tiled_matmul as tm


def main() -> None:
    gen = cp.random.default_rng(3)
    for dt, (M, N, K) in [("float16", (4124, 291, 485)), ("bfloat16", (1001, 333, 777)), ("float32", (3001, 2999, 3007)),
                          ("float32", (301, 299, 307))]:
        a = (gen.random((M, K), dtype=np.float32) * 2 - 1).astype(dt)
        b = (gen.random((K, N), dtype=np.float32) * 2 - 1).astype(dt)
        c = tm.matmul(a, b)
        pick = tm.kernel("auto").kernel_for(M, N, K, dt).strategy.name
        assert tm.check(c, a, b).passed, (dt, M, N, K, pick)
        print(dt, (M, N, K), pick, "ok", flush=True)
    cp.cuda.Device().synchronize()
    print("sanitize run done", flush=True)


if __name__ == "__main__":
    main()
