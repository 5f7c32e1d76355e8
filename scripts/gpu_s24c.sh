#!/bin/bash
# twenty-fourth session: the random sweep's lowest rows, their candidates timed (the shipped model's
# first 8 and the edge-term model's first 3: scripts/variants_s24/probe_edge_picks.py), float64 and
# float32, each beside its aligned neighbour; then a fresh odd float64 draw (seed 2401) for the
# edge term held out.
#   bash scripts/gpu_s24c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
P=scripts/variants_s24/probe_edge_picks.py
timeout 200 python3 $P 713x6827x989 714x6828x992 1011x1381x2795 1234x532x3706 360x1774x1700 561x626x469 704x742x4019 41x2421x345 \
    > "$OUT/edge_lows_f64.jsonl" 2>&1; echo "== f64 lows rc $?"
timeout 150 python3 $P 1011x1381x2795 1012x1384x2796 360x1774x1700 360x1776x1700 704x742x4019 704x744x4020 1234x532x3706 1234x532x3708 --dtype float32 \
    > "$OUT/edge_lows_f32.jsonl" 2>&1; echo "== f32 lows rc $?"
timeout 200 python3 $P 2401 12 > "$OUT/edge_2401.jsonl" 2>&1; echo "== 2401 rc $?"
grep -h "^#\|Error\|error" "$OUT"/edge_*.jsonl | head -60
