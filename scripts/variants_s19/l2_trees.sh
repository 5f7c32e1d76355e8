#!/usr/bin/env bash
# Checkouts for the L2-prefetch comparison (nineteenth session): /tmp/r/base, the tree with
# l2_prefetch.patch applied (the templates' L2_AHEAD hook, 0 by default: renders byte-identical to
# the tree's), and /tmp/r/pf<D> for each distance D given, the same with the gemv_xb and gemv_ax
# templates' default L2_AHEAD set to D. Run from the repository root.
#   bash scripts/variants_s19/l2_trees.sh 2 4 8
set -u
rm -rf /tmp/r; mkdir -p /tmp/r/base
cp -r pyproject.toml tiled_matmul kernels scripts /tmp/r/base/
patch -s -p1 -d /tmp/r/base < scripts/variants_s19/l2_prefetch.patch || echo "patch failed"
for d in "$@"; do
    cp -r /tmp/r/base "/tmp/r/pf$d"
    sed -i "s/{% set L2_AHEAD = L2_AHEAD if L2_AHEAD is defined else 0 %}/{% set L2_AHEAD = L2_AHEAD if L2_AHEAD is defined else $d %}/" \
        "/tmp/r/pf$d/kernels/10_gemv_xb.cu.j2" "/tmp/r/pf$d/kernels/11_gemv_ax.cu.j2"
    grep -c "else $d %}" "/tmp/r/pf$d/kernels/10_gemv_xb.cu.j2" "/tmp/r/pf$d/kernels/11_gemv_ax.cu.j2"
done
