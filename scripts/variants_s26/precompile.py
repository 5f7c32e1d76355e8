"""Fill a cubin cache (compile.cubin_cache_dir's layout) on a machine without a GPU, with this
machine's NVRTC, for the kernels the twenty-sixth session's GPU run compiles: the held-out probe's
variants and the narrow/transposed tests' picks. Carried to the device with CUPY_CACHE_DIR set,
it saves the device's NVRTC time where the NVRTC versions match (the digest includes the version,
so a mismatch only misses).

    PYTHONPATH=. python3 scripts/variants_s26/precompile.py CACHE_DIR [COUNT]

COUNT is the probe's --count (10 by default): the shapes follow from its seed and count.
"""
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
from probe_heldout import chunk_shapes, resolved, shapes  # noqa: E402

from tiled_matmul import compile as tm_compile  # noqa: E402
from tiled_matmul.epilogue import ExSpec  # noqa: E402
from tiled_matmul.render import kernel_name, render  # noqa: E402

COLS = ExSpec("float", a_col=True, b_col=True, ld=True)


def kernels_for(M, N, K, **kw):
    k = resolved(M, N, K, **kw)
    out = [(k.strategy, k.config, None)]
    if hasattr(k, "inner"):
        out.append((k.inner.strategy, k.inner.config, COLS))
    return out


def main() -> None:
    os.environ["CUPY_CACHE_DIR"] = str(Path(sys.argv[1]).resolve())  # compile.cubin_cache_dir reads it
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    rs = np.random.default_rng(2601)
    wanted = []
    for s in shapes(rs, count, "N"):
        for kw in (dict(narrow=False, transposed=None), {}, dict(transposed=(17, 64))):
            wanted += kernels_for(*s, **kw)
    for s in shapes(rs, count, "M"):
        for kw in (dict(narrow=False, transposed=None), {}, dict(chunk_max=16)):
            wanted += kernels_for(*s, **kw)
    for s in chunk_shapes(rs, count // 2):
        for kw in ({}, dict(chunk_max=16)):
            wanted += kernels_for(*s, **kw)
    from tests.test_gpu_narrow import NARROW, TRANSPOSED  # noqa: E402
    for s in TRANSPOSED + NARROW:  # the NaN test's shapes are among TRANSPOSED's
        wanted += kernels_for(*s)
    seen = set()
    for entry, cfg, ex in wanted:
        key = (entry.name, cfg, ex)
        if key in seen:
            continue
        seen.add(key)
        path = tm_compile.cached_cubin(render(entry, cfg, "float32", ex), kernel_name(entry.name, cfg, "float32"),
                                       cfg.NVRTC_ARCH or "sm_90", entry.name, cfg, "float32")
        print(path.name, ex is not None, path.stat().st_size, flush=True)
    print(len(seen), "kernels")


if __name__ == "__main__":
    main()
