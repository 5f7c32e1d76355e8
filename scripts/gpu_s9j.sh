#!/usr/bin/env bash
# Ninth session, dmma's interior copies past K from A's (Bᵀ's) first rows (one pointer select per
# step: scripts/variants_s9/dmma_sel.patch, applied to kernels/ here; dropped after this run):
# the dmma, dmma_split_k and dmma layout GPU tests; compute-sanitizer memcheck over ragged and
# interior shapes whose last steps zero-fill; 4096³ / 8192³ against cuBLAS in alternating blocks
# beside the template without it; the float64 suite's compute-bound and small classes.
#   bash scripts/gpu_s9j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
rm -rf /tmp/r/base /tmp/r/new; mkdir -p /tmp/r/base /tmp/r/new
for v in base new; do cp -r pyproject.toml tiled_matmul scripts tests kernels /tmp/r/$v/; done
patch -s -p1 -d /tmp/r/new < scripts/variants_s9/dmma_sel.patch
cd /tmp/r/new
NSHARD=8 SHARD_TIMEOUT=400 bash scripts/gpu_shards.sh dmma tests/test_gpu_dmma.py tests/test_gpu_dmma_split_k.py
NSHARD=8 SHARD_TIMEOUT=400 bash scripts/gpu_shards.sh dlay tests/test_gpu_layouts.py -k dmma
echo "== tests $(( $(date +%s) - T0 )) s"
SAN_TIMEOUT=200 bash scripts/gpu_sanitize.sh memcheck scripts/sanitize_driver.py --strategies dmma,dmma_split_k \
    --dtypes float64 --shapes 256x128x40,128x128x8,384x256x100,33x65x17,129x130x257
echo "== sanitizer $(( $(date +%s) - T0 )) s"
bash scripts/clock_rounds.sh "$OUT/clock64.log" float64 2 /tmp/r "base new" "4096:200 8192:30"
echo "== clocks $(( $(date +%s) - T0 )) s"
timeout 300 python3 benchmarks/shape_suite.py --dtypes float64 --classes "compute;small" --out "$OUT/suite64" > "$OUT/suite64.txt" 2>&1
echo "suite rc $? $(( $(date +%s) - T0 )) s"
grep -E "^\| (compute|small)|Geometric" "$OUT/suite64/shape_suite.md" | awk -F'|' '{print $3, $5, $6, $7}'
