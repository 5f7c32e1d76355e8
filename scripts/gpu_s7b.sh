#!/usr/bin/env bash
# Seventh session: tf32x3 variants of wgmma_tma_tf32 (template switches, one process each:
# TM_PART_STEPS steps per partial tile, TM_A_TRUNC A's big part as its own bits, TM_ORDERED the
# consumers' turns at the tensor core), ncu of the ordered one, host overhead of the TMA rungs.
#   bash scripts/gpu_s7b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
for v in "1 0 0" "1 1 0" "1 1 1" "2 1 1" "2 1 0" "1 1 1" "1 0 0"; do
    set -- $v
    TM_PART_STEPS=$1 TM_A_TRUNC=$2 TM_ORDERED=$3 timeout 150 python3 scripts/probe_tf32x3.py \
        --sizes 4096,8192,3001x2999x3007,129x257x100 --label "ps$1 trunc$2 ord$3" --modes tf32x3 2>&1 \
        | tee -a "$OUT/probe.log" | grep "^|"
done
echo "== probes $(( $(date +%s) - T0 )) s"
TM_A_TRUNC=1 TM_ORDERED=1 timeout 120 ncu --kernel-name regex:wgmma_tma_tf32 --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis \
    python3 scripts/probe_tf32x3.py --sizes 4096 --modes tf32x3 --repeat 5 > "$OUT/ncu_ordered.txt" 2>&1
echo "== ncu rc=$? $(( $(date +%s) - T0 )) s"
grep -E "SM Frequency|Duration|Pipe Tensor Cycles|Issue Slots Busy" "$OUT/ncu_ordered.txt"
timeout 120 python3 scripts/probe_host_tma.py > "$OUT/host.log" 2>&1
echo "== host rc=$? $(( $(date +%s) - T0 )) s"
cat "$OUT/host.log" | tail -20
