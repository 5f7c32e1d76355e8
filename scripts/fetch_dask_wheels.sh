#!/usr/bin/env bash
# Download, on a machine with network, the wheels the [dask] extra needs on the GPU machines
# (no network there; Python 3.12, x86_64, which already have numpy, cupy, jinja2, pytest,
# matplotlib and torch) into the git-ignored .whl-dask/, to be carried there; see
# scripts/gpu_dask.sh. What dask-cuda pulls in but never imports on the LocalCUDACluster path
# (pandas, bokeh and their image/plotting dependencies) and what the GPU image already has are
# removed, to stay well under the 64 MiB that may be carried. cuda-bindings (which dask-cuda's
# cuda-core imports) is added for CUDA 13.
# Usage (from the repo root): bash scripts/fetch_dask_wheels.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=.whl-dask
rm -rf "$DEST"
mkdir -p "$DEST"
get() {
    python3 -m pip download -q --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 \
        -d "$DEST" "$@"
}
get "dask-cuda>=26" "dask[array]" distributed
get --no-deps "cuda-bindings==13.*"
for pkg in numpy pandas bokeh pillow contourpy narwhals xyzservices tzdata python_dateutil six jinja2 markupsafe; do
    rm -f "$DEST"/"$pkg"-*.whl "$DEST"/"${pkg^}"-*.whl
done
ls "$DEST"
du -sh "$DEST"
