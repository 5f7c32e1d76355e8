"""Fill a cubin cache with wgmma_tma_split_k's b_rows kernels (every shipped config, both 16-bit
dtypes), compiled by NVRTC without a GPU, so a device run does not compile them first.

    PYTHONPATH=. python3 scripts/variants_s41/precompile_split_rows.py scratch/cubin_s32b
"""
import os
import sys

os.environ["CUPY_CACHE_DIR"] = sys.argv[1]
from tiled_matmul.compile import cached_cubin  # noqa: E402
from tiled_matmul.registry import get  # noqa: E402
from tiled_matmul.render import kernel_name, render  # noqa: E402

e = get("wgmma_tma_split_k")
for cfg in e.configs:
    r = cfg.replace(b_rows=1)
    for dt in ("float16", "bfloat16"):
        path = cached_cubin(render(e, r, dt, None), kernel_name(e.name, r, dt), "sm_90a", e.name, r, dt)
        print(path.name[-40:])
