#!/bin/bash
# fortieth session: wgmma_tma's b_rows (B read in place by the producer's cp.async where TMA
# cannot address it). (1) One launch per line pattern in a process of its own (a fault must not
# take the rest with it); (2) its GPU tests and test_gpu_wgmma_tma in 8 shards; (3) the probe's
# timed table: auto (now the b_rows sibling for these shapes), the probe's one-size and mixed
# kernels, cuBLAS. About 350 s.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
timeout 90 python3 - <<'PY' 2>&1 | tail -6
import cupy as cp, tiled_matmul as tm
from tiled_matmul.strategies.wgmma_tma import tma_matmul
cfg = tm.STRATEGIES["wgmma_tma"].default.replace(cluster_m=1, b_rows=1)
for off, extra in ((0, 0), (2, 0), (0, 2), (2, 2)):
    K, N, M = 296, 1002, 70  # (A's rows on 16 bytes: tma_matmul does not pad)
    pitch = 1004 + extra
    full = cp.random.default_rng(1).uniform(-1, 1, K * pitch + off).astype(cp.float16)
    b = full[off:].reshape(K, pitch)[:, :N]
    a = cp.random.default_rng(2).uniform(-1, 1, (M, K)).astype(cp.float16)
    c = cp.full((M, N), cp.nan, cp.float16)
    tma_matmul(a, b, c, config=cfg); cp.cuda.Device().synchronize()
    ref = a.astype(cp.float64) @ b.astype(cp.float64)
    err = float(cp.nanmax(cp.abs(c.astype(cp.float64) - ref) / (cp.abs(a.astype(cp.float64)) @ cp.abs(b.astype(cp.float64)))))
    print(f"b_rows base+{2*off}B pitch {2*pitch}B: NaN left {int(cp.isnan(c).sum())}, max error {err:.3g}")
PY
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-200} scripts/gpu_shards.sh s40d_tests tests/test_gpu_wgmma_tma_rows.py tests/test_gpu_wgmma_tma.py
timeout ${PROBE_S:-150} python3 scripts/variants_s40/probe_cp_b.py --kernels 128x128:vec,128x128:mix,128x64:mix \
  > "$OUT/s40d_cpb_float16.md" 2>&1
echo "probe rc $?"; cat "$OUT/s40d_cpb_float16.md"
