"""Fill a cubin cache with wgmma_tma's b_rows kernels (every cluster-free shipped config, both 16-bit
dtypes, 16- and 32-bit C, and float16 with a bias + relu + alpha/beta epilogue), compiled by NVRTC
without a GPU, so a device run does not compile them first.

    PYTHONPATH=. python3 scripts/variants_s40/precompile_rows.py scratch/cubin_s32b
"""
import os, sys
os.environ["CUPY_CACHE_DIR"] = sys.argv[1]
from tiled_matmul.compile import cached_cubin
from tiled_matmul.registry import get
from tiled_matmul.render import render, kernel_name
from tiled_matmul.epilogue import ExSpec
e = get("wgmma_tma")
jobs = []
for cfg in e.configs:
    if cfg.cluster_m != 1:
        continue
    r = cfg.replace(b_rows=1)
    for dt in ("float16", "bfloat16"):
        jobs.append((r, dt, None))
        jobs.append((r.replace(out_bits=32), dt, None))
    jobs.append((r, "float16", ExSpec("float", alpha=True, beta=True, bias=1, activation="relu")))
for cfg, dt, sp in jobs:
    print(cached_cubin(render(e, cfg, dt, sp), kernel_name("wgmma_tma", cfg, dt), "sm_90a", "wgmma_tma", cfg, dt).name[-40:])
