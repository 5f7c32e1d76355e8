#!/bin/bash
# twenty-first session: gpu_s21h.sh's HEAD side, which did not run there (_old/ was git-ignored, so
# not carried): auto on the same random float64 shapes on HEAD's tree, on the same warm machine.
#   bash scripts/gpu_s21i.sh
# _old/ is HEAD's tree before the change (fc7e9d0), made untracked and not ignored so that the
# device run carries it: mkdir _old && git archive fc7e9d0 tiled_matmul kernels pyproject.toml | tar -x -C _old
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
PYTHONPATH=_old timeout 90 python3 scripts/variants_s21/probe_f64_random.py 2101 16 2 > "$OUT/random_old.txt" 2>&1
echo "== old rc $?"; cat "$OUT/random_old.txt"
