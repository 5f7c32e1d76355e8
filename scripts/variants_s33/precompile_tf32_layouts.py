"""Compile wgmma_tma_tf32's operand-layout kernels (every config, the four pairs, with and without
leading dimensions) into a cubin cache without a GPU; pairs a config does not read are reported
and skipped.

    PYTHONPATH=. python3 scripts/variants_s33/precompile_tf32_layouts.py CACHE_DIR
"""
import os, sys
os.environ["CUPY_CACHE_DIR"] = os.path.abspath(sys.argv[1])
from tiled_matmul import compile as tm_compile, registry
from tiled_matmul.configs import ALL_LAYOUTS
from tiled_matmul.epilogue import ExSpec
from tiled_matmul.render import kernel_name, render
entry = registry.get("wgmma_tma_tf32")
n = fail = 0
for cfg in {entry.default, *entry.configs}:
    for a_col, b_col in ALL_LAYOUTS:
        for ld in (False, True):
            try:
                tm_compile.cached_cubin(render(entry, cfg, "float32", ExSpec("float", a_col=a_col, b_col=b_col, ld=ld)),
                                        kernel_name(entry.name, cfg, "float32"), cfg.NVRTC_ARCH or "sm_90", entry.name, cfg, "float32")
                n += 1
            except Exception as e:
                fail += 1; print("#", cfg, a_col, b_col, ld, type(e).__name__, str(e)[:100])
print(n, "kernels", fail, "failed")
