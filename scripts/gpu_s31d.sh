#!/bin/bash
# thirty-first session: wgmma_tma's 16-bit C that TMA cannot store, staged through shared memory and
# copied out row by row (kernels/15_wgmma_tma.cu.j2). (1) correctness: the full call on ragged,
# unaligned and offset C (check_tma_unaligned_c.py), the wgmma_tma GPU tests, memcheck;
# (2) timings: probe_half_tma_short_k.py on gpu_s31c.sh's shapes (set: seed 3107 + the fixed 12;
# held out: 3108, float16 and bfloat16); (3) the rule (half_tma_pad_fill.patch) applied, auto's
# picks checked through test_gpu_half.py's auto tests.
# Cache (CPU): the --compile-only forms into scratch/cubin_s31d, and wgmma_tma's configs.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s31d
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 60 python3 scripts/variants_s31/check_tma_unaligned_c.py > "$OUT/s31d_check.txt" 2>&1; echo "check rc $?"
tail -1 "$OUT/s31d_check.txt"
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_wgmma_tma.py > "$OUT/s31d_gpu_wgmma_tma_tests.log" 2>&1
echo "tests rc $?"; grep -E "^E|passed|failed" "$OUT/s31d_gpu_wgmma_tma_tests.log" | head -6
timeout 150 python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype float16 --seed 3107 --count 8 --fixed \
  > "$OUT/s31d_tma_short_k_float16_3107.md" 2>&1; echo "set rc $?"
for dt in float16 bfloat16; do
  timeout 90 python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype $dt --seed 3108 --count 8 \
    > "$OUT/s31d_tma_short_k_${dt}_3108.md" 2>&1; echo "held-out $dt rc $?"
done
for f in "$OUT"/s31d_tma_*.md; do echo "== $(basename $f)"; grep -E "geometric|failed" "$f"; done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/variants_s31/check_tma_unaligned_c.py --quick \
  > "$OUT/s31d_memcheck.txt" 2>&1; echo "memcheck rc $?"; tail -2 "$OUT/s31d_memcheck.txt"
patch -p1 -s < scripts/variants_s31/half_tma_pad_fill.patch && echo patched
timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_half.py -k auto > "$OUT/s31d_gpu_half_auto.log" 2>&1
echo "auto tests rc $?"; grep -E "^E|passed|failed" "$OUT/s31d_gpu_half_auto.log" | head -6
