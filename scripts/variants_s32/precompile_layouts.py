"""Compile wgmma_tma's operand-layout kernels (every config of the strategy's search space and
`tests/test_gpu_wgmma_tma_general.py`'s, both 16-bit dtypes, the three non-plain pairs and the
plain pair with leading dimensions), and each config's float32-C sibling (out_bits=32) for
out_dtype calls in every layout, and the epilogue kernels the GPU tests and the probe render, into
a cubin cache without a GPU, for a device run to load.

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
    # the epilogue kernels tests/test_gpu_wgmma_tma_general.py renders (test_epilogue: two
    # activations per case, alpha/beta on the second; the auto test and the probe's bias + GELU)
    import dataclasses

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    from tests.test_gpu_wgmma_tma_general import EPI_CASES

    acts = [None, "relu", "gelu", "gelu_tanh", "silu", "sigmoid"]  # test_gpu_gemm.ACTS' order
    todo = []
    for case, ((M, N, K), (a_col, b_col), out) in enumerate(EPI_CASES):
        cfg = entry.default.replace(out_bits=32) if out else entry.default
        for i in (2 * case, 2 * case + 1):
            spec = ExSpec("float", alpha=bool(i % 2), beta=bool(i % 2), bias=1, activation=acts[i % len(acts)],
                          out_ctype="float" if out else None)
            if K and (a_col or b_col):
                spec = dataclasses.replace(spec, a_col=a_col, b_col=b_col, ld=True)
            todo.append((cfg, spec))
    for cfg in configs:
        todo += [(cfg, ExSpec("float", bias=1, activation="gelu")),
                 (cfg, ExSpec("float", bias=1, activation="gelu", b_col=True, ld=True))]
    for cfg, spec in todo:
        for dtype in ("float16", "bfloat16"):
            tm_compile.cached_cubin(render(entry, cfg, dtype, spec), kernel_name(entry.name, cfg, dtype),
                                    cfg.NVRTC_ARCH or "sm_90", entry.name, cfg, dtype)
            n += 1
    print(n, "kernels")


if __name__ == "__main__":
    main()
