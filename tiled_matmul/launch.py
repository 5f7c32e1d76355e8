"""Launching a kernel that depends on the one queued before it, through ``cuLaunchKernelEx`` with
programmatic stream serialization (ctypes on ``libcuda.so.1``, as :mod:`tiled_matmul.tma`): a split
product's reduce kernel (``kernels/_reduce.cuh.j2``)."""

from __future__ import annotations

import ctypes
import threading

from . import libcuda


class _LaunchAttribute(ctypes.Structure):
    """CUlaunchAttribute (cuda.h): an id, padding to 8 bytes, a 64-byte value union."""
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4), ("value", ctypes.c_int), ("rest", ctypes.c_char * 60)]


class _LaunchConfig(ctypes.Structure):
    """CUlaunchConfig (cuda.h)."""
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint), ("gridDimZ", ctypes.c_uint),
                ("blockDimX", ctypes.c_uint), ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint), ("hStream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(_LaunchAttribute)), ("numAttrs", ctypes.c_uint)]


#: CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION (cuda.h's CUlaunchAttributeID)
PROGRAMMATIC_STREAM_SERIALIZATION = 6
_pdl_tls = threading.local()


def _driver_launch_ex():
    """``cuLaunchKernelEx`` from libcuda.so.1, typed (loaded once)."""
    return libcuda.function("cuLaunchKernelEx", [ctypes.POINTER(_LaunchConfig), ctypes.c_void_p, ctypes.c_void_p,
                                                 ctypes.c_void_p], purpose="a dependent launch")


#: the first compute capability with programmatic dependent launch (griddepcontrol)
DEPENDENT_LAUNCH_CC = 90


def dependent_launch_supported(compute_capability: "str | int") -> bool:
    """Whether kernels on a GPU of this compute capability ("90") can start early as their
    predecessor's dependents (Hopper on); elsewhere the reduce kernel is launched as usual."""
    return int(compute_capability) >= DEPENDENT_LAUNCH_CC


def launch_dependent(fptr: int, gx: int, gy: int, gz: int, bx: int, by: int, bz: int, smem: int, stream_ptr: int,
                     params_ptr: int, extra: int = 0) -> None:
    """``cuLaunchKernelEx`` of a kernel that depends on the one queued before it on the stream,
    with programmatic stream serialization: its blocks may start while the earlier kernel's last
    blocks still run (once those have all started: every split kernel triggers at its top, see
    ``kernels/_reduce.cuh.j2``), and wait in ``griddepcontrol.wait`` until that kernel has
    finished and its stores are visible. It saves the gap between the two kernels (about 2 us on
    the H100) of a split product. Same arguments as CuPy's ``driver.launchKernel``."""
    try:
        cfg = _pdl_tls.cfg
    except AttributeError:
        attr = _LaunchAttribute(id=PROGRAMMATIC_STREAM_SERIALIZATION, value=1)
        cfg = _LaunchConfig(attrs=ctypes.pointer(attr), numAttrs=1)
        _pdl_tls.cfg, _pdl_tls.attr = cfg, attr
    cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = gx, gy, gz
    cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = bx, by, bz
    cfg.sharedMemBytes, cfg.hStream = smem, stream_ptr
    rc = _driver_launch_ex()(ctypes.byref(cfg), fptr, params_ptr, extra or None)
    if rc != 0:
        from cupy.cuda import driver

        driver.check_status(rc)  # raises CUDADriverError naming the error


def function_ptr(fn) -> int:
    """The CUfunction pointer of a loaded kernel: a cupy.RawKernel's (its ``.kernel``) or a
    cupy.cuda.Function's own (the companions of a rendered source come as either)."""
    return fn.kernel.ptr if hasattr(fn, "kernel") else fn.ptr


def launch_with_args(fptr: int, grid, block, smem: int, stream_ptr: int, args: list, dependent: bool = False) -> None:
    """cuLaunchKernel with each argument's bytes in `args` (ctypes values, kept alive here), for
    kernels whose arguments are not the fixed ones compile.DirectLauncher packs (an epilogue's
    struct, dmma_tail's workspace); a `dependent` launch (a split product's reduce kernel) goes
    through :func:`launch_dependent`."""
    params = (ctypes.c_void_p * len(args))(*(ctypes.addressof(a) for a in args))
    if dependent:
        launch = launch_dependent
    else:
        from cupy.cuda import driver

        launch = driver.launchKernel
    launch(fptr, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem, stream_ptr, ctypes.addressof(params), 0)


__all__ = ["function_ptr", "launch_with_args", "launch_dependent", "dependent_launch_supported", "DEPENDENT_LAUNCH_CC", "PROGRAMMATIC_STREAM_SERIALIZATION"]
