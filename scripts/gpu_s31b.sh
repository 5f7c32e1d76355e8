#!/bin/bash
# thirty-first session: (1) held out — 16-bit A·x on the GEMV rungs from K 48 (set from gpu_s31a.sh's
# seed 3101), fresh A·x draws (float16 3105, bfloat16 3106); (2) short-K 16-bit products with
# unaligned rows (probe_half_short_k.py); (3) the 16-bit sweep lows against the model's candidates.
# Cache (CPU): the --compile-only forms of each into scratch/cubin_s31b
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s31b
nvidia-smi --query-gpu=name --format=csv,noheader
for a in "float16 3105" "bfloat16 3106"; do set -- $a
  timeout 90 python3 scripts/variants_s31/probe_half_gemv_k.py --dtype $1 --seed $2 --count 16 --limit 48 --side ax \
    > "$OUT/s31b_half_gemv_k48_$1_$2.md" 2>&1; echo "held-out $1 rc $?"
done
timeout 200 python3 scripts/variants_s31/probe_half_short_k.py --dtype float16 --seed 3103 --count 8 \
  > "$OUT/s31b_half_short_k_float16_3103.md" 2>&1; echo "short-k rc $?"
S16="387x116x1540,29x1637x173,24x10x725,7203x16x11129,3x1185x419,62x1365x421,2236x64x1215,139x283x2171,1031x723x249,2x60x114"
timeout 150 python3 scripts/variants_s31/probe_half_top.py --dtype float16 --shapes $S16 --top 6 \
  > "$OUT/s31b_half_top_float16.md" 2>&1; echo "top rc $?"
for f in "$OUT"/s31b_*.md; do echo "== $(basename $f)"; grep -E "geometric|failures|failed" "$f" | head -12; done
grep -E "^\| [0-9]" "$OUT/s31b_half_short_k_float16_3103.md" | cut -c1-230
grep -E "\*" "$OUT/s31b_half_top_float16.md"
