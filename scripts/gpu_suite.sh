#!/usr/bin/env bash
# Everything that needs the GPU, in one run: host overhead, the whole GPU test suite, the
# 1000-case fuzz, the tuning-database regeneration over the public shape suite, the default
# `tiled-matmul bench`, `auto` on ragged shapes, the GEMV rungs against cuBLAS and a device copy,
# and a compact summary of the JSON outputs.
# Usage (from the repo root): OUT=/some/dir bash scripts/gpu_suite.sh
# $OUT/bench/bench.md, $OUT/bench/*.png and $OUT/summary.md are what benchmarks/results/<gpu>/ keeps.
set -uo pipefail
export PYTHONPATH=. CUPY_TF32=0 PYTHONUNBUFFERED=1 TILED_MATMUL_TUNE_DB=/tmp/tm-user-tunedb.json
OUT=${OUT:-tiled-matmul-results/gpu-suite}  # tiled-matmul-results/ is git-ignored
mkdir -p "$OUT/bench"
LOG="$OUT/log.txt"
status=0
step() { echo; echo "=== $* ===" | tee -a "$LOG"; }

step "device"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1 | tee -a "$LOG"
step "host overhead"; python3 benchmarks/host_overhead.py --profile 2>&1 | tee -a "$LOG" || status=1
step "GPU tests"; python3 -m pytest -q -m gpu tests -p no:cacheprovider 2>&1 | tee -a "$LOG" | tail -25 || status=1
step "fuzz"; python3 scripts/fuzz.py --cases 1000 --seed 1 2>&1 | tail -5 | tee -a "$LOG" || status=1
step "tune suite"; python3 scripts/tune_suite.py --quiet --out "$OUT/tuned_h100.json" --json "$OUT/suite.json" 2>&1 | tee -a "$LOG" || status=1
step "bench"; { time python3 -m tiled_matmul bench --out "$OUT/bench"; } 2>&1 | tee -a "$LOG" || status=1
step "ragged auto"; python3 benchmarks/ragged_auto.py --json "$OUT/ragged.json" 2>&1 | tee -a "$LOG" || status=1
step "gemv"; python3 benchmarks/gemv.py --out "$OUT" 2>&1 | tee -a "$LOG" || status=1
step "summary"; python3 scripts/summarize_run.py "$OUT" > "$OUT/summary.md" 2>>"$LOG" && echo "wrote $OUT/summary.md" | tee -a "$LOG" || status=1
exit $status
