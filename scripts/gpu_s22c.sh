#!/bin/bash
# twenty-second session, third device call: the pairs layout's main and edge kernels with the
# interior loop alone (outputs under a tile routed to the elem kernel), its bit-for-bit GPU tests,
# and whether the layout before it gains the same from whole-tile kernels: _alt/ is the working
# tree with WHOLE_TILES = 1 for every config (untracked, not ignored), timed after the working tree.
#   bash scripts/gpu_s22c.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 150 python3 -m pytest -q -m gpu tests/test_gpu_dmma.py -k "partial_tiles or misaligned" > "$OUT/tests_bits.log" 2>&1
echo "== bit-for-bit tests rc $?"; tail -3 "$OUT/tests_bits.log"
for tree in . _alt; do
    tag=$([ "$tree" = . ] && echo main || echo alt)
    PYTHONPATH=$tree timeout 200 python3 scripts/variants_s22/probe_pairs.py 3 big > "$OUT/pairs_big_$tag.txt" 2>&1
    echo "== big $tag rc $?"
    PYTHONPATH=$tree timeout 80 python3 scripts/variants_s22/probe_pairs.py 3 small > "$OUT/pairs_small_$tag.txt" 2>&1
    echo "== small $tag rc $?"
done
for f in big_main big_alt small_main small_alt; do echo "== $f"; grep -A30 "^shape" "$OUT/pairs_$f.txt"; grep -i "fail\|error" "$OUT/pairs_$f.txt" | head -5; done
