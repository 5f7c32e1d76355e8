#!/usr/bin/env bash
# Eleventh session (H100): dmma's interior copies in 8-byte pairs where rows are not 16-byte
# aligned. The dmma and dmma_split_k GPU tests and dmma's layout tests on the working tree, then
# auto from the tree without the change (base: scripts/variants_s11/dmma_elem.patch reversed; it ran
# an earlier form, the 8-byte loop beside the 16-byte one in one kernel: the patch is the later one)
# against the working tree (new) on aligned and odd shapes.
#   bash scripts/gpu_s11a.sh
# (It ran on a tree whose kernels/12_dmma.cu.j2 was d2b35f4's with dmma_elem.patch applied; the
# shipped form, a second kernel, is gpu_s11c.sh's.)
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh dmma tests/test_gpu_dmma.py tests/test_gpu_dmma_split_k.py
NSHARD=8 SHARD_TIMEOUT=150 bash scripts/gpu_shards.sh dlayouts tests/test_gpu_layouts.py -k dmma
echo "== tests $(( $(date +%s) - T0 )) s"
rm -rf /tmp/r; mkdir -p /tmp/r/base /tmp/r/new
cp -r pyproject.toml tiled_matmul kernels /tmp/r/base/
cp -r pyproject.toml tiled_matmul kernels /tmp/r/new/
patch -s -R -p1 -d /tmp/r/base < scripts/variants_s11/dmma_elem.patch || echo "patch -R failed"
timeout 400 python3 scripts/variants_s11/compare_elem.py /tmp/r base,new 3 2>&1 | tee "$OUT/compare_elem.log" | tail -16
echo "== done $(( $(date +%s) - T0 )) s"
