#!/bin/bash
# twenty-third session, third device call: auto on random float64 shapes (aligned rows: seed 2302;
# N and K as drawn: 2204), HEAD's tree (_old/, untracked and not ignored:
#   mkdir _old && git archive HEAD tiled_matmul kernels pyproject.toml | tar -x -C _old)
# against the working tree (dmma_tail's pairs configs and their efficiencies), in separate
# processes on the same machine; then the float64 suite on the working tree. First, dmma_tail's GPU
# tests on the 64 x 64 pairs config, whose tail shapes gpu_s23b.sh's run found without a tail.
#   bash scripts/gpu_s23c.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
PYTHONPATH=. timeout 100 python3 -m pytest -q -m gpu tests/test_gpu_dmma_tail.py -k pairs1 > "$OUT/tests_tail_pairs.log" 2>&1
echo "== tail pairs tests rc $?"; tail -2 "$OUT/tests_tail_pairs.log"
for seed in 2302 "2204 16 2 odd"; do
    set -- $seed
    for tree in _old .; do
        tag=$([ "$tree" = . ] && echo new || echo old)
        PYTHONPATH=$tree timeout 100 python3 scripts/variants_s21/probe_f64_random.py $1 ${2:-16} ${3:-2} ${4:-} > "$OUT/random_$1_$tag.txt" 2>&1
        echo "== random $1 $tag rc $?: $(tail -1 "$OUT/random_$1_$tag.txt")"
    done
done
PYTHONPATH=. timeout 200 python3 benchmarks/shape_suite.py --dtypes float64 --rounds 2 --out "$OUT" > "$OUT/suite.txt" 2>&1
echo "== suite rc $?"; grep -E "^\| [a-z0-9]|Geometric" "$OUT/suite.txt" | grep -v "^| class" | cut -c1-160
