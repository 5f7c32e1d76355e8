#!/bin/bash
# thirty-first session: held out — heuristic.HALF_TMA_PAD_MIN_K / HALF_TMA_PAD_FILL (wgmma_tma for a
# large 16-bit C with unaligned rows from K 128; set on gpu_s31d.sh's seed 3107 and 12 earlier draws)
# on fresh draws (float16 3109, bfloat16 3110: K 128-255, C of at least half a wave of 128 x 256
# tiles' area), auto against mma_half's default (the pick before); the auto GPU tests with the rule;
# and auto on three 16-bit shapes with unaligned C that were on wgmma_tma before (its new epilogue).
# Cache (CPU): probe_half_tma_short_k.py --held-out ... and probe_half_top.py ... --compile-only scratch/cubin_s31e
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s31e
nvidia-smi --query-gpu=name --format=csv,noheader
for a in "float16 3109" "bfloat16 3110"; do set -- $a
  timeout 100 python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype $1 --seed $2 --count 10 --held-out \
    > "$OUT/s31e_tma_pad_heldout_$1_$2.md" 2>&1; echo "held-out $1 rc $?"
done
timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_half.py -k auto > "$OUT/s31e_gpu_half_auto.log" 2>&1
echo "auto tests rc $?"; grep -E "^E|passed|failed" "$OUT/s31e_gpu_half_auto.log" | head -6
for dt in float16 bfloat16; do
  timeout 60 python3 scripts/variants_s31/probe_half_top.py --dtype $dt --shapes 3001x2999x3007,5001x2999x1000,2999x4001x513 \
    --top 1 > "$OUT/s31e_unaligned_c_$dt.md" 2>&1; echo "unaligned $dt rc $?"
done
for f in "$OUT"/s31e_tma_*.md; do echo "== $(basename $f)"; grep -E "geometric|failed" "$f"; grep -E "^\| [0-9]" "$f" | cut -c1-90; done
grep -hE "auto|cublas" "$OUT"/s31e_unaligned_c_*.md | cut -c1-100
