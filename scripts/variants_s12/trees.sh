#!/usr/bin/env bash
# The two checkouts a variant comparison imports (variants_s12/compare.py ROOT base,new ...):
# /tmp/r/new, the tree as it is, and /tmp/r/base, the tree with PATCH reversed (the change under
# test taken out). Run from the repository root.
#   bash scripts/variants_s12/trees.sh PATCH
set -u
rm -rf /tmp/r; mkdir -p /tmp/r/base /tmp/r/new
cp -r pyproject.toml tiled_matmul kernels scripts /tmp/r/base/
cp -r pyproject.toml tiled_matmul kernels scripts /tmp/r/new/
patch -s -R -p1 -d /tmp/r/base < "$1" || echo "patch -R $1 failed"
