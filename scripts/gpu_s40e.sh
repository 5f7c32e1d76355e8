#!/bin/bash
# fortieth session, one call for what the device time left allows: (1) b_rows' launch check per
# line pattern in its own process (gpu_s40d.sh's); (2) with variants_s39/gemm_replay.patch applied,
# in 8 shards: test_gpu_wgmma_tma_rows (unless (1) faulted), test_gpu_wgmma_tma, test_gpu_replay,
# test_gpu_gemm; (3) the cp.async probe's timed table (auto = the b_rows sibling now); (4)
# host_overhead at 64^3. About 500 s.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
sed -n '/^timeout 90 python3 - <<.PY./,/^PY$/p' scripts/gpu_s40d.sh > /tmp/check.sh
bash /tmp/check.sh > "$OUT/s40e_check.txt" 2>&1; cat "$OUT/s40e_check.txt"
ROWS=tests/test_gpu_wgmma_tma_rows.py
if [ "$(grep -c 'NaN left 0' "$OUT/s40e_check.txt")" != 4 ]; then echo "b_rows check failed: its tests left out"; ROWS=; fi
git apply scripts/variants_s39/gemm_replay.patch || { echo "gemm_replay.patch did not apply"; exit 1; }
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-250} scripts/gpu_shards.sh s40e_tests $ROWS tests/test_gpu_wgmma_tma.py \
  tests/test_gpu_replay.py tests/test_gpu_gemm.py
timeout ${PROBE_S:-110} python3 scripts/variants_s40/probe_cp_b.py --kernels 128x128:vec,128x64:mix \
  > "$OUT/s40e_cpb_float16.md" 2>&1
echo "probe rc $?"; cat "$OUT/s40e_cpb_float16.md"
timeout 45 python3 benchmarks/host_overhead.py --calls 1000 > "$OUT/s40e_host_overhead.txt" 2>&1
echo "host_overhead rc $?"; cat "$OUT/s40e_host_overhead.txt"
