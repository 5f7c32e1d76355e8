"""Compile the plain (row-major, no epilogue) kernels of the named TMA rungs, every config, into a
cubin cache without a GPU (16-bit for wgmma_tma and its split, float32 for wgmma_tma_tf32).

    PYTHONPATH=. python3 scripts/variants_s33/precompile_plain.py CACHE_DIR wgmma_tma,wgmma_tma_split_k,wgmma_tma_tf32
"""
import os, sys
os.environ["CUPY_CACHE_DIR"] = os.path.abspath(sys.argv[1])
from tiled_matmul import compile as tm_compile, registry
from tiled_matmul.render import kernel_name, render
n = fail = 0
for name in sys.argv[2].split(","):
    entry = registry.get(name)
    for cfg in {entry.default, *entry.configs}:
        for dt in (("float32",) if name.endswith("tf32") else ("float16", "bfloat16")):
            try:
                tm_compile.cached_cubin(render(entry, cfg, dt, None), kernel_name(entry.name, cfg, dt),
                                        cfg.NVRTC_ARCH or "sm_90", entry.name, cfg, dt)
                n += 1
            except Exception as e:
                fail += 1; print("#", name, cfg, dt, type(e).__name__, str(e)[:100])
print(n, "kernels", fail, "failed")
