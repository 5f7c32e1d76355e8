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
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    import dataclasses

    from _probe import precompile
    from tests.test_gpu_wgmma_tma_general import EPI_CASES
    from tiled_matmul import registry
    from tiled_matmul.configs import ALL_LAYOUTS
    from tiled_matmul.epilogue import ExSpec

    entry = registry.get("wgmma_tma")
    configs = {entry.default, *entry.configs}
    todo = []
    for cfg in configs:
        wide = cfg.replace(out_bits=32)
        todo += [(entry, cfg, ExSpec("float", a_col=a_col, b_col=b_col, ld=True)) for a_col, b_col in ALL_LAYOUTS]
        todo += [(entry, wide, ExSpec("float", out_ctype="float"))]
        todo += [(entry, wide, ExSpec("float", a_col=a_col, b_col=b_col, ld=True, out_ctype="float"))
                 for a_col, b_col in ALL_LAYOUTS]
    # the epilogue kernels tests/test_gpu_wgmma_tma_general.py renders (test_epilogue: two
    # activations per case, alpha/beta on the second; the auto test and the probe's bias + GELU)
    acts = [None, "relu", "gelu", "gelu_tanh", "silu", "sigmoid"]  # test_gpu_gemm.ACTS' order
    for case, ((M, N, K), (a_col, b_col), out) in enumerate(EPI_CASES):
        cfg = entry.default.replace(out_bits=32) if out else entry.default
        for i in (2 * case, 2 * case + 1):
            spec = ExSpec("float", alpha=bool(i % 2), beta=bool(i % 2), bias=1, activation=acts[i % len(acts)],
                          out_ctype="float" if out else None)
            if K and (a_col or b_col):
                spec = dataclasses.replace(spec, a_col=a_col, b_col=b_col, ld=True)
            todo.append((entry, cfg, spec))
    for cfg in configs:
        todo += [(entry, cfg, ExSpec("float", bias=1, activation="gelu")),
                 (entry, cfg, ExSpec("float", bias=1, activation="gelu", b_col=True, ld=True))]
    print(sum(precompile(sys.argv[1], todo, dtype) for dtype in ("float16", "bfloat16")), "kernels")


if __name__ == "__main__":
    main()
