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
