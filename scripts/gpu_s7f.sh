#!/usr/bin/env bash
# Seventh session: the board's power limit; tf32x3 rn vs truncated-A split in one process
# (scripts/probe_tf32x3_ab.py, clocks and power per block); the GPU tests of the host-path
# changes (api, _launch_fast, the TMA tf32 launch plan); the TMA rungs' host overhead; ncu's
# per-instruction stall samples of the tf32x3 kernel (-> $OUT/x3_source.csv).
#   bash scripts/gpu_s7f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
nvidia-smi -q -d POWER,CLOCK | grep -i -E "power limit|max clocks|^ +SM +:" | head -12
timeout 120 python3 scripts/probe_tf32x3_ab.py --size 8192 --rounds 6 --calls 20 2>&1 | tee "$OUT/ab8192.log" | tail -6
timeout 100 python3 scripts/probe_tf32x3_ab.py --size 4096 --rounds 6 --calls 100 2>&1 | tee "$OUT/ab4096.log" | tail -4
echo "== ab $(( $(date +%s) - T0 )) s"
NSHARD=8 SHARD_TIMEOUT=300 scripts/gpu_shards.sh tests tests/test_gpu_core.py tests/test_gpu_fast.py \
    tests/test_gpu_wgmma_tma.py tests/test_gpu_wgmma_tma_tf32.py tests/test_robustness_gpu.py
echo "== tests $(( $(date +%s) - T0 )) s"
timeout 150 python3 scripts/probe_host_tma.py > "$OUT/host.log" 2>&1
echo "== host rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^  (float|bfloat)" "$OUT/host.log"
timeout 150 ncu --set full --import-source yes -k regex:tm_wgmma_tma_tf32 --launch-skip 2 --launch-count 1 -o "$OUT/x3" \
    python3 scripts/probe_tf32x3.py --sizes 4096 --modes tf32x3 --repeat 5 > "$OUT/ncu_run.log" 2>&1
echo "== ncu rc=$? $(( $(date +%s) - T0 )) s"
ncu -i "$OUT/x3.ncu-rep" --page source --csv --print-source sass > "$OUT/x3_source.csv" 2>"$OUT/ncu_src.err"
echo "source csv rc=$? lines $(wc -l < "$OUT/x3_source.csv")"; head -c 600 "$OUT/ncu_src.err"
ncu -i "$OUT/x3.ncu-rep" --page details --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
    > "$OUT/x3_details.txt" 2>&1
rm -f "$OUT/x3.ncu-rep"
grep -E "Pipe Tensor Cycles|Issue Slots Busy|Stall (Wait|Long|Barrier|Dispatch|MIO|Short|Math)|Bank" "$OUT/x3_details.txt" | head -20
