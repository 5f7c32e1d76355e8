"""What the kernels need to know about a GPU, read from the device (never hard-coded).

Without a GPU (CI, a laptop), :func:`device_limits` returns :data:`H100_LIMITS` so that configs
can still be validated and the tiling model can still be explained for the machine we target.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


def is_hopper(compute_capability: "str | int") -> bool:
    """Whether a compute capability ("90" or 90) is Hopper's 9.0: DeviceLimits.hopper and
    tunedb.DeviceId.hopper both ask this."""
    return str(compute_capability) == "90"


@dataclass(frozen=True)
class DeviceLimits:
    """The per-device numbers that `Config.validate()` and the tiling model use."""

    name: str
    compute_capability: str  # "90" for sm_90
    sm_count: int
    max_threads_per_block: int
    max_threads_per_sm: int
    max_blocks_per_sm: int
    smem_per_block: int  # default static limit (48 KB)
    smem_per_block_optin: int  # the most a block may get after raising its dynamic limit
    smem_per_sm: int
    regs_per_sm: int
    regs_per_block: int
    max_grid_y: int
    l2_bytes: int
    clock_khz: int
    is_real: bool = True  # False for the stand-in used where there is no GPU

    @property
    def arch(self) -> str:
        return f"sm_{self.compute_capability}"

    @property
    def hopper(self) -> bool:
        """Compute capability 9.0: the GPU that runs the sm_90a rungs (wgmma, TMA) and the sm_90
        FP64 MMA shapes (the heuristic's `wgmma` and `dmma` flags)."""
        return is_hopper(self.compute_capability)

    @property
    def smem_reserved_per_block(self) -> int:
        """Shared memory the hardware sets aside for every resident block (1 KB from sm_80 on)."""
        return 1024 if int(self.compute_capability) >= 80 else 0

    def blocks_by_smem(self, smem: int) -> int:
        """How many blocks using `smem` bytes of shared memory each fit one SM, reserve included.

        The one formula for "fits on one SM": config rules (``min_blocks``) and the occupancy
        model of :mod:`tiled_matmul.analysis` both use it.
        """
        per_block = smem + self.smem_reserved_per_block
        return self.smem_per_sm // per_block if per_block > 0 else self.max_blocks_per_sm


#: The H100 SXM (sm_90) numbers, used where no GPU is present.
H100_LIMITS = DeviceLimits(
    name="NVIDIA H100 80GB HBM3 (assumed: no GPU present)",
    compute_capability="90",
    sm_count=132,
    max_threads_per_block=1024,
    max_threads_per_sm=2048,
    max_blocks_per_sm=32,
    smem_per_block=48 * 1024,
    smem_per_block_optin=227 * 1024,
    smem_per_sm=228 * 1024,
    regs_per_sm=65536,
    regs_per_block=65536,
    max_grid_y=65535,
    l2_bytes=50 * 1024 * 1024,
    clock_khz=1_980_000,
    is_real=False,
)


def gpu_available() -> bool:
    """True when CuPy imports and can see at least one CUDA device."""
    try:
        import cupy
    except Exception:  # pragma: no cover - cupy is a hard requirement at run time
        return False
    try:
        return bool(cupy.is_available())
    except Exception:
        return False


@lru_cache(maxsize=None)
def _limits_for(device_id: int) -> DeviceLimits:
    import cupy

    attrs = cupy.cuda.Device(device_id).attributes
    props = cupy.cuda.runtime.getDeviceProperties(device_id)
    name = props["name"]
    name = name.decode() if isinstance(name, bytes) else str(name)
    return DeviceLimits(
        name=name,
        compute_capability=cupy.cuda.Device(device_id).compute_capability,
        sm_count=attrs["MultiProcessorCount"],
        max_threads_per_block=attrs["MaxThreadsPerBlock"],
        max_threads_per_sm=attrs["MaxThreadsPerMultiProcessor"],
        max_blocks_per_sm=attrs.get("MaxBlocksPerMultiprocessor", 32),
        smem_per_block=attrs["MaxSharedMemoryPerBlock"],
        smem_per_block_optin=attrs.get("MaxSharedMemoryPerBlockOptin", attrs["MaxSharedMemoryPerBlock"]),
        smem_per_sm=attrs["MaxSharedMemoryPerMultiprocessor"],
        regs_per_sm=attrs["MaxRegistersPerMultiprocessor"],
        regs_per_block=attrs["MaxRegistersPerBlock"],
        max_grid_y=attrs["MaxGridDimY"],
        l2_bytes=attrs["L2CacheSize"],
        clock_khz=props.get("clockRate", 0) or attrs.get("ClockRate", 0),
    )


def device_limits(device: "int | DeviceLimits | None" = None) -> DeviceLimits:
    """Limits of `device` (an id, the current device when None), or the H100 stand-in without a GPU."""
    if isinstance(device, DeviceLimits):
        return device
    if not gpu_available():
        return H100_LIMITS
    import cupy

    return _limits_for(cupy.cuda.Device().id if device is None else int(device))


class _StreamPointer:
    """A raw CUDA stream handle behind the CUDA stream protocol (``__cuda_stream__``: version 0,
    the handle), which ``cupy.cuda.Stream.from_external`` takes."""

    def __init__(self, ptr: int) -> None:
        self.ptr = ptr

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, self.ptr)


def stream_at(ptr: int):
    """A CuPy stream object (not owning it) for the raw CUDA stream handle `ptr`, to allocate and
    launch on with ``with stream_at(ptr):``: ``Stream.from_external`` (CuPy >= 14, where
    ``ExternalStream`` is deprecated), else ``ExternalStream``.

    >>> stream_at(0).ptr
    0
    """
    import cupy

    from_external = getattr(cupy.cuda.Stream, "from_external", None)
    if from_external is not None:
        return from_external(_StreamPointer(ptr))
    return cupy.cuda.ExternalStream(ptr)
