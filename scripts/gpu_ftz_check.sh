set -u
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader
timeout 60 python3 scripts/probe_guard.py > $OUT/probe_guard.log 2>&1; cat $OUT/probe_guard.log | tail -15
timeout 330 python3 -m pytest -q -m gpu tests -x -p no:cacheprovider --ignore=tests/test_dask_gpu.py -q 2>&1 | tail -15 > $OUT/gpu_tests.log; tail -8 $OUT/gpu_tests.log
TOOLS="racecheck synccheck" LOGDIR=$OUT/san timeout 150 bash scripts/sanitize.sh --dtypes float32 --shapes 33x65x17,65x36x20 --plain-only > $OUT/san.log 2>&1; tail -6 $OUT/san.log
timeout 120 python3 benchmarks/numerics_suite.py --out $OUT > $OUT/numerics_suite.log 2>&1; grep -i -E "subnormal|1e-36|worst|auto" $OUT/numerics_suite.md | head -20
