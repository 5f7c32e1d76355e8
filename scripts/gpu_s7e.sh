#!/usr/bin/env bash
# Seventh session: wgmma_tma_tf32 with the consumers' turns (final template): tf32x3 and tf32 at
# 4096^3 / 8192^3 over a few stages / group_m settings, with the SM clock, power and throttle
# reasons sampled every 100 ms (-> $OUT/smi.csv); then the TMA rungs' host overhead at 64^3 with
# a profile of the named-strategy calls; the rung's GPU tests and the sanitizer on the new barrier.
#   bash scripts/gpu_s7e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv -lms 100 > "$OUT/smi.csv" 2>&1 &
SMI=$!
for r in 1 2; do
    timeout 150 python3 scripts/probe_tf32x3.py --sizes 4096,8192 --repeat 60 --label "x3 run$r" --modes tf32x3 \
        --params ";group_m=16;group_m=4;stages=3;stages=5" 2>&1 | tee -a "$OUT/probe.log" | grep "^|"
    echo "== $(date +%T.%N | cut -c1-12) x3 run$r done" >> "$OUT/marks.txt"
    timeout 100 python3 scripts/probe_tf32x3.py --sizes 4096,8192 --repeat 60 --label "tf32 run$r" --modes tf32 \
        --params ";group_m=16;stages=5" 2>&1 | tee -a "$OUT/probe.log" | grep "^|"
    echo "== $(date +%T.%N | cut -c1-12) tf32 run$r done" >> "$OUT/marks.txt"
done
kill $SMI
echo "== probes $(( $(date +%s) - T0 )) s"
python3 - "$OUT/smi.csv" <<'PY'
import sys, statistics
rows = [l.split(", ") for l in open(sys.argv[1]).read().splitlines()[1:] if l.count(",") >= 4]
busy = [r for r in rows if float(r[2].split()[0]) > 300]
if busy:
    clk = [float(r[1].split()[0]) for r in busy]; pw = [float(r[2].split()[0]) for r in busy]
    print(f"samples over 300 W: {len(busy)}; SM clock MHz median {statistics.median(clk):.0f} min {min(clk):.0f}; "
          f"power W median {statistics.median(pw):.0f} max {max(pw):.0f}; reasons {sorted(set(r[4] for r in busy))}")
PY
NSHARD=8 SHARD_TIMEOUT=300 scripts/gpu_shards.sh tests tests/test_gpu_wgmma_tma_tf32.py \
    tests/test_gpu_wgmma_tma_tf32_layouts.py tests/test_gpu_layouts.py tests/test_gpu_replay.py tests/test_gpu_precision.py \
    -k "wgmma_tma_tf32 or replay or precision or tf32x3 or numerics"
echo "== tests $(( $(date +%s) - T0 )) s"
SAN_TIMEOUT=120 scripts/gpu_sanitize.sh racecheck,synccheck,memcheck scripts/probe_tf32x3.py \
    --sizes 300x260x200,129x257x1000 --modes tf32x3 --repeat 5
SAN_TIMEOUT=120 scripts/gpu_sanitize.sh racecheck,synccheck scripts/sanitize_tma_tf32.py --col b --nan
echo "== sanitizer $(( $(date +%s) - T0 )) s"
timeout 150 python3 scripts/probe_host_tma.py --profile > "$OUT/host.log" 2>&1
echo "== host rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^  (float|bfloat)" "$OUT/host.log"
