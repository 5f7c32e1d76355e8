"""tiled-matmul: hand-written tiled matrix-multiplication CUDA kernels, from naive to register blocking.

>>> import cupy as cp, tiled_matmul as tm                                    # doctest: +SKIP
>>> a = cp.random.rand(1000, 700, dtype=cp.float32)                          # doctest: +SKIP
>>> b = cp.random.rand(700, 1300, dtype=cp.float32)                          # doctest: +SKIP
>>> c = tm.matmul(a, b, strategy="smem_tiled", tile=16)                      # doctest: +SKIP
>>> tm.check(c, a, b).passed                                                 # doctest: +SKIP
True

Importing needs no GPU: ``source()``, the registry and config validation work anywhere.
"""

from .api import DEFAULT_STRATEGY, AutoKernel, MatmulKernel, gemm, kernel, launch_grid, matmul, source, tolerance
from .accuracy import CheckReport, check
from .compile import KernelCompileError, get_kernel
from .configs import Config
from .device import DeviceLimits, device_limits, gpu_available
from .dtypes import DType
from .precision import get_precision, set_precision
from .registry import STRATEGIES, register_strategy, unregister_strategy
from .strategy import Strategy
from . import bench
from .analysis import explain
from .tuner import TuneResult, tune

__version__ = "0.1.0"

__all__ = [
    "matmul", "gemm", "kernel", "source", "check", "tolerance", "launch_grid", "MatmulKernel", "AutoKernel", "CheckReport", "DType",
    "KernelCompileError", "get_kernel", "Config", "DeviceLimits", "device_limits", "gpu_available",
    "STRATEGIES", "Strategy", "register_strategy", "unregister_strategy", "DEFAULT_STRATEGY", "__version__",
    "explain", "bench",
    "tune", "TuneResult", "set_precision", "get_precision",
]
