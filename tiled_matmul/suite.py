"""The public shape suite: the shapes `auto` is measured on (benchmarks/shape_suite.py and the GPU
tests), by class. It is a sample of where real programs land; `auto` is designed from the roofline,
not from this list, and is checked on other shapes too.
"""

from __future__ import annotations

Shape = tuple[int, int, int]

#: class name -> (M, N, K) shapes
PUBLIC_SUITE: dict[str, tuple[Shape, ...]] = {
    "compute-bound": (
        (1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192),
        (3001, 2999, 3007), (5000, 3000, 1000), (4096, 4096, 16384), (8192, 8192, 128),
        (128, 8192, 8192), (16384, 64, 4096),
    ),
    "small": ((256, 256, 256), (384, 384, 384), (512, 512, 512), (640, 640, 640), (768, 768, 768)),
    "gemv / decode": (
        (1, 8192, 8192), (8192, 1, 8192), (1, 4096, 16384), (2, 8192, 8192), (8, 8192, 8192),
        (32, 4096, 4096), (64, 8192, 8192), (8192, 8, 8192),
    ),
    "long K, small C": ((64, 64, 65536), (256, 256, 131072), (32, 1024, 32768), (1024, 32, 32768)),
    "tiny K": ((8192, 8192, 1), (8192, 8192, 8), (16384, 16384, 16)),
}

#: dtypes the suite runs in
SUITE_DTYPES: tuple[str, ...] = ("float32", "float64")


def suite_shapes() -> list[tuple[str, Shape]]:
    """(class, shape) for every shape of the suite, in order."""
    return [(cls, shape) for cls, shapes in PUBLIC_SUITE.items() for shape in shapes]


def is_memory_bound(shape: Shape) -> bool:
    """GEMV-like: M or N at most 8, so the kernel streams one operand and does ~2 FLOP per element
    read; its speed is measured against a device copy's bandwidth."""
    M, N, _ = shape
    return min(M, N) <= 8


def min_bytes(shape: Shape, itemsize: int) -> int:
    """Bytes a matmul must move at least: read A and B once, write C once."""
    M, N, K = shape
    return (M * K + K * N + M * N) * itemsize


__all__ = ["PUBLIC_SUITE", "SUITE_DTYPES", "suite_shapes", "is_memory_bound", "min_bytes"]
