#!/usr/bin/env bash
# GPU pytest in parallel shards (tests/conftest.py's TM_SHARD="i/n" keeps every n-th test), one
# combined log: the loop every GPU check script runs.
#
#   scripts/gpu_shards.sh NAME PYTEST_ARGS...     e.g.  scripts/gpu_shards.sh acol tests/test_gpu_x.py -k y
#
# Env: NSHARD (default 4), SHARD_TIMEOUT seconds per shard (default 240), OUT (logs: $OUT/NAME.log).
# Prints one summary line per shard (exit 124: timed out) and the FAILED/ERROR lines (-rfEs comes last,
# after the caller's arguments, so a caller's -rs cannot hide failures); exits 1 when a
# shard did not pass.
set -u
name=$1; shift
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
n=${NSHARD:-4}
pids=()
for i in $(seq 0 $((n - 1))); do
    TM_SHARD="$i/$n" timeout "${SHARD_TIMEOUT:-240}" python3 -m pytest -q -m gpu -p no:cacheprovider "$@" -rfEs \
        > "$OUT/${name}_$i.log" 2>&1 &
    pids+=($!)
done
status=0
for i in $(seq 0 $((n - 1))); do
    wait "${pids[$i]}"; rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 5 ] || status=1  # 5: this shard collected no test
    echo "  $name shard $i (rc $rc): $(tail -1 "$OUT/${name}_$i.log")"
done
for i in $(seq 0 $((n - 1))); do cat "$OUT/${name}_$i.log"; rm -f "$OUT/${name}_$i.log"; done > "$OUT/$name.log"
grep -E "^(FAILED|ERROR)" "$OUT/$name.log" | cut -c1-240 | head -30
exit $status
