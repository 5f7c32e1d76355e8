"""Fortieth session: 16-bit B rows off 16 bytes read in place by a cp.async producer warpgroup.

TMA needs every row pitch (and every copy's first element) on a 16-byte boundary, so a 16-bit
K x N row-major B with N % 8 != 0 has no map: wgmma_tma copies B into padded rows first (at
9-64 x 10186 x 4000 the copy is ~60 of 113 us, 0.46-0.53x cuBLAS; the aligned neighbour
50 x 10192 x 4000 runs 0.83x). The thirty-ninth session's phase maps fault (copy starts off 16
bytes). What is left: the producer warpgroup's 128 threads load B themselves with `cp.async` of
VEC bytes (4: N even and B's base on 4 bytes; 8: N % 4 == 0 and base on 8), straight into the
stage's 128-byte-swizzled MN-major layout wgmma reads (line k of box j at j * 8 KB + k * 128;
the 16-byte chunk of column n is (n / 8) ^ (k % 8)), zero-filled past K and N (source size 0).
A still comes by TMA.

Ordering: each producer thread arrives on the stage's "full" barrier with
`cp.async.mbarrier.arrive.noinc` (the arrival fires when that thread's earlier copies landed), so
the barrier counts 1 (thread 0's expect_tx for A) + 128 arrivals. The copies are generic-proxy
writes and wgmma reads shared memory through the async proxy, so each consumer thread issues
`fence.proxy.async.shared::cta` after its wait (PTX ISA, wgmma: a proxy fence orders earlier
shared-memory writes before a wgmma's reads). Variant "nofence" leaves it out (as some libraries'
cp.async + wgmma mainloops do) to see what it costs; it is not a candidate to ship.

A warp writes one (VEC 4) or two (VEC 8) whole 128-byte lines per instruction: conflict-free.
Its source is 128 contiguous bytes of one row, five 32-byte sectors against four aligned.

The probe renders wgmma_tma's plain source for a config, replaces B's map parameter by a pointer
and its leading dimension, the producer's B loads by the copies above, the full barriers' count,
and adds the consumers' fence; it times the kernel beside auto (B copied into padded rows) and
cuBLAS, every row validated first (NaN-poisoned C, float64 reference, per element:
tiled_matmul.measure).

    PYTHONPATH=. python3 scripts/variants_s40/probe_cp_b.py [--dtype float16]
    (--compile-only CACHE_DIR: the patched kernels' cubins and ptxas reports, no GPU needed;
     --diagnose MxNxK: one launch of each variant, in this process, error or max error)
"""
import argparse
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SHAPES = [(9, 10186, 4000), (16, 10186, 4000), (32, 10186, 4000), (50, 10186, 4000), (64, 10186, 4000),
          (64, 10188, 4000), (33, 10186, 4001), (64, 10190, 4096), (17, 50258, 4096), (128, 10186, 4000),
          (50, 10192, 4000), (7, 1000, 130), (1, 10, 64)]
CONFIGS = {"128x128": dict(bm=128, bn=128, stages=5), "128x64": dict(bm=128, bn=64, stages=8)}

MARK_START = "        if (threadIdx.x == 0) {\n            tma_prefetch_map(&tmA);"
MARK_END = "    } else {\n        asm volatile(\"setmaxnreg.inc"

PRODUCER = """        // Producer: all 128 threads copy B with cp.async (VEC = {vec} bytes); thread 0 also
        // copies A by TMA and announces its bytes.
        {{
            const int tid = threadIdx.x;
            if (tid == 0) tma_prefetch_map(&tmA);
            constexpr int E = {vec} / 2;              // elements per copy
            constexpr int PER_LINE = 64 / E;         // threads per 128-byte line of a box
            constexpr int LINES = 128 / PER_LINE;    // lines the warpgroup covers per pass
            const int nb = (tid % PER_LINE) * E;     // this thread's column in a box
            const int l0 = tid / PER_LINE;           // its first line
            const unsigned chunk_lo = (nb & 7) * 2;  // byte within the 16-byte chunk
            const int chunk = nb >> 3;               // 16-byte chunk of the line, before the swizzle
            const size_t step = (size_t)LINES * ldb * 2;  // bytes between this thread's lines
            int stage = 0;
            unsigned phase = 0;
            for (int t = first_tile; t < tiles; t += tile_step) {{
                int m0, n0;
                tile_origin(t, tiles_m, tiles_n, m0, n0);
                const int boxes = min(B_BOXES, (N - n0 + 63) / 64);
                for (int ks = 0; ks < k_steps; ++ks) {{
                    mbar_wait(empty_bar + 8 * stage, phase ^ 1);
                    const unsigned bar = full_bar + 8 * stage;
                    if (tid == 0) {{
                        mbar_arrive_expect_tx(bar, A_STAGE_BYTES);
                        tma_load_2d(a_smem + stage * A_STAGE_BYTES, &tmA, ks * BK, m0, bar);
                    }}
                    const unsigned bst = b_smem + stage * B_STAGE_BYTES;
                    for (int j = 0; j < boxes; ++j) {{
                        const int n = n0 + 64 * j + nb;
                        const unsigned char* src = reinterpret_cast<const unsigned char*>(Bg)
                            + ((size_t)(ks * BK + l0) * ldb + n) * 2;
                        int kg = ks * BK + l0;
                        const unsigned box = bst + j * B_BOX_BYTES;
                        #pragma unroll {unroll}
                        for (int k = l0; k < 64; k += LINES, kg += LINES, src += step) {{
                            const bool ok = n < N && kg < K;
                            const unsigned dst = box + k * 128 + ((chunk ^ (k & 7)) << 4) + chunk_lo;
                            asm volatile("cp.async.ca.shared.global [%0], [%1], {vec}, %2;\\n"
                                         ::"r"(dst), "l"(ok ? (const void*)src : (const void*)Bg), "r"(ok ? {vec} : 0) : "memory");
                        }}
                    }}
                    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\\n" ::"r"(bar) : "memory");
                    if (++stage == STAGES) {{ stage = 0; phase ^= 1; }}
                }}
            }}
        }}
"""


def patched_source(key: str, vec: int, variant: str = "", unroll: int = 4):
    """wgmma_tma's plain source for CONFIGS[key] with B loaded by cp.async; (source, name, cfg, dt)."""
    from tiled_matmul.dtypes import as_dtype
    from tiled_matmul.registry import get
    from tiled_matmul.render import kernel_name, render

    entry = get("wgmma_tma")
    cfg = entry.make_config(**CONFIGS[key])
    dt = as_dtype(DTYPE)
    src = render(entry, cfg, dt, None)
    name = kernel_name(entry.name, cfg, dt)
    new = f"{name}_cpb{vec}{variant}"
    i0, i1 = src.index(MARK_START), src.index(MARK_END)
    # keep the closing brace of `if (warpgroup == 0) {`: everything between is the producer's body
    src = src[:i0] + PRODUCER.format(vec=vec, unroll=unroll) + src[i1:]
    edits = [
        ("const __grid_constant__ TmTensorMap tmB", "const unsigned short* __restrict__ Bg, int ldb"),
        ("mbar_init(full_bar + 8 * s, 1);", "mbar_init(full_bar + 8 * s, 1 + 128);"),
        (name, new),
    ]
    if variant != "nofence":
        edits.append(("mbar_wait(full_bar + 8 * stage, phase);\n",
                      "mbar_wait(full_bar + 8 * stage, phase);\n"
                      "                asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");\n"))
    for old, rep in edits:
        assert src.count(old) == 1, (old, src.count(old))
        src = src.replace(old, rep)
    return src, new, cfg, dt


class CpKernel:
    """The patched kernel, launched through a packed argument buffer (tmA, B, ldb, tmC, C, M, N,
    K, ldc, flags)."""

    OFFSETS = (0, 128, 136, 192, 320, 328, 332, 336, 340, 344)

    def __init__(self, key: str, vec: int, variant: str = ""):
        import cupy

        from tiled_matmul.compile import _arch_kernel, allow_dynamic_smem

        self.vec = vec
        src, name, self.cfg, self.dt = patched_source(key, vec, variant)
        self.raw = _arch_kernel(src, name, "sm_90a", "wgmma_tma", self.cfg, self.dt)
        self.smem = self.cfg.smem_bytes_for(self.dt, None)
        allow_dynamic_smem(self.raw, self.cfg, self.smem)
        self.fptr = self.raw.kernel.ptr
        self.sms = cupy.cuda.Device().attributes["MultiProcessorCount"]

    def __call__(self, a, b, c):
        import cupy
        from cupy.cuda import driver

        from tiled_matmul import tma

        M, K = a.shape
        N = b.shape[1]
        isz = 2
        assert a.flags.c_contiguous and b.strides[1] == isz and c.flags.c_contiguous
        ldb = b.strides[0] // isz
        assert (ldb * isz) % self.vec == 0 and b.data.ptr % self.vec == 0 and N % (self.vec // 2) == 0, \
            "B's rows, base or N do not allow this copy size"
        code = tma.DATA_TYPE[self.dt.name]
        amap = tma.MAPS.get(a.data.ptr, M, K, K, isz, code, self.cfg.bm, 64, "a")
        paired = c.data.ptr % 4 == 0 and N % 2 == 0
        raw = ctypes.create_string_buffer(self.OFFSETS[-1] + 4 + 64)
        bp = (ctypes.addressof(raw) + 63) & ~63
        o = self.OFFSETS
        ctypes.memmove(bp + o[0], amap, 128)
        ctypes.c_uint64.from_address(bp + o[1]).value = b.data.ptr
        ctypes.c_int32.from_address(bp + o[2]).value = ldb
        ctypes.memmove(bp + o[3], amap, 128)  # tmC: unread without flags bit 1
        ctypes.c_uint64.from_address(bp + o[4]).value = c.data.ptr
        for off, v in zip(o[5:], (M, N, K, N, int(paired))):
            ctypes.c_int32.from_address(bp + off).value = v
        params = (ctypes.c_void_p * len(o))(*(bp + x for x in o))
        grid = self.cfg.grid(M, N, self.sms)
        bx, by, bz = self.cfg.block()
        driver.launchKernel(self.fptr, grid[0], 1, 1, bx, by, bz, self.smem,
                            cupy.cuda.get_current_stream().ptr, ctypes.addressof(params), 0)
        self._keep = (raw, params)  # until the next call (the launch reads them at once)
        return c


def vec_for(N: int) -> int:
    """The widest copy the rows allow (base address assumed on 8 bytes, as cupy allocates)."""
    return 8 if N % 4 == 0 else 4


def main() -> None:
    global DTYPE
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--compile-only", metavar="CACHE_DIR", help="fill a cubin cache (no GPU needed)")
    ap.add_argument("--diagnose", metavar="MxNxK", help="one launch of each variant: error / max error")
    ap.add_argument("--configs", default="128x128,128x64")
    args = ap.parse_args()
    DTYPE = args.dtype
    keys = args.configs.split(",")
    if args.compile_only:
        os.environ["CUPY_CACHE_DIR"] = args.compile_only
        from tiled_matmul.compile import cached_cubin

        for key in keys:
            for vec in (4, 8):
                for variant in ("", "nofence"):
                    src, name, cfg, dt = patched_source(key, vec, variant)
                    print(cached_cubin(src, name, "sm_90a", "wgmma_tma", cfg, dt))
        return
    import cupy

    if args.diagnose:
        M, N, K = map(int, args.diagnose.split("x"))
        a = cupy.asarray(cupy.random.uniform(-1, 1, (M, K)), dtype=DTYPE)
        b = cupy.asarray(cupy.random.uniform(-1, 1, (K, N)), dtype=DTYPE)
        ref = a.astype(cupy.float64) @ b.astype(cupy.float64)
        scale = cupy.abs(a.astype(cupy.float64)) @ cupy.abs(b.astype(cupy.float64))
        for key in keys:
            for variant in ("", "nofence"):
                c = cupy.full((M, N), cupy.nan, dtype=DTYPE)
                try:
                    CpKernel(key, vec_for(N), variant)(a, b, c)
                    cupy.cuda.Device().synchronize()
                except Exception as exc:  # noqa: BLE001 - the diagnosis is which variants fault
                    print(f"{key} {variant or 'fenced'} {args.diagnose}: {type(exc).__name__}: {str(exc)[:80]}")
                    return
                err = float(cupy.nanmax(cupy.abs(c.astype(cupy.float64) - ref) / scale))
                print(f"{key} {variant or 'fenced'} {args.diagnose}: ran; NaN left {int(cupy.isnan(c).sum())}, "
                      f"max |C - ref| / (|A||B|) {err:.3g}")
        return
    from _half import cells, geomeans, timed_rows

    from tiled_matmul.measure import L2Flusher, Row, auto_row, cublas_row, make_inputs

    flush = L2Flusher()
    kernels = {}
    logs: dict = {}
    labels = ["auto"] + [f"cp {k}" for k in keys] + [f"cp {keys[0]} nofence"]
    print(f"{DTYPE}: µs (× cuBLAS); cp = B loaded by the producer warpgroup's cp.async (VEC bytes), A by TMA")
    print(f"| shape | VEC | cuBLAS µs | {' | '.join(labels)} |")
    print("|---|---:|---:|" + "---:|" * len(labels))
    for M, N, K in SHAPES:
        vec = vec_for(N)
        sets = make_inputs((M, N, K), DTYPE)
        rows = {"cublas": (cublas_row("probe", dtype=DTYPE), sets), "auto": (auto_row("probe"), sets)}
        for label in labels[1:]:
            key = label.split()[1]
            variant = "nofence" if label.endswith("nofence") else ""
            if (key, vec, variant) not in kernels:
                kernels[key, vec, variant] = CpKernel(key, vec, variant)
            rows[label] = (Row("probe", label, kernels[key, vec, variant]), sets)
        res = timed_rows(rows, flush)
        cub = f"{res['cublas'][0]:.1f}" if res["cublas"][0] is not None else "failed"
        print(f"| {M}×{N}×{K} | {vec} | {cub} | {' | '.join(cells(res, labels, logs))} |", flush=True)
    print()
    geomeans(logs)


DTYPE = "float16"

if __name__ == "__main__":
    main()
