#!/usr/bin/env bash
# Tenth session, fourth step (H100): gemv_ax with A loaded one step ahead (probe ax), dmma's
# mid-sized and 8-warp tiles at 576^3-1024^3 (probe_dmma_configs.py --mid), the GEMV GPU tests
# (every gemv_ax config, the two a_buffers=2 presets among them).
#   bash scripts/gpu_s10d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
PYTHONUNBUFFERED=1 timeout 150 python3 scripts/probe_gemv_configs.py ax > "$OUT/probe_ax.log" 2>&1
echo "== probe ax rc=$? $(( $(date +%s) - T0 )) s"
PYTHONUNBUFFERED=1 timeout 200 python3 scripts/probe_dmma_configs.py --mid > "$OUT/probe_mid.log" 2>&1
echo "== probe mid rc=$? $(( $(date +%s) - T0 )) s"
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh gemv tests/test_gpu_gemv.py
echo "== tests $(( $(date +%s) - T0 )) s"
grep -vE "^\s*$" "$OUT/probe_ax.log"
grep -vE "^\s*$" "$OUT/probe_mid.log"
