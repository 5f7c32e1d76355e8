"""Which kernels cuBLAS runs (through torch.matmul, its profiler's kernel names) for the shapes
where our rungs trail it: tf32 and float32 at 4096³/8192³, float64 at 4096³ and the small cubes,
the split GEMV and long-K shapes. The names carry cuBLAS's tile sizes, clusters and split-K or
stream-K schedules.

    python3 scripts/probe_cublas_kernels.py [MxNxK:dtype[:tf32] ...]   (default: CASES)
"""

from __future__ import annotations

import sys

import torch
from torch.profiler import ProfilerActivity, profile

CASES = [((8192, 8192, 8192), torch.float32, True), ((4096, 4096, 4096), torch.float32, True),
         ((8192, 8192, 8192), torch.float32, False), ((4096, 4096, 4096), torch.float64, False),
         ((3001, 2999, 3007), torch.float64, False), ((256, 256, 256), torch.float64, False),
         ((640, 640, 640), torch.float64, False), ((64, 64, 65536), torch.float64, False),
         ((1024, 32, 32768), torch.float64, False), ((256, 256, 131072), torch.float64, False),
         ((1, 4096, 16384), torch.float32, False), ((8192, 8, 8192), torch.float64, False),
         ((2, 8192, 8192), torch.float64, False)]


def parse(arg: str):
    """'768x768x768:float64' or '4096x4096x4096:float32:tf32' -> a CASES entry."""
    shape, dtype, *rest = arg.split(":")
    return tuple(int(d) for d in shape.split("x")), getattr(torch, dtype), rest == ["tf32"]


def main() -> None:
    cases = [parse(a) for a in sys.argv[1:]] or CASES
    for (M, N, K), dtype, tf32 in cases:
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = torch.randn(M, K, device="cuda", dtype=dtype)
        b = torch.randn(K, N, device="cuda", dtype=dtype)
        for _ in range(3):
            torch.matmul(a, b)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            torch.matmul(a, b)
            torch.cuda.synchronize()
        names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
        print(f"{M}x{N}x{K} {str(dtype)[6:]}{' tf32' if tf32 else ''}: {' ; '.join(names)}", flush=True)


if __name__ == "__main__":
    main()
