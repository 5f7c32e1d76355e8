"""Thirty-ninth session: B rows that are not 16-byte multiples read in place by TMA, in phases.

TMA needs every row pitch on a 16-byte boundary; a 16-bit K x N row-major B with N % 8 != 0 has
none, so wgmma_tma copies B into padded rows first (at 9-64 x 10186 x 4000 the copy is ~60 of
113 us, 0.46-0.53x cuBLAS). But P consecutive rows span P * N * 2 bytes, a multiple of 16 for
P = 16 / gcd(2N, 16) (2, 4 or 8): rows k = P q + r of one phase r are a matrix with a legal
pitch. Its first row starts s_r elements past a 16-byte boundary (s_r = (b % 16 / 2 + r N) mod 8),
so phase r's map starts at that boundary and is s_r columns wider, and its boxes are asked for
at column n + s_r: the box holds B[P q + r][n ..] exactly, and the map's edges (rows ceil((K -
r) / P), columns N + s_r) zero-fill what lies past K and N, as the one map does.

A stage's 64 k lines of a B box then arrive as P boxes of 64 / P lines, phase-major: smem line
r * 64 / P + q holds k = 64 t + P q + r. The k order inside a stage does not change the sum as
long as A's columns come in the same order, so A (M x K, small in the products this is for) is
copied once into A' with each 64-column block permuted that way and zero-padded to whole blocks
(a copy of M K elements in place of B's K N). Nothing else in the kernel changes.

This probe renders wgmma_tma's plain source for a config and patches only B's map parameter
(P maps in one struct), its prefetch and its loads (the probe kernel, A' made inside the timed
call; written first, kept as a cross-check), and times it beside auto (which now reads B this way
itself with variants_s39/b_phases.patch applied: WgmmaTmaConfig.b_phases), auto with B copied
into padded rows as before, and cuBLAS.

Every row is validated first (NaN-poisoned C, float64 reference, per element: tiled_matmul.measure).

The first GPU run (gpu_s39d.sh, H100) faulted: CUDA_ERROR_ILLEGAL_INSTRUCTION at the first launch
of the probe kernel and of the patched auto alike, for P = 2, 4 and 8. --diagnose runs one
launch of the probe kernel (--variant: which part of the phase loads faults; gpu_s40a.sh). The
cause, by others' reports: a TMA copy's first element must lie on a 16-byte boundary (the map's
address plus the box's innermost coordinate; Hopper raises an illegal instruction otherwise:
triton-lang/triton issue 7385 and PR 9112, tile-ai/tilelang PR 2681). Phase r's rows start s_r
elements past a boundary, so its boxes can start on one only s_r columns early, and the shifts
differ between phases: the columns of one stage would not line up. The idea is dead for TMA;
"noshift" (boxes on boundaries, wrong sums) should run where the others fault.

    PYTHONPATH=. python3 scripts/variants_s39/probe_b_phases.py [--dtype float16]
    (--compile-only CACHE_DIR: the patched kernels' cubins, without a GPU)
"""
import argparse
import contextlib
import ctypes
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SHAPES = [(9, 10186, 4000), (16, 10186, 4000), (32, 10186, 4000), (50, 10186, 4000), (64, 10186, 4000),
          (32, 10185, 4000), (33, 10188, 4001), (64, 10187, 4096), (17, 50257, 4096), (128, 10186, 4000),
          (7, 1000, 129), (1, 9, 64)]
CONFIG = dict(bm=128, bn=128, stages=5)


def phases(N: int) -> int:
    """P: the fewest rows whose span is a multiple of 16 bytes (16-bit elements)."""
    return 16 // math.gcd(2 * N, 16)


#: diagnostic variants of the probe kernel's B loads (--variant): "" as described; "noshift" asks
#: for column n (not n + s_r: wrong sums, the coordinates 16-byte aligned); "map0" reads every
#: phase through map 0 (a constant index into the maps' struct); "unroll1" as the shipped loop
VARIANT = ""


def patched_source(P: int):
    """wgmma_tma's plain source for CONFIG with B read as P phase maps; (source, name)."""
    from tiled_matmul.dtypes import as_dtype
    from tiled_matmul.registry import get
    from tiled_matmul.render import kernel_name, render

    entry = get("wgmma_tma")
    cfg = entry.make_config(**CONFIG)
    dt = as_dtype(DTYPE)
    src = render(entry, cfg, dt, None)
    name = kernel_name(entry.name, cfg, dt)
    new = name + f"_bphase{P}"
    edits = [
        ('extern "C" __global__',
         f"struct alignas(64) TmPhaseMaps {{ TmTensorMap m[{P}]; }};\n"
         "// flags bits 8..10: B's base address mod 16, in elements\n"
         'extern "C" __global__'),
        ("const __grid_constant__ TmTensorMap tmB", "const __grid_constant__ TmPhaseMaps tmB"),
        ("tma_prefetch_map(&tmB);", f"for (int r = 0; r < {P}; ++r) tma_prefetch_map(&tmB.m[r]);"),
        ("tma_load_2d(b_smem + stage * B_STAGE_BYTES + j * B_BOX_BYTES, &tmB, n0 + 64 * j, ks * BK, bar);",
         ("{\n#pragma unroll 1\n" if VARIANT == "unroll1" else "{ ")
         + f"for (int r = 0; r < {P}; ++r) tma_load_2d(b_smem + stage * B_STAGE_BYTES + j * B_BOX_BYTES"
         f" + r * (BK / {P}) * 128, &tmB.m[{'0' if VARIANT == 'map0' else 'r'}], n0 + 64 * j"
         + ("" if VARIANT == "noshift" else f" + ((((flags >> 8) & 7) + r * N) & 7)")
         + f", ks * (BK / {P}), bar); }}"),
        (name, new + VARIANT),
    ]
    for old, rep in edits:
        assert src.count(old) >= 1, old
        src = src.replace(old, rep)
    return src, new, cfg, dt


class PhaseKernel:
    """The patched kernel for one P, launched through a packed argument buffer (tmA, P maps of B,
    tmC, C, M, N, K, ldc, flags), A' made on the current stream at each call."""

    def __init__(self, P: int):
        import cupy

        from tiled_matmul.compile import _arch_kernel, allow_dynamic_smem

        self.P = P
        src, name, self.cfg, self.dt = patched_source(P)
        self.raw = _arch_kernel(src, name, "sm_90a", "wgmma_tma", self.cfg, self.dt)
        self.smem = self.cfg.smem_bytes_for(self.dt, None)
        allow_dynamic_smem(self.raw, self.cfg, self.smem)
        self.fptr = self.raw.kernel.ptr
        self.sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
        self.offsets = (0, 128, 128 + 128 * P, 256 + 128 * P, 264 + 128 * P, 268 + 128 * P, 272 + 128 * P,
                        276 + 128 * P, 280 + 128 * P)

    def __call__(self, a, b, c):
        import cupy
        from cupy.cuda import driver

        from tiled_matmul import tma

        M, K = a.shape
        N = b.shape[1]
        P, isz = self.P, 2
        assert phases(N) == P
        kp = -(-K // 64) * 64
        ap = cupy.zeros((M, kp), dtype=a.dtype)
        ap[:, :K] = a
        # within each 64-column block: position r * 64/P + q holds column P q + r
        ap = cupy.ascontiguousarray(ap.reshape(M, kp // 64, 64 // P, P).transpose(0, 1, 3, 2)).reshape(M, kp)
        code = tma.DATA_TYPE[self.dt.name]
        amap = tma.MAPS.get(ap.data.ptr, M, kp, kp, isz, code, self.cfg.bm, 64, "a")
        base = b.data.ptr
        shift0 = (base % 16) // isz
        bmaps = []
        for r in range(P):
            row = base + r * N * isz
            s = (row % 16) // isz
            rows = -(-(K - r) // P)
            assert rows >= 1, "K < P: no rows in this phase"
            bmaps.append(tma.MAPS.get(row - s * isz, rows, N + s, P * N, isz, code, 64 // P, 64, "b"))
            assert s == (shift0 + r * N) % 8
        paired = c.data.ptr % 4 == 0 and N % 2 == 0
        flags = int(paired) | (shift0 << 8)
        raw = ctypes.create_string_buffer(self.offsets[-1] + 64 + 64)
        bp = (ctypes.addressof(raw) + 63) & ~63
        ctypes.memmove(bp, amap, 128)
        for r, m in enumerate(bmaps):
            ctypes.memmove(bp + 128 + 128 * r, m, 128)
        ctypes.memmove(bp + self.offsets[2], amap, 128)  # tmC: unread without flags bit 1
        ctypes.c_uint64.from_address(bp + self.offsets[3]).value = c.data.ptr
        words = (ctypes.c_int32 * 5).from_address(bp + self.offsets[4])
        words[0], words[1], words[2], words[3], words[4] = M, N, K, N, flags
        params = (ctypes.c_void_p * 9)(*(bp + o for o in self.offsets))
        grid = self.cfg.grid(M, N, self.sms)
        bx, by, bz = self.cfg.block()
        driver.launchKernel(self.fptr, grid[0], 1, 1, bx, by, bz, self.smem,
                            cupy.cuda.get_current_stream().ptr, ctypes.addressof(params), 0)
        self._keep = (raw, params, ap)  # until the next call (the launch reads them at once)
        return c


@contextlib.contextmanager
def padded_b():
    """auto as before WgmmaTmaConfig.b_phases: B copied into padded rows."""
    from tiled_matmul.strategies.wgmma_tma import WgmmaTmaConfig

    old = getattr(WgmmaTmaConfig, "PHASES_OVER_COPY", None)
    if old is None:  # a tree without variants_s39/b_phases.patch: auto pads B anyway
        yield
        return
    WgmmaTmaConfig.PHASES_OVER_COPY = float("inf")
    try:
        yield
    finally:
        WgmmaTmaConfig.PHASES_OVER_COPY = old


def main() -> None:
    global DTYPE
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--compile-only", metavar="CACHE_DIR", help="fill a cubin cache (no GPU needed)")
    ap.add_argument("--variant", default="", choices=("", "noshift", "map0", "unroll1"))
    ap.add_argument("--diagnose", metavar="MxNxK", help="run the probe kernel once on this shape: ok / error")
    args = ap.parse_args()
    DTYPE = args.dtype
    global VARIANT
    VARIANT = args.variant
    if args.diagnose:
        import cupy

        M, N, K = map(int, args.diagnose.split("x"))
        a = cupy.asarray(cupy.random.uniform(-1, 1, (M, K)), dtype=DTYPE)
        b = cupy.asarray(cupy.random.uniform(-1, 1, (K, N)), dtype=DTYPE)
        c = cupy.full((M, N), cupy.nan, dtype=DTYPE)
        try:
            PhaseKernel(phases(N))(a, b, c)
            cupy.cuda.Device().synchronize()
        except Exception as exc:  # noqa: BLE001 - the diagnosis is which variants fault
            print(f"{args.variant or 'as described'} {args.diagnose}: {type(exc).__name__}: {str(exc)[:80]}")
            return
        ref = a.astype(cupy.float64) @ b.astype(cupy.float64)
        err = float(cupy.nanmax(cupy.abs(c.astype(cupy.float64) - ref) / (cupy.abs(a.astype(cupy.float64)) @ cupy.abs(b.astype(cupy.float64)))))
        print(f"{args.variant or 'as described'} {args.diagnose}: ran; NaN left {int(cupy.isnan(c).sum())}, "
              f"max error / bound-scale {err:.3g}")
        return
    if args.compile_only:
        os.environ["CUPY_CACHE_DIR"] = args.compile_only
        from tiled_matmul.compile import cached_cubin

        from tiled_matmul.epilogue import ExSpec
        from tiled_matmul.render import kernel_name, render

        for P in sorted({phases(N) for _, N, _ in SHAPES}):
            for VARIANT in ("", "noshift", "map0", "unroll1"):
                globals()["VARIANT"] = VARIANT
                src, name, cfg, dt = patched_source(P)
                print(cached_cubin(src, name, "sm_90a", "wgmma_tma", cfg, dt))
            globals()["VARIANT"] = ""
            # the shipped kernel for B in P phases (auto's path for these shapes), and the tests'
            from tiled_matmul.registry import get

            entry = get("wgmma_tma")
            if "b_phases" not in ExSpec.__dataclass_fields__:  # without variants_s39/b_phases.patch
                continue
            specs = [ExSpec("float", b_phases=P)] if P > 1 else []
            if P == 8:
                specs.append(ExSpec("float", bias=1, activation="relu", b_phases=8))
            for spec in specs:
                cached_cubin(render(entry, cfg, dt, spec), kernel_name("wgmma_tma", cfg, dt), "sm_90a", "wgmma_tma",
                             cfg, dt)
        return
    from _half import cells, geomeans, timed_rows

    from tiled_matmul.measure import L2Flusher, Row, auto_row, cublas_row, make_inputs

    flush = L2Flusher()
    kernels = {}
    logs: dict = {}
    labels = ["auto", "padded", "phases"]
    print(f"{DTYPE}: µs (× cuBLAS); phases = B read in place in P phase maps, A' permuted in the call")
    print("| shape | P | cuBLAS µs | auto | auto, B padded | probe kernel |")
    print("|---|---:|---:|---:|---:|---:|")
    for M, N, K in SHAPES:
        P = phases(N)
        if P not in kernels:
            kernels[P] = PhaseKernel(P)
        sets = make_inputs((M, N, K), DTYPE)
        rows = {"cublas": (cublas_row("probe", dtype=DTYPE), sets), "auto": (auto_row("probe"), sets),
                "padded": (Row("probe", "auto, B padded", auto_row("probe").call, context=padded_b), sets),
                "phases": (Row("probe", f"wgmma_tma_bphase{P}", kernels[P]), sets)}
        res = timed_rows(rows, flush)
        cub = f"{res['cublas'][0]:.1f}" if res["cublas"][0] is not None else "failed"
        print(f"| {M}×{N}×{K} | {P} | {cub} | {' | '.join(cells(res, labels, logs))} |", flush=True)
    print()
    geomeans(logs)


DTYPE = "float16"

if __name__ == "__main__":
    main()
