"""The element types the kernels compute, in one form that travels down every call.

A :class:`DType` *is* its name (a ``str`` subclass: ``FLOAT32 == "float32"``, usable as a dict
key, written to JSON as the name) and carries what the layers below need: the item size, the C
type and 16-byte vector type the templates render with, the short tag used in kernel symbols.
The public API converts whatever the caller passes (``numpy.float32``, ``"float64"``, a cupy
dtype) once, with :func:`as_dtype`; nothing below converts again.

>>> from tiled_matmul.dtypes import as_dtype
>>> dt = as_dtype("float32")
>>> dt == "float32", dt.itemsize, dt.ctype, dt.vec
(True, 4, 'float', 4)
"""

from __future__ import annotations

from typing import Any

import numpy as np


class DType(str):
    """A supported element type: the name, plus its item size and C spellings."""

    itemsize: int
    char: str  #: numpy's one-letter code ("f", "d")
    ctype: str  #: C element type in the templates
    vec_ctype: str  #: 16-byte vector type in the templates
    short: str  #: tag in kernel symbols ("f32")

    def __new__(cls, name: str, char: str, ctype: str, vec_ctype: str, short: str,
                itemsize: "int | None" = None) -> "DType":
        self = super().__new__(cls, name)
        # bfloat16 is not a numpy name (ml_dtypes registers it), so its size is given
        self.itemsize = itemsize if itemsize is not None else np.dtype(name).itemsize
        self.char, self.ctype, self.vec_ctype, self.short = char, ctype, vec_ctype, short
        return self

    @property
    def name(self) -> str:
        return str.__str__(self)

    @property
    def vec(self) -> int:
        """Elements in one 16-byte vector access."""
        return 16 // self.itemsize

    @property
    def half(self) -> bool:
        """A 16-bit type (float16, bfloat16): tensor-core operands, accumulated in float32."""
        return self.itemsize == 2

    @property
    def acc(self) -> "DType":
        """The type sums and epilogues compute in: float32 for the 16-bit types, else itself."""
        return FLOAT32 if self.half else self

    @property
    def numpy(self) -> np.dtype:
        if self.name == "bfloat16":
            import ml_dtypes  # imported on use: only bfloat16 needs it

            return np.dtype(ml_dtypes.bfloat16)
        return np.dtype(self.name)

    def __repr__(self) -> str:
        return f"DType({self.name!r})"

    def __reduce__(self):  # pickles (and so crosses processes) as a lookup by name
        return (as_dtype, (self.name,))


FLOAT32 = DType("float32", "f", "float", "float4", "f32")
FLOAT64 = DType("float64", "d", "double", "double2", "f64")
# Half-precision inputs for the tensor-core rungs (FP32 accumulation). numpy names float16 itself;
# bfloat16 is ml_dtypes' extension type (numpy char "E"), the one CuPy 14 accepts.
FLOAT16 = DType("float16", "e", "__half", "uint4", "f16")
BFLOAT16 = DType("bfloat16", "E", "__nv_bfloat16", "uint4", "bf16", itemsize=2)

#: every dtype some strategy computes, by name
DTYPES: dict[str, DType] = {d.name: d for d in (FLOAT32, FLOAT64, FLOAT16, BFLOAT16)}
#: the 16-bit ones (tensor-core rungs only; FP32 accumulation)
HALF_DTYPES: tuple[DType, ...] = (FLOAT16, BFLOAT16)
#: the same, by numpy's one-letter code (the hot path reads ``array.dtype.char``)
BY_CHAR: dict[str, DType] = {d.char: d for d in DTYPES.values()}


def as_dtype(dtype: Any) -> DType:
    """The :class:`DType` for a dtype-like (``np.float32``, ``"float32"``, a cupy/numpy dtype).

    Raises TypeError for anything else, naming what is allowed.
    """
    if isinstance(dtype, DType):
        return dtype
    hit = DTYPES.get(dtype) if isinstance(dtype, str) else None
    if hit is not None:
        return hit
    try:
        name = np.dtype(dtype).name
    except TypeError as exc:
        if getattr(dtype, "__name__", None) == "bfloat16" or str(dtype) in ("bfloat16", "torch.bfloat16"):
            return BFLOAT16  # ml_dtypes' scalar type, or torch's dtype object

        raise TypeError(f"dtype {dtype!r} is not a dtype; allowed: {', '.join(DTYPES)}") from exc
    if name not in DTYPES:
        raise TypeError(f"dtype {name} is not supported; allowed: {', '.join(DTYPES)}")
    return DTYPES[name]


__all__ = ["DType", "FLOAT16", "BFLOAT16", "FLOAT32", "FLOAT64", "DTYPES", "HALF_DTYPES", "BY_CHAR", "as_dtype"]
