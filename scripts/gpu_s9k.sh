#!/usr/bin/env bash
# Ninth session: dmma's interior copies past K point at column 0 of their rows (one offset select
# per step; scripts/variants_s9/dmma_off.patch, applied in this checkout; "base" reverses it):
# bits against base, ncu's fixed-clock time of each twice (4096³, cuBLAS's tile), alternating blocks
# against cuBLAS, then the dmma, dmma_split_k and dmma layout GPU tests and memcheck on the new code.
#   bash scripts/gpu_s9k.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
rm -rf /tmp/r/base /tmp/r/off; mkdir -p /tmp/r/base /tmp/r/off
for v in base off; do cp -r pyproject.toml tiled_matmul scripts tests kernels /tmp/r/$v/; done
patch -s -R -p1 -d /tmp/r/base < scripts/variants_s9/dmma_off.patch
timeout 200 python3 scripts/variants_s9/compare64.py /tmp/r base,off 2>&1 | tee "$OUT/compare64.log"
for r in 1 2; do
    for v in base off; do
        (cd /tmp/r/$v && PYTHONPATH=. timeout 100 ncu --kernel-name regex:dmma --launch-skip 2 --launch-count 1 \
            --metrics gpu__time_duration.sum,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active \
            python3 scripts/probe_clock.py --impl ours --mode float64 --size 4096 --blocks 1 --calls 3 2>&1 \
            | grep -E "^\s+(gpu__|sm__)" | sed "s/^/$v r$r /")
    done
done
bash scripts/clock_rounds.sh "$OUT/clock64.log" float64 2 /tmp/r "base off" "4096:200 8192:30"
echo "== timing $(( $(date +%s) - T0 )) s"
cd /tmp/r/off
NSHARD=8 SHARD_TIMEOUT=400 bash scripts/gpu_shards.sh dmma tests/test_gpu_dmma.py tests/test_gpu_dmma_split_k.py
NSHARD=8 SHARD_TIMEOUT=400 bash scripts/gpu_shards.sh dlay tests/test_gpu_layouts.py -k dmma
SAN_TIMEOUT=200 bash scripts/gpu_sanitize.sh memcheck scripts/sanitize_driver.py --strategies dmma,dmma_split_k \
    --dtypes float64 --shapes 256x128x40,128x128x8,384x256x100,33x65x17,129x130x257
echo "== tests $(( $(date +%s) - T0 )) s"
