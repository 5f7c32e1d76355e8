#!/bin/bash
# twenty-second session, fourth device call: retune the float64 buckets whose shapes the pairs
# layout (DmmaConfig.pairs) ran faster in gpu_s22b/c.sh, over dmma's search space (which now holds
# five pairs configs), into a copy of the shipped database, then the float64 compute-bound and
# small suite rows with the shipped database and with the copy (gpu_retune.sh).
#   bash scripts/gpu_s22d.sh
set -u
cd "$(dirname "$0")/.."
RUNS=1 TUNE_TIMEOUT=320 bash scripts/gpu_retune.sh float64 dmma "compute;small" \
    1024 2048 4096 8192 4096x4096x16384 5000x3000x1000 640 8192x8192x128 16384x64x4096
