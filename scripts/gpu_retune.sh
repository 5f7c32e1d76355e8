#!/usr/bin/env bash
# A retune judged by the suite: tune SHAPES with STRATEGIES into a copy of the shipped database
# ($OUT/db.json), then run benchmarks/shape_suite.py on the suite classes CLASSES with the shipped
# database and with the copy (as the user database), RUNS times each (default 2), printing the
# classes' rows and geometric means. The entries worth shipping are copied by hand.
#
#   scripts/gpu_retune.sh DTYPE STRATEGIES CLASSES SHAPE...
#   e.g.  scripts/gpu_retune.sh float64 dmma,dmma_split_k small 256 384 512
#
# Env: OUT (logs: tune.log, suite_shipped<run>.log, suite_tuned<run>.log), RUNS (0: tune only),
# TUNE_TIMEOUT (seconds, default 330).
set -u
dtype=$1; strategies=$2; classes=$3; shift 3
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
cp tiled_matmul/data/tuned_h100.json "$OUT/db.json"
timeout "${TUNE_TIMEOUT:-330}" python3 -m tiled_matmul tune -s "$@" -d "$dtype" --strategies "$strategies" --db "$OUT/db.json" \
    --json "$OUT/tune.json" -q > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
for run in $(seq 1 "${RUNS:-2}"); do
    for db in shipped tuned; do
        if [ $db = tuned ]; then export TILED_MATMUL_TUNE_DB="$OUT/db.json"; else unset TILED_MATMUL_TUNE_DB; fi
        timeout 120 python3 benchmarks/shape_suite.py --dtypes "$dtype" --classes "$classes" > "$OUT/suite_$db$run.log" 2>&1
        echo "-- $db, run $run"
        grep -E "^\| [a-z]|Geometric" "$OUT/suite_$db$run.log" | grep -v "^| class" | cut -c1-200
    done
done
unset TILED_MATMUL_TUNE_DB
echo "== $(( $(date +%s) - T0 )) s"
