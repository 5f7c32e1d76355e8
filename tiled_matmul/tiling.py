"""The tiling model's arithmetic: global-memory traffic of a config and resident blocks per SM.

Pure functions, no GPU, no compiler and no dispatch: :mod:`tiled_matmul.analysis` (``explain``)
and :mod:`tiled_matmul.costmodel` build on them. See :mod:`tiled_matmul.analysis` for the traffic
model's definitions.

>>> from tiled_matmul.strategies.smem_tiled import SmemTiledConfig
>>> traffic(SmemTiledConfig(tile=32), 1024, 1024, 1024)["reduction"]
32.0
"""

from __future__ import annotations

from typing import Any

from .configs import Config, cdiv
from .device import DeviceLimits
from .dtypes import as_dtype

#: Registers are allocated per warp in units of this many (so per thread in units of 8).
REG_ALLOC_UNIT = 256

def traffic(cfg: Config, M: int, N: int, K: int, dtype="float32",
            device: "int | DeviceLimits | None" = None) -> dict[str, Any]:
    """The global-memory traffic model of `cfg` for an M×N×K product (pure arithmetic).

    A config that stages partial results in a workspace (it has ``workspace_bytes(M, N, dtype,
    K=..., device=...)``, like split-K, whose slice count may depend on K and the GPU's SM count)
    adds that workspace, written once and read once, to the traffic behind ``intensity``; it is
    reported as ``workspace_bytes``. A config whose launch copies operands into padded rows first
    (``padding_bytes(M, N, K, dtype)``: the TMA rungs, mma_half_split_k) adds those copies' reads
    and writes, reported as ``padding_bytes``.
    """
    isz = as_dtype(dtype).itemsize
    a_el, b_el = cfg.global_reads(M, N, K)
    ws_fn = getattr(cfg, "workspace_bytes", None)
    workspace = int(ws_fn(M, N, dtype, K=K, device=device)) if callable(ws_fn) else 0
    padding = int(cfg.padding_bytes(M, N, K, dtype))
    flops = 2 * M * N * K
    naive = 2 * M * N * K * isz
    tiled = (a_el + b_el) * isz
    minimum = (M * K + K * N) * isz
    output = M * N * isz
    return {
        "flops": flops,
        "naive_bytes": naive,
        "tiled_bytes": tiled,
        "a_read_bytes": a_el * isz,
        "b_read_bytes": b_el * isz,
        "min_bytes": minimum,
        "output_bytes": output,
        "workspace_bytes": workspace,
        "padding_bytes": padding,
        "reduction": naive / tiled if tiled else float("inf"),
        "traffic_over_min": tiled / minimum if minimum else float("inf"),
        # FLOP per byte of this config's global traffic (A and B reads, the C write, any workspace
        # and padding copies).
        "intensity": flops / (tiled + output + 2 * workspace + padding),
        "intensity_min": flops / (minimum + output),
        # How many multiply-adds use each element fetched from global memory.
        "reuse_factor": flops / (a_el + b_el) if a_el + b_el else float("inf"),
        "reuse_a": M * N * K / a_el if a_el else float("inf"),
        "reuse_b": M * N * K / b_el if b_el else float("inf"),
    }


def occupancy(threads: int, smem: int, registers: "int | None", limits: DeviceLimits) -> dict[str, Any]:
    """Resident blocks per SM as limited by threads, shared memory and registers, and the
    theoretical occupancy (resident warps / the SM's maximum warps).

    `registers` is per thread (None when unknown: that limit is then left out and reported None).
    """
    if threads < 1:
        raise ValueError(f"threads per block must be >= 1; got {threads}")
    warp = 32
    warps = cdiv(threads, warp)
    max_warps = limits.max_threads_per_sm // warp
    by_threads = max_warps // warps
    by_smem = limits.blocks_by_smem(smem)  # the same formula as the configs' min_blocks rule
    by_regs = None
    if registers is not None and registers > 0:
        per_warp = cdiv(registers * warp, REG_ALLOC_UNIT) * REG_ALLOC_UNIT
        by_regs = (limits.regs_per_sm // per_warp) // warps
    limits_by = {"threads": by_threads, "shared memory": by_smem, "block slots": limits.max_blocks_per_sm}
    if by_regs is not None:
        limits_by["registers"] = by_regs
    blocks = min(limits_by.values())
    limiter = min(limits_by, key=lambda k: limits_by[k])
    return {
        "warps_per_block": warps,
        "blocks_per_sm_threads": by_threads,
        "blocks_per_sm_smem": by_smem,
        "blocks_per_sm_regs": by_regs,
        "blocks_per_sm_max": limits.max_blocks_per_sm,
        "blocks_per_sm": blocks,
        "occupancy_limiter": limiter,
        "occupancy": blocks * warps / max_warps,
    }


__all__ = ["traffic", "occupancy", "REG_ALLOC_UNIT"]
