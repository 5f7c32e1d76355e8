#!/usr/bin/env bash
# Eleventh session (H100): dmma's misaligned-operand kernel as a second kernel of the same source
# (DmmaConfig.ELEM_KERNEL; launches pick it by flags). GPU tests of dmma, dmma_split_k, dmma's
# layouts and the epilogue/batched files; compute-sanitizer over sanitize_split.py (its new odd
# cases); then auto from the tree without the change (HEAD: the stash of this change's files is
# scripts/variants_s11/elem_kernel.patch, reversed) against the working tree.
#   bash scripts/gpu_s11c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
bash scripts/gpu_dmma_tests.sh
echo "== tests $(( $(date +%s) - T0 )) s"
SAN_TIMEOUT=200 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py
echo "== sanitizer $(( $(date +%s) - T0 )) s"
rm -rf /tmp/r; mkdir -p /tmp/r/base /tmp/r/new
cp -r pyproject.toml tiled_matmul kernels /tmp/r/base/
cp -r pyproject.toml tiled_matmul kernels /tmp/r/new/
patch -s -R -p1 -d /tmp/r/base < scripts/variants_s11/elem_kernel.patch || echo "patch -R failed"
timeout 300 python3 scripts/variants_s11/compare_elem.py /tmp/r base,new 3 2>&1 | tee "$OUT/compare_elem.log" | tail -18
echo "== done $(( $(date +%s) - T0 )) s"
