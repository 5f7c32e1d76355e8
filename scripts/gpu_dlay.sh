#!/usr/bin/env bash
# dmma reading one transposed operand in place (As[k][m] / swizzled Bs[n][k] tiles, 16-byte
# copies, interior fixed-pointer loop for layout kernels). Logs under $OUT.
#   bash scripts/gpu_dlay.sh        # tests, every config x layout x ragged shape, sanitizer, bench
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 400 python3 -m pytest -q -m gpu tests/test_gpu_layouts.py tests/test_gpu_dmma.py -k "dmma or auto" \
    -p no:cacheprovider > "$OUT/tests.log" 2>&1; tail -3 "$OUT/tests.log" | cut -c1-300
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
tail -8 "$OUT/sweep.log" | cut -c1-300
timeout 300 compute-sanitizer --tool memcheck --error-exitcode 99 python3 - > "$OUT/san_memcheck.log" 2>&1 <<'PY'
import cupy as cp, numpy as np, tiled_matmul as tm
rng = np.random.default_rng(1)
for kw in [{}, dict(bm=128, bn=64, min_blocks=2), dict(bm=64, bn=64, bk=8, wm=32, wn=32, stages=4, min_blocks=3)]:
    for (M, N, K) in [(33, 65, 17), (256, 256, 50), (129, 127, 33)]:
        for ta, tb in [(True, False), (False, True)]:
            a = cp.asarray(rng.uniform(-1, 1, (K, M) if ta else (M, K))); a = a.T if ta else a
            b = cp.asarray(rng.uniform(-1, 1, (N, K) if tb else (K, N))); b = b.T if tb else b
            c = tm.matmul(a, b, strategy="dmma", **kw)
            assert float(cp.abs(c - cp.matmul(a, b)).max()) < 1e-12
print("memcheck runs done")
PY
echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|runs done" "$OUT/san_memcheck.log"
timeout 300 compute-sanitizer --tool racecheck --error-exitcode 99 python3 - > "$OUT/san_racecheck.log" 2>&1 <<'PY'
import cupy as cp, numpy as np, tiled_matmul as tm
rng = np.random.default_rng(2)
for (M, N, K) in [(256, 256, 50), (129, 127, 33)]:
    for ta, tb in [(True, False), (False, True)]:
        a = cp.asarray(rng.uniform(-1, 1, (K, M) if ta else (M, K))); a = a.T if ta else a
        b = cp.asarray(rng.uniform(-1, 1, (N, K) if tb else (K, N))); b = b.T if tb else b
        c = tm.matmul(a, b, strategy="dmma")
        assert float(cp.abs(c - cp.matmul(a, b)).max()) < 1e-12
print("racecheck runs done")
PY
echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|runs done" "$OUT/san_racecheck.log"
timeout 300 python3 benchmarks/transposes.py --strategies auto,dmma --repeat 20 > "$OUT/transposes.log" 2>&1
tail -14 "$OUT/transposes.log" | cut -c1-260
