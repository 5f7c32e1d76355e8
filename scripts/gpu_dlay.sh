#!/usr/bin/env bash
# dmma's interior copies (fixed per-thread pointers, every layout, plain too) and its K step (the
# next stage's copies interleaved with the DMMAs, no branch), on one GPU. Logs under $OUT; a short
# table last. About 4 minutes on an H100:
#   bash scripts/gpu_dlay.sh            # GPU tests (sharded), transposes, float64 vs cuBLAS
#   bash scripts/gpu_dlay.sh --long     # also: every config x layout x ragged shape and leading
#                                       # dimension with no copy, memcheck and racecheck (+6 min)
# Env: NSHARD (pytest processes side by side, default 4), TESTS_K (pytest -k, default "dmma or
# auto": the kernels this branch changes; empty for both files whole).
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=${NSHARD:-4}
TESTS_K=${TESTS_K-dmma or auto}
LONG=0; [ "${1:-}" = --long ] && LONG=1
T0=$(date +%s)

# 1. GPU tests, NSHARD pytest processes side by side (scripts/gpu_shards.sh -> $OUT/tests.log)
SHARDS=$(NSHARD=$NSHARD SHARD_TIMEOUT=200 scripts/gpu_shards.sh tests tests/test_gpu_dmma.py tests/test_gpu_layouts.py \
    ${TESTS_K:+-k "$TESTS_K"} -rs)
echo "== tests ($(( $(date +%s) - T0 )) s)"
echo "$SHARDS"

# 2. transposed operands read in place against the contiguous product, 4096^3
timeout 150 python3 benchmarks/transposes.py --strategies auto,dmma --repeat 10 > "$OUT/transposes.log" 2>&1
echo "== transposes rc=$? ($(( $(date +%s) - T0 )) s)"

# 3. float64: cuBLAS DGEMM, dmma's default config, auto (and warp_tiled's FP64 FMAs for scale);
#    L2 flushed before every repeat, medians (tiled_matmul.measure / timing)
timeout 200 python3 benchmarks/dmma.py --sizes 2048,4096,8192,3001x2999x3007 --configs default --repeat 10 \
    --budget 1.5 --out "$OUT" > "$OUT/dmma.log" 2>&1
echo "== float64 vs cuBLAS rc=$? ($(( $(date +%s) - T0 )) s)"

if [ $LONG = 1 ]; then
timeout 400 python3 - > "$OUT/sweep.log" 2>&1 <<'PY'
import cupy as cp, numpy as np, tiled_matmul as tm
from tiled_matmul import execute
rng = np.random.default_rng(0)
def operand(rows, cols, col, pad, off):
    # rows x cols, column-major (a transpose) or row-major, leading dimension + pad, start + off
    base = cp.asarray(rng.uniform(-1, 1, ((cols, rows + pad + off) if col else (rows, cols + pad + off))))
    return base[:, off:off + rows].T if col else base[:, off:off + cols]
bad = runs = 0
shapes = [(1, 1, 1), (7, 7, 7), (33, 33, 33), (127, 129, 33), (129, 127, 129), (1000, 1000, 1000),
          (1000, 129, 127), (256, 256, 50), (256, 256, 33)]
for cfg in tm.STRATEGIES["dmma"].configs:
    for ta, tb in [(True, False), (False, True), (True, True), (False, False)]:
        for (M, N, K) in shapes:
            for pad, off in [(0, 0), (1, 0), (3, 0), (2, 1)]:
                a, b = operand(M, K, ta, pad, off), operand(K, N, tb, pad, off)
                execute.layout_copies_made.clear()
                c = tm.matmul(a, b, strategy="dmma", **cfg.params())
                ref = cp.matmul(cp.ascontiguousarray(a), cp.ascontiguousarray(b))
                scale = cp.matmul(cp.abs(a), cp.abs(b)) + 1e-300
                err = float((cp.abs(c - ref) / scale).max())
                runs += 1
                copied = sum(execute.layout_copies_made.values())
                if not err <= 2 * tm.tolerance("float64", max(K, 1)) or copied:
                    bad += 1
                    print("BAD", cfg.tag(), ta, tb, (M, N, K), pad, off, err, dict(execute.layout_copies_made))
# batched, transposed A, odd K
a = cp.asarray(rng.uniform(-1, 1, (3, 33, 129))).swapaxes(-1, -2); b = cp.asarray(rng.uniform(-1, 1, (3, 33, 127)))
c = tm.matmul(a, b, strategy="dmma"); runs += 1
bad += float(cp.abs(c - cp.matmul(a, b)).max()) > 1e-12
print(f"sweep: {runs} runs, {bad} bad")
PY
echo "== sweep"; tail -8 "$OUT/sweep.log" | cut -c1-300
for tool in memcheck racecheck; do
timeout 300 compute-sanitizer --tool $tool --error-exitcode 99 python3 - > "$OUT/san_$tool.log" 2>&1 <<'PY'
import cupy as cp, numpy as np, tiled_matmul as tm
rng = np.random.default_rng(1)
for kw in [{}, dict(bm=128, bn=64, min_blocks=2), dict(bm=64, bn=64, bk=8, wm=32, wn=32, stages=4, min_blocks=3)]:
    for (M, N, K) in [(33, 65, 17), (256, 256, 50), (129, 127, 33), (256, 256, 64)]:
        for ta, tb in [(False, False), (True, False), (False, True)]:
            a = cp.asarray(rng.uniform(-1, 1, (K, M) if ta else (M, K))); a = a.T if ta else a
            b = cp.asarray(rng.uniform(-1, 1, (N, K) if tb else (K, N))); b = b.T if tb else b
            c = tm.matmul(a, b, strategy="dmma", **kw)
            assert float(cp.abs(c - cp.matmul(a, b)).max()) < 1e-12
print("sanitizer runs done")
PY
echo "== $tool rc=$?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|runs done" "$OUT/san_$tool.log"
done
fi

# the short table: transposes (4096^3, ms, ratio to the contiguous product), then float64 vs cuBLAS
echo "== transposes (tail of $OUT/transposes.log)"
tail -14 "$OUT/transposes.log" | cut -c1-230
echo "== float64 (ms, TF/s, x cuBLAS; $OUT/dmma.log)"
grep -E "cuBLAS|auto|dmma bm" "$OUT/dmma.log" | cut -c1-125
echo "== total $(( $(date +%s) - T0 )) s"
