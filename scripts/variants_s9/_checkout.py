"""The `tiled_matmul` package of another checkout, imported in place of the current one (the
variant comparisons run several checkouts' kernels in one process)."""
import importlib
import sys


def import_checkout(path: str):
    """tiled_matmul as found at `path` (a checkout's root), every module of the previous one
    dropped first; the caller takes `path` off sys.path with :func:`leave`."""
    sys.path.insert(0, path)
    for name in [k for k in list(sys.modules) if k == "tiled_matmul" or k.startswith("tiled_matmul.")]:
        del sys.modules[name]
    return importlib.import_module("tiled_matmul")


def leave(path: str) -> None:
    sys.path.remove(path)


def matmuls(root: str, variants: list) -> tuple:
    """({variant: tm.matmul of checkout root/variant}, an L2Flusher, time_fn), the checkouts
    imported one after another (root "-": the current directory for every variant)."""
    import os
    fns, timing = {}, None
    for v in variants:
        path = os.getcwd() if root == "-" else f"{root}/{v}"
        fns[v] = import_checkout(path).matmul
        if timing is None:
            from tiled_matmul.timing import L2Flusher, time_fn
            timing = (L2Flusher(), time_fn)
        leave(path)
    return fns, *timing
