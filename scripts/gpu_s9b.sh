#!/usr/bin/env bash
# Ninth session: wgmma_tma_tf32 variants that cut the instructions (energy) per tile, each
# commit 805dd19's kernels/ (git archive: run from a git checkout) with a patch of
# scripts/variants_s9/ (v1: try_wait suspend hint; v2: + every B box copied, no column mask;
# v3: + Veltkamp rounding of B without the range guard, tf32). Correctness (the rung's GPU
# tests on v3), then tf32 / tf32x3 at 8192³ against cuBLAS in alternating blocks, each variant
# in its own process, two rounds; then ncu's instruction count and fixed-clock time.
#   bash scripts/gpu_s9b.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
for v in v0 v1 v2 v3; do
    rm -rf /tmp/r/$v; mkdir -p /tmp/r/$v
    cp -r pyproject.toml tiled_matmul scripts tests /tmp/r/$v/
    git archive 805dd19 kernels | tar -x -C /tmp/r/$v
    [ $v = v0 ] || patch -s -p1 -d /tmp/r/$v < scripts/variants_s9/$v.patch
done
(cd /tmp/r/v3 && OUT=$OUT NSHARD=6 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh tf32v3 tests/test_gpu_wgmma_tma_tf32.py)
echo "== tests $(( $(date +%s) - T0 )) s"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 100 > "$OUT/smi.csv" 2>/dev/null &
SMI=$!
for round in 1 2; do
    for v in v0 v1 v2 v3; do
        (cd /tmp/r/$v && PYTHONPATH=. timeout 100 python3 scripts/probe_clock.py --impl ours,cublas --mode tf32 --size 8192 \
            --blocks 6 --calls 200 2>&1 | sed "s/^/$v tf32 r$round /") | tee -a "$OUT/clock.log" | grep -c block > /dev/null
    done
    for v in v0 v2; do
        (cd /tmp/r/$v && PYTHONPATH=. timeout 100 python3 scripts/probe_clock.py --impl ours,cublas --mode tf32x3 --size 8192 \
            --blocks 4 --calls 80 2>&1 | sed "s/^/$v tf32x3 r$round /") | tee -a "$OUT/clock.log" > /dev/null
    done
done
kill $SMI
echo "== clocks $(( $(date +%s) - T0 )) s"
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg
for v in v0 v1 v3; do
    (cd /tmp/r/$v && PYTHONPATH=. timeout 100 ncu --kernel-name regex:wgmma_tma --launch-skip 2 --launch-count 1 --metrics $M \
        python3 scripts/probe_clock.py --impl ours --mode tf32 --size 8192 --blocks 1 --calls 3 2>&1 \
        | grep -E "^\s+(gpu__|smsp__|sm__)" | sed "s/^/$v /") | tee -a "$OUT/ncu.log"
done
echo "== ncu $(( $(date +%s) - T0 )) s"
python3 scripts/probe_clock.py --summary "$OUT/clock.log"
