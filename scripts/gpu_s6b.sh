#!/usr/bin/env bash
# Sixth session: retune the small cubes (256^3-1024^3) now that the split-K rungs' search spaces
# hold the configs scripts/probe_small.py found fastest, then the public suite on the result.
#   1. tiled-matmul tune, float64 over dmma + dmma_split_k, float32 over wgmma + wgmma_split_k +
#      wgmma_tma_tf32, into a copy of the shipped database    -> $OUT/tuned_h100.json, $OUT/tune.log
#   2. benchmarks/shape_suite.py, both dtypes, with that copy as the shipped database (this
#      machine's working tree only)                                      -> $OUT/suite.log, $OUT/*.md
#   bash scripts/gpu_s6b.sh        (then copy $OUT/tuned_h100.json to tiled_matmul/data/)
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
cp tiled_matmul/data/tuned_h100.json "$OUT/tuned_h100.json"
SMALL="256 384 512 640 768 1024"
{ timeout 150 python3 -m tiled_matmul tune -s $SMALL -d float64 --json "$OUT/tune_f64.json" --strategies dmma,dmma_split_k \
      --db "$OUT/tuned_h100.json" -q
  timeout 150 python3 -m tiled_matmul tune -s $SMALL -d float32 --json "$OUT/tune_f32.json" --strategies wgmma,wgmma_split_k,wgmma_tma_tf32 \
      --db "$OUT/tuned_h100.json" -q; } > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
grep -iE "best|->|picked|x cuBLAS" "$OUT/tune.log" | head -30
cp "$OUT/tuned_h100.json" tiled_matmul/data/tuned_h100.json
timeout 330 python3 benchmarks/shape_suite.py --out "$OUT" > "$OUT/suite.log" 2>&1
echo "== suite rc=$? $(( $(date +%s) - T0 )) s"
grep -E "Geometric|^\| small" "$OUT/suite.log" | cut -c1-200
