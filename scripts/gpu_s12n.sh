#!/usr/bin/env bash
# Twelfth session (H100): gemv_ax with A staged through shared memory by cp.async, ASTAGES - 1
# steps ahead, each thread copying exactly what it later reads (astages > 1; run on the tree with
# variants_s12/gemv_ax_astages.patch, applied), against A loaded into registers (astages=1), fixed configs
# in alternating rounds; float32 memory-bound A.x shapes and float64 8192x8x8192.
#   bash scripts/gpu_s12n.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
specs=()
for a in 1 2 3 4 6; do specs+=("8192x8x8192@float32:gemv_ax:nt=8,rows=4,unroll=1,astages=$a"); done
for a in 1 3; do specs+=("8192x8x8192@float32:gemv_ax:nt=8,rows=4,unroll=1,threads=128,min_blocks=4,astages=$a"); done
for a in 1 4; do
    specs+=("8192x8x8192@float32:gemv_ax:nt=8,rows=2,unroll=1,astages=$a"
            "4096x8x16384@float32:gemv_ax:nt=8,rows=4,unroll=1,astages=$a"
            "8192x1x8192@float32:gemv_ax:nt=1,rows=4,unroll=1,astages=$a"
            "16384x4x4096@float32:gemv_ax:nt=4,rows=4,unroll=1,astages=$a"
            "8192x8x8192:gemv_ax:nt=8,rows=4,unroll=1,astages=$a")
done
specs+=(8192x8x8192@float32 8192x1x8192@float32 4096x8x16384@float32 16384x4x4096@float32 8192x8x8192)
timeout 400 python3 scripts/variants_s12/compare.py - tree 3 "${specs[@]}" > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -26 "$OUT/compare.log"
