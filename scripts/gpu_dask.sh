#!/usr/bin/env bash
# tiled_matmul.dask on a GPU machine without network: install the carried wheels (.whl-dask/, made
# by scripts/fetch_dask_wheels.sh: dask, distributed, dask-cuda and what they need that the GPU
# image lacks) into /tmp/dasksite, run the dask GPU tests, then benchmarks/dask_scaling.py.
# Usage (from the repo root, .whl-dask carried): OUT=/some/dir bash scripts/gpu_dask.sh [benchmark args]
# Logs: $OUT/dask_log.txt; the benchmark writes $OUT/dask_scaling.md and $OUT/dask_scaling.json.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-tiled-matmul-results/gpu-dask}  # tiled-matmul-results/ is git-ignored
export OUT
mkdir -p "$OUT"
LOG="$OUT/dask_log.txt"
status=0
step() { echo; echo "=== $* ===" | tee -a "$LOG"; }

step "install .whl-dask into /tmp/dasksite"
ls .whl-dask/*.whl >/dev/null || { echo "no .whl-dask/*.whl: run scripts/fetch_dask_wheels.sh and carry .whl-dask" | tee -a "$LOG"; exit 1; }
python3 -m pip install -q --no-deps --upgrade --target /tmp/dasksite .whl-dask/*.whl 2>&1 | grep -v "^WARNING: Running pip as" | tee -a "$LOG" \
    || for w in .whl-dask/*.whl; do python3 -m zipfile -e "$w" /tmp/dasksite; done
export PYTHONPATH=/tmp/dasksite:. CUPY_TF32=0 PYTHONUNBUFFERED=1 TILED_MATMUL_TUNE_DB=/tmp/tm-user-tunedb.json

step "device and versions"
nvidia-smi --query-gpu=index,name,memory.total --format=csv 2>&1 | tee -a "$LOG"
free -g 2>&1 | head -2 | tee -a "$LOG"
python3 -c "import dask, distributed, tiled_matmul.dask as t; print('dask', dask.__version__, 'distributed', distributed.__version__, '|', t.dask_cuda_status())" 2>&1 | tee -a "$LOG" || status=1

step "GPU tests of tiled_matmul.dask"
timeout 200 python3 -m pytest -q -m gpu tests/test_dask*.py -p no:cacheprovider 2>&1 | tee -a "$LOG" | tail -30 || status=1

step "benchmarks/dask_scaling.py $*"
timeout 370 python3 benchmarks/dask_scaling.py "$@" 2>&1 | tee -a "$LOG" || status=1
exit $status
