#!/bin/bash
# twenty-second session, second device call: the pairs layout with its main kernel holding the
# interior loop alone (PAIRS_WHOLE_MAIN) against _alt/ (the working tree with the edge copies' loop
# compiled beside it, as every dmma main kernel has; untracked, not ignored), dmma's layout before
# (working baselines this time: gpu_s22a.sh's pairs=0 configs failed validation) and the
# twenty-first session's standalone probe kernel, all in one run each; the partial-tile GPU tests.
#   bash scripts/gpu_s22b.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 100 python3 -m pytest -q -m gpu tests/test_gpu_dmma.py -k partial_tiles > "$OUT/tests_partial.log" 2>&1
echo "== partial tests rc $?"; tail -3 "$OUT/tests_partial.log"
PYTHONPATH=. timeout 200 python3 scripts/variants_s22/probe_pairs.py 3 big > "$OUT/pairs_big.txt" 2>&1
echo "== big rc $?"
PYTHONPATH=_alt timeout 120 python3 scripts/variants_s22/probe_pairs.py 2 big > "$OUT/pairs_big_alt.txt" 2>&1
echo "== big alt rc $?"
PYTHONPATH=. timeout 80 python3 scripts/variants_s22/probe_pairs.py 3 odd > "$OUT/pairs_odd.txt" 2>&1
echo "== odd rc $?"
PYTHONPATH=. timeout 80 python3 scripts/variants_s22/probe_pairs.py 3 small > "$OUT/pairs_small.txt" 2>&1
echo "== small rc $?"
for f in big big_alt odd small; do echo "== $f"; grep -A30 "^shape" "$OUT/pairs_$f.txt"; grep -i "fail\|error" "$OUT/pairs_$f.txt" | head -5; done
