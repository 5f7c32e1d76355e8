"""Compile wgmma_tma's operand-layout kernels (every config of the strategy's search space and
`tests/test_gpu_wgmma_tma_general.py`'s, both 16-bit dtypes, the three non-plain pairs and the
plain pair with leading dimensions), and each config's float32-C sibling (out_bits=32) for
out_dtype calls in every layout, into a cubin cache without a GPU, for a device run to load.

    PYTHONPATH=. python3 scripts/variants_s32/precompile_layouts.py CACHE_DIR
"""
import os
import sys


def main() -> None:
    os.environ["CUPY_CACHE_DIR"] = os.path.abspath(sys.argv[1])
    from tiled_matmul import compile as tm_compile
    from tiled_matmul import registry
    from tiled_matmul.configs import ALL_LAYOUTS
    from tiled_matmul.epilogue import ExSpec
    from tiled_matmul.render import kernel_name, render

    entry = registry.get("wgmma_tma")
    configs = {entry.default, *entry.configs}
    n = 0
    for cfg in configs:
        for dtype in ("float16", "bfloat16"):
            wide = cfg.replace(out_bits=32)
            specs = [(cfg, ExSpec("float", a_col=a_col, b_col=b_col, ld=True)) for a_col, b_col in ALL_LAYOUTS]
            specs += [(wide, ExSpec("float", out_ctype="float"))]
            specs += [(wide, ExSpec("float", a_col=a_col, b_col=b_col, ld=True, out_ctype="float"))
                      for a_col, b_col in ALL_LAYOUTS]
            for c, spec in specs:
                tm_compile.cached_cubin(render(entry, c, dtype, spec), kernel_name(entry.name, c, dtype),
                                        c.NVRTC_ARCH or "sm_90", entry.name, c, dtype)
                n += 1
    print(n, "kernels")


if __name__ == "__main__":
    main()
