#!/bin/bash
# fortieth session, after gpu_s40e.sh: b_rows with its copies unrolled (the loop that computed each
# address ran 1.7x slower than the probe's 4-byte kernel) and 56/224 setmaxnreg targets: the
# launch check per line pattern (own process), its GPU tests in 8 shards, the probe's table.
# About 150 s.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
sed -n '/^timeout 90 python3 - <<.PY./,/^PY$/p' scripts/gpu_s40d.sh > /tmp/check.sh
bash /tmp/check.sh > "$OUT/s40g_check.txt" 2>&1; cat "$OUT/s40g_check.txt"
[ "$(grep -c 'NaN left 0' "$OUT/s40g_check.txt")" = 4 ] || { echo "b_rows check failed"; exit 1; }
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-150} scripts/gpu_shards.sh s40g_tests tests/test_gpu_wgmma_tma_rows.py
timeout ${PROBE_S:-100} python3 scripts/variants_s40/probe_cp_b.py --kernels 128x128:vec > "$OUT/s40g_cpb_float16.md" 2>&1
echo "probe rc $?"; cat "$OUT/s40g_cpb_float16.md"
