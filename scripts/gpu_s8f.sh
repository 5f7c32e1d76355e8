#!/usr/bin/env bash
# Eighth session, after the split reduce's lanes and early start:
#   1. compute-sanitizer (memcheck, racecheck, synccheck) over scripts/sanitize_split.py;
#   2. tiled-matmul tune of the float64 split-K shapes (small cubes, long K, decode) into $OUT/db.json;
#   3. benchmarks/shape_suite.py, float64, classes small / long K / gemv: the shipped database, then
#      $OUT/db.json as the user database              -> $OUT/suite_shipped.log, $OUT/suite_tuned.log
#   bash scripts/gpu_s8f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
SAN_TIMEOUT=100 scripts/gpu_sanitize.sh memcheck,racecheck,synccheck scripts/sanitize_split.py
echo "== sanitizer $(( $(date +%s) - T0 )) s"
timeout 300 python3 -m tiled_matmul tune -s 256 384 512 640 768 64x64x65536 256x256x131072 32x1024x32768 \
    1024x32x32768 32x4096x4096 64x8192x8192 -d float64 --strategies dmma,dmma_split_k \
    --db "$OUT/db.json" --json "$OUT/tune64.json" -q > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
tail -n 14 "$OUT/tune.log" | cut -c1-220
timeout 90 python3 benchmarks/shape_suite.py --dtypes float64 --classes "small;long K;gemv" > "$OUT/suite_shipped.log" 2>&1
echo "== shipped rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^\| (small|long|gemv)|Geometric" "$OUT/suite_shipped.log" | cut -c1-220
TILED_MATMUL_TUNE_DB="$OUT/db.json" timeout 90 python3 benchmarks/shape_suite.py --dtypes float64 \
    --classes "small;long K;gemv" > "$OUT/suite_tuned.log" 2>&1
echo "== tuned rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^\| (small|long|gemv)|Geometric" "$OUT/suite_tuned.log" | cut -c1-220
