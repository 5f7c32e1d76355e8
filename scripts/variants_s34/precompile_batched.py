"""Compile wgmma_tma's batched kernels that tests/test_gpu_wgmma_tma_batched.py and
probe_half_batched.py render (every config of the tests and of the strategy's list, both 16-bit
dtypes, the four operand layouts; the batched epilogue cases; auto's picks for the batched shapes)
into a cubin cache without a GPU, for a device run to load.

    PYTHONPATH=. python3 scripts/variants_s34/precompile_batched.py CACHE_DIR
"""
import os
import sys


def main() -> None:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    from _probe import precompile
    from tests.test_gpu_wgmma_tma_batched import CONFIGS
    from tiled_matmul import heuristic, registry
    from tiled_matmul.configs import ALL_LAYOUTS
    from tiled_matmul.epilogue import ExSpec

    entry = registry.get("wgmma_tma")
    configs = {entry.make_config(**p) for p in CONFIGS} | set(entry.configs)
    for count, M, N, K in [(8, 4096, 4096, 4096), (8, 2048, 2048, 2048), (32, 1024, 1024, 1024),
                           (64, 512, 512, 512), (4, 3000, 2000, 1536), (96, 512, 512, 64), (96, 512, 64, 512),
                           (16, 1000, 1000, 999), (4, 1000, 1000, 999), (64, 256, 256, 128)]:
        for dt in ("float16", "bfloat16"):
            name, params = heuristic.half_pick(M * count, N, K, dt, 132)
            if name == "wgmma_tma":
                configs.add(entry.make_config(**params))
    todo = []
    for cfg in configs:
        todo.append((entry, cfg, ExSpec("float", batched=True)))
        todo += [(entry, cfg, ExSpec("float", batched=True, a_col=a, b_col=b, ld=True))
                 for a, b in ALL_LAYOUTS if a or b]
    # test_batched_epilogue: alpha 0.5, beta -1.5, a column bias, GELU; its layouts and C types
    epi = dict(batched=True, alpha=True, beta=True, bias=1, activation="gelu")
    todo += [(entry, entry.default, ExSpec("float", **epi)),
             (entry, entry.default, ExSpec("float", **epi, a_col=True, b_col=True, ld=True)),
             (entry, entry.default.replace(out_bits=32), ExSpec("float", **epi, b_col=True, ld=True,
                                                                 out_ctype="float"))]
    print(sum(precompile(sys.argv[1], todo, dtype) for dtype in ("float16", "bfloat16")), "kernels")


if __name__ == "__main__":
    main()
