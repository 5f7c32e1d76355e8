#!/usr/bin/env bash
# Variants (checkouts under ROOT) against cuBLAS in alternating blocks, each variant and size in
# its own process, ROUNDS rounds, appended to LOG with "VARIANT MODE-SIZE rROUND " prefixes; then
# probe_clock.py's summary table of LOG. The loop the ninth session's variant scripts share.
#
#   scripts/clock_rounds.sh LOG MODE ROUNDS ROOT "VARIANTS" "SIZE:CALLS ..."
#   e.g.  scripts/clock_rounds.sh $OUT/clock64.log float64 2 /tmp/r "base off" "4096:200 8192:30"
set -u
log=$1 mode=$2 rounds=$3 root=$4 variants=$5 sizes=$6
here=$(cd "$(dirname "$0")" && pwd)
label=$mode; [ "$mode" = float64 ] && label=f64
for round in $(seq 1 "$rounds"); do
    for v in $variants; do
        for sc in $sizes; do
            n=${sc%%:*} calls=${sc##*:}
            (cd "$root/$v" && PYTHONPATH=. timeout 100 python3 scripts/probe_clock.py --mode "$mode" --size "$n" --blocks 4 \
                --calls "$calls" 2>&1 | sed "s/^/$v $label-$n r$round /") >> "$log"
        done
    done
done
python3 "$here/probe_clock.py" --summary "$log"
