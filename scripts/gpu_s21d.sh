#!/bin/bash
# twenty-first session: the edge-block copies A/B on one machine: HEAD's tree (copied into _old/)
# against the working tree, alternating processes (probe_f64_edges.py).
#   bash scripts/gpu_s21d.sh
# _old/ is HEAD's tree before the change (fc7e9d0), made untracked and not ignored so that the
# device run carries it: mkdir _old && git archive fc7e9d0 tiled_matmul kernels pyproject.toml | tar -x -C _old
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for i in 1 2; do
  for tree in _old .; do
    tag=$([ "$tree" = . ] && echo new || echo old)
    PYTHONPATH=$tree timeout 200 python3 scripts/variants_s21/probe_f64_edges.py 2 wide > "$OUT/ab_${tag}_$i.txt" 2>&1
    echo "== $tag $i rc $?"; sed -n "/^shape/,\$p" "$OUT/ab_${tag}_$i.txt"
  done
done
