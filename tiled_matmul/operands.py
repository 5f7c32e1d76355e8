"""Input checking for matmul: everything is validated from metadata, before any launch or copy.

Each operand is first described by an :class:`Operand` (shape, dtype, strides, address range,
device, writability) without touching its data, so every bad-input rule can be tested on a
machine without a GPU, with numpy arrays or small fakes that expose the same attributes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .configs import DTYPES

ACCEPTED = (
    "a cupy.ndarray, a numpy.ndarray, or an object exposing __cuda_array_interface__ "
    "(torch CUDA tensors, numba device arrays) or __dlpack__"
)


@dataclass(frozen=True)
class Operand:
    obj: Any
    kind: str  # "cupy" | "numpy" | "cai" | "dlpack"
    shape: tuple[int, ...]
    dtype: np.dtype
    strides: "tuple[int, ...] | None"  # bytes; None means C-contiguous
    ptr: int
    device: "int | None"  # None for host memory
    writable: bool

    @property
    def on_host(self) -> bool:
        return self.kind == "numpy"

    @property
    def c_contiguous(self) -> bool:
        if self.strides is None:
            return True
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


def describe(obj: Any, name: str) -> Operand:
    """An Operand for `obj`, or TypeError naming what was given and what is allowed."""
    try:
        import cupy
    except ImportError:  # pragma: no cover
        cupy = None
    if cupy is not None and isinstance(obj, cupy.ndarray):
        return Operand(obj, "cupy", tuple(obj.shape), np.dtype(obj.dtype), tuple(obj.strides),
                       int(obj.data.ptr), int(obj.device.id), True)
    if isinstance(obj, np.ndarray):
        return Operand(obj, "numpy", tuple(obj.shape), obj.dtype, tuple(obj.strides),
                       int(obj.__array_interface__["data"][0]), None, bool(obj.flags.writeable))
    cai = getattr(obj, "__cuda_array_interface__", None)
    if isinstance(cai, dict):
        ptr, readonly = cai.get("data", (0, False))
        strides = cai.get("strides")
        return Operand(obj, "cai", tuple(cai["shape"]), np.dtype(cai["typestr"]),
                       tuple(strides) if strides is not None else None, int(ptr or 0),
                       _device_of(obj, int(ptr or 0)), not readonly)
    if hasattr(obj, "__dlpack__") and cupy is not None:
        try:
            arr = cupy.from_dlpack(obj)
        except Exception as exc:
            raise TypeError(f"{name}: could not import {type(obj).__name__} through DLPack ({exc}); "
                            f"expected {ACCEPTED}") from None
        return Operand(arr, "dlpack", tuple(arr.shape), np.dtype(arr.dtype), tuple(arr.strides),
                       int(arr.data.ptr), int(arr.device.id), True)
    raise TypeError(f"{name} must be {ACCEPTED}; got {type(obj).__name__}")


def check_operands(a: Any, b: Any, out: Any = None) -> tuple[Operand, Operand, "Operand | None"]:
    """Validate a @ b (and `out`) from metadata only. Raises TypeError/ValueError; writes nothing."""
    da, db = describe(a, "a"), describe(b, "b")
    for op, name, dims in ((da, "a", "(M, K)"), (db, "b", "(K, N)")):
        if len(op.shape) != 2:
            raise ValueError(f"{name} must be a 2-D array {dims}; got {len(op.shape)}-D with shape {op.shape}")
    for op, name in ((da, "a"), (db, "b")):
        if op.dtype.name not in DTYPES:
            raise TypeError(f"{name} has dtype {op.dtype.name}; supported dtypes are {', '.join(DTYPES)}")
    if da.dtype != db.dtype:
        raise TypeError(f"a and b have different dtypes ({da.dtype.name} and {db.dtype.name}); "
                        f"cast one so both are float32 or both float64")
    if da.shape[1] != db.shape[0]:
        raise ValueError(f"inner dimensions differ: a is {da.shape} and b is {db.shape}; "
                         f"a.shape[1] must equal b.shape[0]")
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
