"""A few small b_shift launches for compute-sanitizer (memcheck, racecheck, synccheck): wgmma_tma's
128 x 128 and 128 x 256 shift siblings and the split's, float16, odd N, B's base on 8 and 4 bytes;
each result checked against float64 (prints one line per case, then PASS/FAIL).

    (needs scripts/variants_s42/b_shift.patch applied)
    PYTHONPATH=. compute-sanitizer --tool racecheck python3 scripts/variants_s42/shift_small.py
"""
import cupy as cp

import tiled_matmul as tm
from tiled_matmul.bits16 import NAN_BITS, componentwise_error, error_bound, to_bits, to_f64
from tiled_matmul.strategies.wgmma_tma import tma_matmul


def bits(rows, cols, pitch, offset, seed):
    rng = cp.random.default_rng(seed)
    full = to_bits(rng.uniform(-1.0, 1.0, (rows * pitch + offset,), dtype=cp.float32), "float16")
    return full[offset:].reshape(rows, pitch)[:, :cols]


ok = True
e = tm.STRATEGIES["wgmma_tma"]
for cfg in (e.make_config(bm=128, bn=128, stages=5).shift_sibling(), e.default.shift_sibling()):
    for M, N, K, offset in [(64, 201, 200, 0), (33, 129, 70, 2), (128, 65, 3, 0)]:
        a, b = bits(M, K, -(-K // 8) * 8, 0, 1), bits(K, N, N, offset, 2)
        c = cp.full((M, N), NAN_BITS["float16"], dtype=cp.uint16)
        tma_matmul(a, b, c, dtype="float16", config=cfg)
        a64, b64 = to_f64(a, "float16"), to_f64(b, "float16")
        err = componentwise_error(to_f64(c, "float16"), a64 @ b64, cp.abs(a64) @ cp.abs(b64))
        good = err <= error_bound("float16", K, 16) and not bool(cp.isnan(to_f64(c, "float16")).any())
        ok &= good
        print(cfg.tag(), M, N, K, offset, f"{err:.2e}", "ok" if good else "BAD", flush=True)
k = tm.kernel("wgmma_tma_split_k", split_k=4)
a, b = bits(16, 2000, 2000, 0, 3), bits(2000, 301, 301, 0, 4)
c = k(a.view(cp.float16), b.view(cp.float16)).view(cp.uint16)
a64, b64 = to_f64(a, "float16"), to_f64(b, "float16")
err = componentwise_error(to_f64(c, "float16"), a64 @ b64, cp.abs(a64) @ cp.abs(b64))
ok &= err <= error_bound("float16", 2000, 16)
print("split_k4 16 301 2000", f"{err:.2e}")
print("PASS" if ok else "FAIL")
