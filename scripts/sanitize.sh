#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over every registered strategy's default config at
# ragged shapes (33x65x17, 129x1x257, ...; see scripts/sanitize_driver.py). Needs a CUDA GPU.
#
#   scripts/sanitize.sh                      # memcheck + racecheck, both dtypes, all strategies
#   TOOLS="memcheck racecheck synccheck" scripts/sanitize.sh --strategies naive,smem_tiled
#
# Extra arguments go to the driver. Logs land in $LOGDIR (default tiled-matmul-results/sanitize).
# Exit status: 0 only when every tool reports 0 errors and every result is correct.
set -u -o pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
PY=${PYTHON:-python3}
SAN=${COMPUTE_SANITIZER:-compute-sanitizer}
TOOLS=${TOOLS:-memcheck racecheck}
LOGDIR=${LOGDIR:-tiled-matmul-results/sanitize}
mkdir -p "$LOGDIR"
if ! command -v "$SAN" >/dev/null 2>&1; then
    for d in /usr/local/cuda/bin /usr/local/cuda/compute-sanitizer /opt/nvidia/cuda/bin; do
        [ -x "$d/compute-sanitizer" ] && SAN="$d/compute-sanitizer" && break
    done
fi
command -v "$SAN" >/dev/null 2>&1 || { echo "sanitize: compute-sanitizer not found (set COMPUTE_SANITIZER)"; exit 2; }
"$SAN" --version | tail -1

status=0
total_errors=0
for tool in $TOOLS; do
    extra=()
    case "$tool" in
        memcheck)
            extra=(--leak-check no)
            # padding after each allocation: an overrun cannot land in a neighbouring array unseen
            "$SAN" --help 2>/dev/null | grep -q -- "--padding" && extra+=(--padding 512)
            ;;
        racecheck) extra=(--racecheck-report all) ;;
    esac
    log="$LOGDIR/$tool.log"
    t0=$(date +%s)
    "$SAN" --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 50 \
        "$PY" scripts/sanitize_driver.py "$@" >"$log" 2>&1
    rc=$?
    # memcheck (and others) end with "ERROR SUMMARY: N errors"; racecheck with
    # "RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)"
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1 | sed 's/^=* *//')
    driver=$(grep -E "^sanitize driver:" "$log" | tail -1)
    errors=$(echo "$summary" | grep -oE "[0-9]+ errors?" | grep -oE "[0-9]+" | head -1)
    if [ -z "$errors" ]; then
        errors="?"
        status=1
        echo "sanitize: $tool printed no ERROR SUMMARY; last lines of $log:"
        tail -20 "$log"
    else
        total_errors=$((total_errors + errors))
    fi
    [ "$rc" -ne 0 ] && status=1
    echo "sanitize: $tool [${extra[*]}]: ${summary:-no summary}; $driver; exit $rc; $(( $(date +%s) - t0 )) s (log $log)"
    if [ "$rc" -ne 0 ] || [ "$errors" != "0" ]; then
        grep -E "^=+ (Invalid|Race|Error|Warning|.*hazard)" "$log" | head -20
    fi
done
echo "sanitize: tools [$TOOLS], total errors $total_errors, status $status"
exit $status
