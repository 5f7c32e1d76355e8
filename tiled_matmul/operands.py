"""Input checking for matmul: everything is validated from metadata, before any launch or copy.

Each operand is first described by an :class:`Operand` (shape, dtype, strides, address range,
device, writability) without touching its data, so every bad-input rule can be tested on a
machine without a GPU, with numpy arrays or small fakes that expose the same attributes.

Accepted operands, and how they are seen (all zero-copy):

* ``cupy.ndarray``: kind ``"cupy"``, on its device;
* ``numpy.ndarray``: kind ``"numpy"``, on the host (copied to the GPU at launch);
* an object exposing ``__cuda_array_interface__`` (torch CUDA tensors, numba device arrays):
  kind ``"cai"``, described from the interface dict alone;
* an object exposing ``__dlpack__`` (JAX arrays, CUDA or CPU torch tensors through DLPack):
  kind ``"dlpack"``; CUDA ones are imported with ``cupy.from_dlpack`` (on the current CuPy
  stream, so the producer orders its work before ours), host ones with ``numpy.from_dlpack`` and
  then treated like numpy arrays.
"""

from __future__ import annotations

import functools
import operator
import types
from dataclasses import dataclass
from typing import Any

import numpy as np

from .device import gpu_available
from .dtypes import BY_CHAR, DTYPES, DType

ACCEPTED = (
    "a cupy.ndarray, a numpy.ndarray, or an object exposing __cuda_array_interface__ "
    "(torch CUDA tensors, numba device arrays) or __dlpack__"
)

#: The kernels take M, N and K as 32-bit ints (offsets are 64-bit): each must fit.
MAX_DIM = 2**31 - 1

# DLPack device types (dlpack.h, DLDeviceType).
_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 1, 2, 3, 13
_DL_NAMES = {1: "CPU", 2: "CUDA", 3: "CUDA host", 4: "OpenCL", 7: "Vulkan", 8: "Metal", 9: "VPI",
             10: "ROCm", 11: "ROCm host", 13: "CUDA managed", 14: "oneAPI"}


@dataclass(frozen=True)
class Operand:
    obj: Any  # the caller's object, returned as is when it is `out`
    kind: str  # "cupy" | "numpy" | "cai" | "dlpack"
    shape: tuple[int, ...]
    dtype: np.dtype
    strides: "tuple[int, ...] | None"  # bytes; None means C-contiguous
    ptr: int
    device: "int | None"  # None for host memory
    writable: bool
    #: a zero-copy array over the same memory: numpy for host operands, cupy for "cupy" and CUDA
    #: DLPack operands; None for "cai" operands (viewed with cupy.asarray when staged)
    array: Any = None
    #: True for host memory (numpy arrays, host DLPack objects)
    host: "bool | None" = None

    @property
    def on_host(self) -> bool:
        return self.kind == "numpy" if self.host is None else bool(self.host)

    @property
    def c_contiguous(self) -> bool:
        if self.strides is None or any(n == 0 for n in self.shape):
            return True  # no elements: any strides describe the same (empty) layout
        expected = self.dtype.itemsize
        for n, s in zip(reversed(self.shape), reversed(self.strides)):
            if n > 1 and s != expected:
                return False
            expected *= n
        return True

    def byte_range(self) -> "tuple[int, int] | None":
        """[lo, hi) bytes this operand can touch; None when it has no elements."""
        if any(n == 0 for n in self.shape):
            return None
        strides = self.strides
        if strides is None:  # C-contiguous: each stride is the product of the dims after it
            strides = tuple(self.dtype.itemsize * int(np.prod(self.shape[i + 1:], dtype=np.int64))
                            for i in range(len(self.shape)))
        lo = self.ptr + sum(min(0, s * (n - 1)) for n, s in zip(self.shape, strides))
        hi = self.ptr + sum(max(0, s * (n - 1)) for n, s in zip(self.shape, strides)) + self.dtype.itemsize
        return lo, hi


def _device_of(obj: Any, ptr: int) -> "int | None":
    dev = getattr(obj, "device", None)
    for attr in ("id", "index"):  # cupy.cuda.Device.id, torch.device.index
        value = getattr(dev, attr, None)
        if isinstance(value, int):
            return value
    try:
        import cupy

        return int(cupy.cuda.runtime.pointerGetAttributes(ptr).device)
    except Exception:
        return None


def _numpy_operand(obj: Any, arr: np.ndarray, kind: str) -> Operand:
    return Operand(obj, kind, tuple(arr.shape), arr.dtype, tuple(arr.strides),
                   int(arr.__array_interface__["data"][0]), None, bool(arr.flags.writeable),
                   array=arr, host=True)


def _cupy_operand(obj: Any, arr: Any, kind: str) -> Operand:
    return Operand(obj, kind, tuple(arr.shape), np.dtype(arr.dtype), tuple(arr.strides),
                   int(arr.data.ptr), int(arr.device.id), True, array=arr, host=False)


def _dlpack_operand(obj: Any, name: str, cupy: Any) -> Operand:
    tname = type(obj).__name__
    dev_type = None
    if hasattr(obj, "__dlpack_device__"):
        try:
            dev_type = int(obj.__dlpack_device__()[0])
        except Exception as exc:
            raise TypeError(f"{name}: __dlpack_device__() of {tname} failed ({exc})") from None
    host = dev_type in (_DL_CPU, _DL_CUDA_HOST)
    if dev_type is not None and not host and dev_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        raise TypeError(f"{name} is a {tname} on a {_DL_NAMES.get(dev_type, f'type-{dev_type}')} device "
                        "(DLPack); only CUDA device memory or host memory is supported")
    try:
        if host:
            return _numpy_operand(obj, np.from_dlpack(obj), "dlpack")
        if cupy is None:  # pragma: no cover - cupy is a hard requirement at run time
            raise RuntimeError("cupy is not installed")
        return _cupy_operand(obj, cupy.from_dlpack(obj), "dlpack")
    except Exception as exc:
        raise TypeError(f"{name}: could not import {tname} through DLPack ({exc}); "
                        f"expected {ACCEPTED}") from None


def _opaque(cai: dict) -> bool:
    """Whether an interface dict's typestr names raw records ("V") rather than numbers."""
    try:
        return np.dtype(cai.get("typestr")).kind == "V" and np.dtype(cai.get("typestr")).name.startswith("void")
    except TypeError:
        return False


def describe(obj: Any, name: str) -> Operand:
    """An Operand for `obj`, or TypeError naming what was given and what is allowed."""
    try:
        import cupy
    except ImportError:  # pragma: no cover
        cupy = None
    if cupy is not None and isinstance(obj, cupy.ndarray):
        return _cupy_operand(obj, obj, "cupy")
    if isinstance(obj, np.ndarray):
        return _numpy_operand(obj, obj, "numpy")
    if getattr(obj, "requires_grad", False) is True:  # torch: we do not track gradients
        raise ValueError(f"{name} requires grad, and tiled_matmul does not track gradients (reading it "
                         f"or writing into it would bypass autograd); pass {name}.detach()")
    try:
        # torch raises RuntimeError here for tensors that require grad (and AttributeError,
        # which getattr turns into None, for CPU tensors).
        cai = getattr(obj, "__cuda_array_interface__", None)
    except Exception as exc:
        if hasattr(obj, "__dlpack__"):  # e.g. a dtype the interface cannot name (older torch, bfloat16)
            return _dlpack_operand(obj, name, cupy)
        raise TypeError(f"{name}: reading __cuda_array_interface__ of {type(obj).__name__} failed ({exc})") from None
    if isinstance(cai, dict) and _opaque(cai) and hasattr(obj, "__dlpack__"):
        # bfloat16 has no typestr of its own ("<V2", raw 2-byte records, is what torch reports):
        # DLPack names it (kDLBfloat), so import through DLPack, still zero-copy
        return _dlpack_operand(obj, name, cupy)
    if isinstance(cai, dict):
        if cai.get("mask") is not None:
            raise TypeError(f"{name} is a masked array (__cuda_array_interface__ has a mask); "
                            "masks are not supported")
        ptr, readonly = cai.get("data", (0, False))
        strides = cai.get("strides")
        try:
            dtype = np.dtype(cai["typestr"])
        except TypeError:
            raise TypeError(f"{name} has typestr {cai['typestr']!r}; supported dtypes are "
                            f"{', '.join(DTYPES)}") from None
        return Operand(obj, "cai", tuple(int(n) for n in cai["shape"]), dtype,
                       tuple(strides) if strides is not None else None, int(ptr or 0),
                       _device_of(obj, int(ptr or 0)), not readonly, array=None, host=False)
    if hasattr(obj, "__dlpack__"):
        return _dlpack_operand(obj, name, cupy)
    raise TypeError(f"{name} must be {ACCEPTED}; got {type(obj).__name__}")


def check_operands(a: Any, b: Any, out: Any = None) -> tuple[Operand, Operand, "Operand | None"]:
    """Validate a @ b (and `out`) from metadata only. Raises TypeError/ValueError; writes nothing."""
    da, db = describe(a, "a"), describe(b, "b")
    for op, name, dims in ((da, "a", "(M, K)"), (db, "b", "(K, N)")):
        if len(op.shape) != 2:
            raise ValueError(f"{name} must be a 2-D array {dims}; got {len(op.shape)}-D with shape "
                             f"{op.shape} (batched matmul is not supported)")
    for op, name in ((da, "a"), (db, "b")):
        if op.dtype.name not in DTYPES:
            raise TypeError(f"{name} has dtype {op.dtype.name}; supported dtypes are {', '.join(DTYPES)}")
    if da.dtype != db.dtype:
        raise TypeError(f"a and b have different dtypes ({da.dtype.name} and {db.dtype.name}); "
                        f"cast one so both have one of {', '.join(DTYPES)}")
    if da.shape[1] != db.shape[0]:
        raise ValueError(f"inner dimensions differ: a is {da.shape} and b is {db.shape}; "
                         f"a.shape[1] must equal b.shape[0]")
    for dim, value in (("M", da.shape[0]), ("K", da.shape[1]), ("N", db.shape[1])):
        if value > MAX_DIM:
            raise ValueError(f"{dim} = {value} is over {MAX_DIM} (2**31 - 1), the largest dimension the "
                             "kernels index; split the product into blocks")
    if da.on_host != db.on_host:
        raise TypeError("a and b must both be host (numpy) arrays or both device arrays; "
                        f"got {da.kind} and {db.kind}")
    if not da.on_host and da.device != db.device:
        raise ValueError(f"a is on device {da.device} and b on device {db.device}; "
                         "move them to one device first")
    dout = None
    if out is not None:
        dout = describe(out, "out")
        want = (da.shape[0], db.shape[1])
        if dout.on_host != da.on_host:
            kind = "a numpy array" if da.on_host else "a device array"
            raise TypeError(f"out must be {kind} like the inputs; got {dout.kind}")
        if len(dout.shape) != 2 or dout.shape != want:
            raise ValueError(f"out has shape {dout.shape}; a @ b needs shape {want}")
        if dout.dtype != da.dtype:
            raise TypeError(f"out has dtype {dout.dtype.name}; the inputs are {da.dtype.name}")
        if not dout.c_contiguous:
            raise ValueError(f"out must be C-contiguous (row-major); got strides {dout.strides}")
        if not dout.writable:
            raise ValueError("out is read-only; pass a writable array")
        if not dout.on_host and dout.device != da.device:
            raise ValueError(f"out is on device {dout.device} but the inputs are on device {da.device}")
        r_out = dout.byte_range()
        for op, name in ((da, "a"), (db, "b")):
            r = op.byte_range()
            if r_out is not None and r is not None and r_out[0] < r[1] and r[0] < r_out[1]:
                raise ValueError(f"out overlaps input {name}; pass an out that shares no memory with a or b")
    return da, db, dout


# ---------------------------------------------------------------------------------------------
# the hot path: plain cupy operands vetted from metadata in a few microseconds
# ---------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def cupy_bindings() -> "types.SimpleNamespace | None":
    """CuPy and the few functions the hot path calls on every launch, bound once; None without a
    GPU (importing tiled_matmul must work without CuPy)."""
    if not gpu_available():
        return None
    import cupy

    return types.SimpleNamespace(
        cupy=cupy,
        ndarray=cupy.ndarray,
        get_device=cupy.cuda.runtime.getDevice,
        current_stream=cupy.cuda.get_current_stream,
        # ndarray._c_contiguous is a plain attribute; .flags builds a Flags object per access.
        c_contiguous=(operator.attrgetter("_c_contiguous") if hasattr(cupy.ndarray, "_c_contiguous")
                      else (lambda x: x.flags.c_contiguous)),
    )


def fast_operands(a: Any, b: Any, out: Any) -> "tuple[int, int, int, int, DType] | None":
    """(M, N, K, device, dtype) when a, b (and out) are plain C-contiguous cupy arrays that pass
    every rule of :func:`check_operands` on the current device, with nothing to copy; else None.

    This is the common case and it must cost a few microseconds: it reads only shapes, dtypes,
    flags and pointers. Returning None sends the call through :func:`check_operands`, which
    raises the proper error for bad input, so every rule still lives there.
    """
    cp = cupy_bindings()
    if cp is None:
        return None
    nd = cp.ndarray
    if type(a) is not nd or type(b) is not nd or (out is not None and type(out) is not nd):
        return None
    sa, sb = a.shape, b.shape
    if len(sa) != 2 or len(sb) != 2 or sa[1] != sb[0] or a.dtype != b.dtype:
        return None
    dt = BY_CHAR.get(a.dtype.char)
    if dt is None:
        return None
    M, K = sa
    N = sb[1]
    c_contiguous = cp.c_contiguous
    if not (M and N and K) or M > MAX_DIM or N > MAX_DIM or K > MAX_DIM or not (c_contiguous(a) and c_contiguous(b)):
        return None
    device = a.data.device_id
    if b.data.device_id != device or device != cp.get_device():
        return None
    if out is not None:
        if out.shape != (M, N) or out.dtype != a.dtype or not c_contiguous(out) or out.data.device_id != device:
            return None
        lo, hi = out.data.ptr, out.data.ptr + out.nbytes
        for x in (a, b):
            if x.data.ptr < hi and lo < x.data.ptr + x.nbytes:
                return None  # overlap: check_operands raises
    return M, N, K, device, dt


def launch_flags(a_ptr: int, b_ptr: int, c_ptr: int, K: int, N: int, itemsize: int) -> int:
    """The kernels' `flags` argument: bit 0 when every row of A starts on a 16-byte boundary,
    bit 1 when every row of B and of C does (16-byte vector accesses are legal only then)."""
    return int(a_ptr % 16 == 0 and (K * itemsize) % 16 == 0) | (
        int(b_ptr % 16 == 0 and c_ptr % 16 == 0 and (N * itemsize) % 16 == 0) << 1)
