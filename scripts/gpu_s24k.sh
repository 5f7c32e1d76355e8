#!/bin/bash
# twenty-fourth session, last: MODEL_TILES down to outputs wider than 8 both ways. The one suite
# shape it moves (64x64x65536) and two skinny ones timed with and without the rule
# (scripts/variants_s24/probe_pair.py), the model-tiles GPU tests and that suite row's, and the
# float32 random sweeps from 1 (seeds 24-26) on the final code.
#   bash scripts/gpu_s24k.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 60 python3 scripts/variants_s24/probe_pair.py 64x64x65536 41x2421x345 22x9393x9661 > "$OUT/pair.txt" 2>&1
echo "== pair rc $?"; cut -c1-250 "$OUT/pair.txt"
timeout 80 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_suite.py -k "model_tiles or 64x64x65536" > "$OUT/tests.log" 2>&1
echo "== tests rc $?"; tail -2 "$OUT/tests.log"
for seed in 24 25 26; do
    timeout 40 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 --dtypes float32 \
        --max-gflop 200 --rounds 3 --out "$OUT/f32_skinny_${seed}_1" > "$OUT/f32_skinny_${seed}_1.txt" 2>&1
    echo "seed $seed lo 1 rc $?: $(grep -i geometric "$OUT/f32_skinny_${seed}_1.txt")"
done
