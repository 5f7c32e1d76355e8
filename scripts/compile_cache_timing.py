"""Time a first compile and a fresh-process hit of CuPy's disk cache.

    PYTHONPATH=. python3 scripts/compile_cache_timing.py   (run it twice: cold, then warm)
"""

import time

t0 = time.perf_counter()
import tiled_matmul as tm  # noqa: E402

k = tm.kernel("register_blocked").compiled("float32")
print(f"import+get_kernel: {time.perf_counter() - t0:.3f} s (compile step {k.compile_seconds:.3f} s, regs {k.num_regs})")
