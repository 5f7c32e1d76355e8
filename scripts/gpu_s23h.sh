#!/bin/bash
# twenty-third session, eighth device call: auto on 24 more random float64 shapes with aligned rows
# (seed 2303), the tree before this session (_old/, untracked and not ignored:
#   mkdir _old && git archive e174750 tiled_matmul kernels pyproject.toml | tar -x -C _old)
# against the working tree, alternating trees in separate processes, twice.
#   bash scripts/gpu_s23h.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for run in 1 2; do
    for tree in _old .; do
        tag=$([ "$tree" = . ] && echo new || echo old)
        PYTHONPATH=$tree timeout 120 python3 scripts/variants_s21/probe_f64_random.py 2303 24 2 > "$OUT/random_2303_${tag}$run.txt" 2>&1
        echo "== random 2303 $tag run $run rc $?: $(tail -1 "$OUT/random_2303_${tag}$run.txt")"
    done
done
