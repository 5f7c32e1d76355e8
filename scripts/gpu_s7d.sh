#!/usr/bin/env bash
# Seventh session: tf32x3 with the consumers' turns, A split to nearest vs A's big part truncated
# by the tensor core (TM_A_TRUNC=1): speed (alternating processes) and the numerics suites.
#   bash scripts/gpu_s7d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
for r in 1 2 3; do
    for t in 0 1; do
        TM_A_TRUNC=$t timeout 100 python3 scripts/probe_tf32x3.py --sizes 4096,8192,3001x2999x3007 \
            --label "x3 trunc$t run$r" --modes tf32x3 2>&1 | tee -a "$OUT/probe.log" | grep "^|"
    done
done
echo "== probes $(( $(date +%s) - T0 )) s"
for t in 0 1; do
    TM_A_TRUNC=$t NSHARD=4 SHARD_TIMEOUT=200 scripts/gpu_shards.sh "numerics_trunc$t" tests/test_gpu_wgmma_tma_tf32.py \
        tests/test_gpu_precision.py -k "numerics"
done
echo "== tests $(( $(date +%s) - T0 )) s"
