#!/usr/bin/env bash
# compute-sanitizer over one Python command, once per tool, one combined log: the loop the GPU check
# scripts share.
#
#   scripts/gpu_sanitize.sh TOOLS SCRIPT.py [ARGS...]
#   e.g.  scripts/gpu_sanitize.sh racecheck,synccheck scripts/sanitize_tma_tf32.py --col a
#
# TOOLS: comma-separated compute-sanitizer tools. Env: OUT (the log: $OUT/sanitizer.log, appended),
# SAN_TIMEOUT seconds per tool (default 150). Prints one line per tool: its exit status and the
# sanitizer's summary line.
set -u
tools=$1; shift
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for tool in ${tools//,/ }; do
    timeout "${SAN_TIMEOUT:-150}" compute-sanitizer --tool "$tool" python3 "$@" > "$OUT/san_$tool.log" 2>&1
    echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|sanitize run done' "$OUT/san_$tool.log" | tr '\n' ' ')"
    cat "$OUT/san_$tool.log" >> "$OUT/sanitizer.log"; rm -f "$OUT/san_$tool.log"
done
