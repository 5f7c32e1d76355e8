# Sourced first by a device script (". scripts/gpu_preamble.sh CACHE" from the script's own
# folder's parent, or by path): the repository root as working folder, the package importable,
# $OUT made (the device tool's, else /tmp/out), CUPY_CACHE_DIR at the cubin cache CACHE (a path
# under the root, filled on the CPU), and the card's name printed.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/$1
nvidia-smi --query-gpu=name --format=csv,noheader

# gpu_shards TAG SECONDS PYTEST_ARGS...: the GPU tests in 4 pytest shards side by side on the one
# GPU (TM_SHARD, tests/conftest.py), each within SECONDS, logs $OUT/TAG_gpu_0..3.log; then the
# wall time, each shard's last line and the first failures.
gpu_shards() {
  local tag=$1 limit=$2 t0 i
  shift 2
  t0=$(date +%s)
  for i in 0 1 2 3; do
    TM_SHARD=$i/4 timeout "$limit" python3 -m pytest -q -p no:cacheprovider --maxfail=20 "$@" \
      > "$OUT/${tag}_gpu_$i.log" 2>&1 &
  done
  wait
  echo "tests took $(( $(date +%s) - t0 )) s"
  for i in 0 1 2 3; do tail -1 "$OUT/${tag}_gpu_$i.log"; done
  grep -hE "^E |^FAILED" "$OUT/${tag}"_gpu_*.log | head -24
}
