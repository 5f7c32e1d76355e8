"""Compile the TMA rungs' kernels into a cubin cache without a GPU (variants_s28/_probe.precompile):
the plain (row-major, no epilogue) kernel of every config of the named rungs (16-bit for
wgmma_tma and its split, float32 for wgmma_tma_tf32), and wgmma_tma_tf32's operand-layout kernels
(every pair a config reads, with and without leading dimensions).

    PYTHONPATH=. python3 scripts/variants_s33/precompile_plain.py CACHE_DIR wgmma_tma,wgmma_tma_split_k,wgmma_tma_tf32
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))

from _probe import precompile  # noqa: E402

from tiled_matmul import registry  # noqa: E402
from tiled_matmul.epilogue import ExSpec  # noqa: E402


def main() -> None:
    cache, n = sys.argv[1], 0
    for name in sys.argv[2].split(","):
        entry = registry.get(name)
        configs = {entry.default, *entry.configs}
        tf32 = name == "wgmma_tma_tf32"
        todo = [(entry, cfg) for cfg in configs]
        if tf32:
            todo += [(entry, cfg, ExSpec("float", a_col=a_col, b_col=b_col, ld=ld))
                     for cfg in configs for a_col, b_col in cfg.layouts() for ld in (False, True)]
        for dt in ("float32",) if tf32 else ("float16", "bfloat16"):
            n += precompile(cache, todo, dt)
    print(n, "kernels")


if __name__ == "__main__":
    main()
