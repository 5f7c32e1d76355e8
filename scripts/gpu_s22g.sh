#!/bin/bash
# twenty-second session, seventh device call: the float64 suite with the retuned buckets, and auto
# on random float64 shapes (aligned rows: seed 2101, as in the twenty-first session;
# any rows: 2203) on HEAD's tree (_old/, untracked and not ignored:
#   mkdir _old && git archive 35bf11f tiled_matmul kernels pyproject.toml | tar -x -C _old)
# and on the working tree, in separate processes on the same warm machine.
#   bash scripts/gpu_s22g.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
PYTHONPATH=. timeout 250 python3 benchmarks/shape_suite.py --dtypes float64 --rounds 2 --out "$OUT" > "$OUT/suite.txt" 2>&1
echo "== suite rc $?"; grep -E "^\| [a-z]|Geometric" "$OUT/suite.txt" | grep -v "^| class" | cut -c1-220
for seed in 2101 "2203 16 2 odd"; do
    set -- $seed
    for tree in _old .; do
        tag=$([ "$tree" = . ] && echo new || echo old)
        PYTHONPATH=$tree timeout 70 python3 scripts/variants_s21/probe_f64_random.py $1 ${2:-16} ${3:-2} ${4:-} > "$OUT/random_$1_$tag.txt" 2>&1
        echo "== random $1 $tag rc $?: $(tail -1 "$OUT/random_$1_$tag.txt")"
    done
done
