"""Fill a cubin cache (compile.cubin_cache_dir's layout) on a machine without a GPU with the
kernels `auto` runs for benchmarks/random_shapes.py's draws, so the device saves NVRTC time.

    PYTHONPATH=. python3 scripts/variants_s27/precompile_auto.py CACHE_DIR SEED[,SEED...] [COUNT] [LO] [DTYPE[,DTYPE...]]

(DTYPE defaults to float32; a transposed call's inner kernel reads its operands in place, so it
is compiled with the column-major layout spec in the dtype's accumulator type.)
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from benchmarks.random_shapes import draw_shapes  # noqa: E402
from tiled_matmul import compile as tm_compile  # noqa: E402
from tiled_matmul.epilogue import ExSpec  # noqa: E402
from tiled_matmul.render import kernel_name, render  # noqa: E402


def cols(dtype: str) -> ExSpec:
    return ExSpec("double" if dtype == "float64" else "float", a_col=True, b_col=True, ld=True)


def main() -> None:
    os.environ["CUPY_CACHE_DIR"] = str(Path(sys.argv[1]).resolve())  # compile.cubin_cache_dir reads it
    import tiled_matmul as tm

    count = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    lo = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    dtypes = sys.argv[5].split(",") if len(sys.argv) > 5 else ["float32"]
    seen, failed = set(), 0
    draws = [(dt, shape) for dt in dtypes for seed in map(int, sys.argv[2].split(","))
             for shape in draw_shapes(count, seed, 200.0, lo)]
    for dt, (M, N, K) in draws:
        k = tm.kernel("auto").kernel_for(M, N, K, dt)
        ks = [(k.strategy, k.config, None)]
        if hasattr(k, "inner"):
            ks.append((k.inner.strategy, k.inner.config, cols(dt)))
        for entry, cfg, ex in ks:
            if (entry.name, cfg, ex, dt) in seen:
                continue
            seen.add((entry.name, cfg, ex, dt))
            try:
                tm_compile.cached_cubin(render(entry, cfg, dt, ex), kernel_name(entry.name, cfg, dt),
                                        cfg.NVRTC_ARCH or "sm_90", entry.name, cfg, dt)
            except Exception as e:  # noqa: BLE001 - some rungs compile through other paths: the device does those
                failed += 1
                print("#", entry.name, type(e).__name__, str(e)[:120])
    print(len(seen), "kernels,", failed, "not precompiled")


if __name__ == "__main__":
    main()
