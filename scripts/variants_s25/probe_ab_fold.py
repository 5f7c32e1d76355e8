"""A/B of gemv_xb_tma before the folded-B change (its template and config at commit 4caa276,
registered as the user strategy xb_tma_old) and after, on aligned shapes, in alternating rounds
(CUDA events, L2 flushed, medians; twenty-fifth session).

    PYTHONPATH=. python3 scripts/variants_s25/probe_ab_fold.py

The old files come from `git show 4caa276:...` into scripts/variants_s25/_old/ (untracked; the
GPU machine has no git history, so run it once here first, and the folder travels with the tree).
Its config keeps the old rules but for mt, which takes 16 as the new one does.
"""
import os
import sys

import cupy

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher

HERE = os.path.dirname(os.path.abspath(__file__))
OLD = os.path.join(HERE, "_old")
BASE = "4caa276"
#: the old module's relative imports made absolute, its name and mt rule changed
EDITS = [("from .. import tma", "from tiled_matmul import tma"), ("from ..configs", "from tiled_matmul.configs"),
         ("from ..device", "from tiled_matmul.device"), ("from ..dtypes", "from tiled_matmul.dtypes"),
         ("from ..strategy", "from tiled_matmul.strategy"), ("from .wgmma_tma", "from tiled_matmul.strategies.wgmma_tma"),
         ('STRATEGY: ClassVar[str] = "gemv_xb_tma"', 'STRATEGY: ClassVar[str] = "xb_tma_old"'),
         ("self.mt in (1, 2, 4, 8)", "self.mt in (1, 2, 4, 8, 16)")]


def _old_files() -> None:
    if os.path.exists(os.path.join(OLD, "xb_tma_old.py")):
        return
    import subprocess

    os.makedirs(OLD, exist_ok=True)
    show = lambda path: subprocess.run(["git", "show", f"{BASE}:{path}"], check=True, capture_output=True, text=True,
                                       cwd=HERE).stdout
    with open(os.path.join(OLD, "xb_tma_old.cu.j2"), "w") as f:
        f.write(show("kernels/24_gemv_xb_tma.cu.j2"))
    module = show("tiled_matmul/strategies/gemv_xb_tma.py")
    for a, b in EDITS:
        assert a in module, a
        module = module.replace(a, b)
    with open(os.path.join(OLD, "xb_tma_old.py"), "w") as f:
        f.write(module)


_old_files()
sys.path.insert(0, OLD)
import xb_tma_old  # noqa: E402
from _pair import rounds  # noqa: E402

tm.register_strategy("xb_tma_old", template=os.path.join(HERE, "_old", "xb_tma_old.cu.j2"),
                     config=xb_tma_old.GemvXbTmaConfig)
CASES = [((32, 4096, 4096), dict(mt=16, bn=32, rk=64, stages=8)), ((32, 4096, 4096), dict(mt=16)),
         ((12, 8192, 8192), dict(mt=16)), ((32, 1024, 32768), dict(mt=16)), ((8, 8192, 8192), {}),
         ((1, 8192, 8192), dict(mt=1, rk=128, stages=6)), ((24, 4096, 16384), {})]


def main() -> None:
    flush = L2Flusher()
    rng = cupy.random.default_rng(5)
    for (M, N, K), p in CASES:
        a = rng.uniform(-1, 1, (M, K), dtype=cupy.float32)
        b = rng.uniform(-1, 1, (K, N), dtype=cupy.float32)
        fns = {"cublas": lambda: cupy.matmul(a, b)}
        for name in ("xb_tma_old", "gemv_xb_tma"):
            k = tm.kernel(name, **p)
            assert tm.check(k(a, b), a, b).passed
            fns[name] = lambda k=k: k(a, b)
        med = {n: ms * 1e3 for n, ms in rounds(fns, 5, flush)[0].items()}
        print(f"{M}x{N}x{K} {p}: cuBLAS {med['cublas']:.1f} us, old {med['xb_tma_old']:.1f}, new {med['gemv_xb_tma']:.1f}",
              flush=True)


if __name__ == "__main__":
    main()
