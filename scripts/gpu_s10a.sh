#!/usr/bin/env bash
# Tenth session: gemv_xb's K groups (threads of a block split its K slice and add their sums in
# shared memory): the probe of K-group configs against the shipped picks, cuBLAS and a device copy
# on the x·B rows under 88% of copy; the GEMV and split-reduce GPU tests; compute-sanitizer over
# the split workload (K groups with and without a split).
#   bash scripts/gpu_s10a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
PYTHONUNBUFFERED=1 timeout 300 python3 scripts/probe_gemv_configs.py kg > "$OUT/probe_kg.log" 2>&1
echo "== probe rc=$? $(( $(date +%s) - T0 )) s"
NSHARD=8 SHARD_TIMEOUT=240 bash scripts/gpu_shards.sh gemv tests/test_gpu_gemv.py tests/test_gpu_split_reduce.py
echo "== tests $(( $(date +%s) - T0 )) s"
SAN_TIMEOUT=90 bash scripts/gpu_sanitize.sh memcheck,racecheck,synccheck scripts/sanitize_split.py
echo "== sanitizer $(( $(date +%s) - T0 )) s"
cat "$OUT/probe_kg.log"
