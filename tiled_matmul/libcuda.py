"""Typed functions of the CUDA driver library (ctypes on ``libcuda.so.1``), each loaded once: the
driver calls CuPy does not wrap (:mod:`tiled_matmul.tma`'s tensor-map encoding,
:mod:`tiled_matmul.launch`'s ``cuLaunchKernelEx``)."""

from __future__ import annotations

import ctypes
import threading
from typing import Any

_functions: dict[str, Any] = {}
_lock = threading.Lock()


def function(name: str, argtypes: list, restype: Any = ctypes.c_int, purpose: str = "this call") -> Any:
    """The driver's `name`, typed with `argtypes` and `restype` (loaded on first use; RuntimeError
    naming `purpose` where the library cannot be loaded)."""
    fn = _functions.get(name)
    if fn is None:
        with _lock:
            fn = _functions.get(name)
            if fn is None:
                try:
                    lib = ctypes.CDLL("libcuda.so.1")
                except OSError as exc:
                    raise RuntimeError(f"{purpose} needs the CUDA driver (libcuda.so.1): {exc}") from None
                fn = getattr(lib, name)
                fn.argtypes = argtypes
                fn.restype = restype
                _functions[name] = fn
    return fn


__all__ = ["function"]
