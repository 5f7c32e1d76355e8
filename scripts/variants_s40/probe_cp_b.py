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

Outcome (H100, fortieth session): correct on every shape; 4-byte copies 84-86 us at
9-64 x 10186 x 4000 (0.61-0.66x cuBLAS; B padded first: 0.46-0.53x), 8-byte 62 us at 64 x 10188
x 4000 (0.93x). The "mix" kernel (its loops unrolled once to avoid spills) ran 144-153 us: the
producer's 4 warps issue every copy, and per-copy address arithmetic made them latency-bound.
The library's b_rows (WgmmaTmaConfig) unrolls each line pattern fully with constant address steps
under 56 producer registers and ran 65.8-67.5 us there (0.80-0.87x): this probe's "auto" column
since c429c58.

    PYTHONPATH=. python3 scripts/variants_s40/probe_cp_b.py [--dtype float16]
    (--compile-only CACHE_DIR: the patched kernels' cubins and ptxas reports, no GPU needed;
     --diagnose MxNxK: one launch of each variant, in this process, error or max error)
"""
import argparse
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SHAPES = [(9, 10186, 4000), (32, 10186, 4000), (64, 10186, 4000), (64, 10188, 4000), (33, 10186, 4001),
          (64, 10190, 4096), (17, 50258, 4096), (128, 10186, 4000), (50, 10192, 4000), (7, 1000, 130),
          (1, 10, 64)]
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


MIXED = """        // Producer: all 128 threads copy B with cp.async, 8 bytes a copy on the lines whose
        // start is 8-byte aligned and 4 on the others (ldb even, B's base on 4 bytes); thread 0
        // also copies A by TMA and announces its bytes.
        {{
            const int tid = threadIdx.x;
            if (tid == 0) tma_prefetch_map(&tmA);
            // Line k of a stage (stages start at even rows: BK is even) starts 8-byte aligned iff
            // (base + k * ldb * 2) % 8 == 0: every line, none, or every other one.
            const unsigned base8 = (unsigned)(reinterpret_cast<size_t>(Bg) & 7), row8 = (unsigned)(ldb * 2) & 7;
            int a_first = 0, a_stride = 1, a_count = 64, u_first = 0, u_stride = 1, u_count = 0;
            if (row8 != 0) {{
                a_first = base8 ? 1 : 0; a_stride = 2; a_count = 32;
                u_first = 1 - a_first; u_stride = 2; u_count = 32;
            }} else if (base8 != 0) {{
                a_count = 0; u_count = 64;
            }}
            const int nb8 = (tid % 16) * 4, i8 = tid / 16;   // 8-byte copies: 16 threads a line
            const int nb4 = (tid % 32) * 2, i4 = tid / 32;   // 4-byte copies: 32 threads a line
            const unsigned char* const Bb = reinterpret_cast<const unsigned char*>(Bg);
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
                        const unsigned box = bst + j * B_BOX_BYTES;
                        {{
                            const int n = n0 + 64 * j + nb8;
                            const int bytes = n < N ? min(8, (N - n) * 2) : 0;
                            #pragma unroll {unroll}
                            for (int i = i8; i < a_count; i += 8) {{
                                const int k = a_first + a_stride * i, kg = ks * BK + k;
                                const bool ok = kg < K && bytes > 0;
                                const unsigned dst = box + k * 128 + (((nb8 >> 3) ^ (k & 7)) << 4) + (nb8 & 7) * 2;
                                asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\\n"
                                             ::"r"(dst), "l"(ok ? (const void*)(Bb + ((size_t)kg * ldb + n) * 2) : (const void*)Bg),
                                               "r"(ok ? bytes : 0) : "memory");
                            }}
                        }}
                        {{
                            const int n = n0 + 64 * j + nb4;
                            #pragma unroll {unroll}
                            for (int i = i4; i < u_count; i += 4) {{
                                const int k = u_first + u_stride * i, kg = ks * BK + k;
                                const bool ok = kg < K && n < N;
                                const unsigned dst = box + k * 128 + (((nb4 >> 3) ^ (k & 7)) << 4) + (nb4 & 7) * 2;
                                asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\\n"
                                             ::"r"(dst), "l"(ok ? (const void*)(Bb + ((size_t)kg * ldb + n) * 2) : (const void*)Bg),
                                               "r"(ok ? 4 : 0) : "memory");
                            }}
                        }}
                    }}
                    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\\n" ::"r"(bar) : "memory");
                    if (++stage == STAGES) {{ stage = 0; phase ^= 1; }}
                }}
            }}
        }}
"""


def patched_source(key: str, vec: int, variant: str = "", unroll: "int | None" = None):
    """wgmma_tma's plain source for CONFIGS[key] with B loaded by cp.async; (source, name, cfg, dt).
    `unroll`: of the copy loops; by default 4 for one copy size and 1 for the mixed loops (4 and 2
    spilled up to 108 bytes there under the producer's 40-register setmaxnreg cap; 1 none)."""
    unroll = unroll or (1 if vec == 0 else 4)
    from tiled_matmul.dtypes import as_dtype
    from tiled_matmul.registry import get
    from tiled_matmul.render import kernel_name, render

    entry = get("wgmma_tma")
    cfg = entry.make_config(**CONFIGS[key])
    dt = as_dtype(DTYPE)
    src = render(entry, cfg, dt, None)
    name = kernel_name(entry.name, cfg, dt)
    new = f"{name}_cpb{vec or 'mix'}{variant}"
    i0, i1 = src.index(MARK_START), src.index(MARK_END)
    # keep the closing brace of `if (warpgroup == 0) {`: everything between is the producer's body
    body = MIXED.format(unroll=unroll) if vec == 0 else PRODUCER.format(vec=vec, unroll=unroll)
    src = src[:i0] + body + src[i1:]
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
        vec = self.vec or 4  # mixed: 8-byte copies where a line allows them, else 4
        assert (ldb * isz) % vec == 0 and b.data.ptr % vec == 0 and N % (vec // 2) == 0, \
            "B's rows, base or N do not allow this copy size"
        from tiled_matmul.strategies.wgmma_tma import addressable

        ap, lda = addressable(a, M, K, cupy.cuda.get_current_stream())  # A padded where K % 8 != 0
        code = tma.DATA_TYPE[self.dt.name]
        amap = tma.MAPS.get(ap.data.ptr, M, K, lda, isz, code, self.cfg.bm, 64, "a")
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
        self._keep = (raw, params, ap)  # until the next call (the launch reads them at once)
        return c


def vec_for(N: int) -> int:
    """The widest single copy size the rows allow (base address on 8 bytes, as cupy allocates)."""
    return 8 if N % 4 == 0 else 4


def kernel_spec(text: str, N: int) -> tuple:
    """"128x128:mix" -> ("128x128", 0, ""); ":vec" -> vec_for(N); ":4"/":8" fixed; "+nofence"."""
    key, _, rest = text.partition(":")
    vec, _, variant = (rest or "vec").partition("+")
    return key, {"mix": 0, "vec": vec_for(N)}.get(vec) if vec in ("mix", "vec") else int(vec), variant


def main() -> None:
    global DTYPE
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--compile-only", metavar="CACHE_DIR", help="fill a cubin cache (no GPU needed)")
    ap.add_argument("--diagnose", metavar="MxNxK", help="one launch of each kernel: error / max error")
    ap.add_argument("--kernels", default="128x128:vec,128x128:mix,128x64:mix",
                    help="CONFIG:COPY[+nofence], COPY = 4, 8, vec (the widest N allows) or mix (per line)")
    args = ap.parse_args()
    DTYPE = args.dtype
    specs = args.kernels.split(",")
    if args.compile_only:
        os.environ["CUPY_CACHE_DIR"] = args.compile_only
        from tiled_matmul.compile import cached_cubin

        done = set()
        for text in specs:
            for N in (10186, 10188):
                key, vec, variant = kernel_spec(text, N)
                if (key, vec, variant) not in done:
                    done.add((key, vec, variant))
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
        for text in specs:
            c = cupy.full((M, N), cupy.nan, dtype=DTYPE)
            try:
                CpKernel(*kernel_spec(text, N))(a, b, c)
                cupy.cuda.Device().synchronize()
            except Exception as exc:  # noqa: BLE001 - the diagnosis is which kernels fault
                print(f"{text} {args.diagnose}: {type(exc).__name__}: {str(exc)[:80]}")
                return
            err = float(cupy.nanmax(cupy.abs(c.astype(cupy.float64) - ref) / scale))
            print(f"{text} {args.diagnose}: ran; NaN left {int(cupy.isnan(c).sum())}, "
                  f"max |C - ref| / (|A||B|) {err:.3g}")
        return
    from _half import cells, geomeans, timed_rows

    from tiled_matmul.measure import L2Flusher, Row, auto_row, cublas_row, make_inputs

    flush = L2Flusher()
    kernels = {}
    logs: dict = {}
    labels = ["auto"] + specs
    print(f"{DTYPE}: µs (× cuBLAS); B loaded by the producer warpgroup's cp.async (CONFIG:COPY; vec = 8 bytes"
          " where N % 4 == 0, else 4; mix = 8 or 4 line by line), A by TMA")
    print(f"| shape | cuBLAS µs | {' | '.join(labels)} |")
    print("|---|---:|" + "---:|" * len(labels))
    for M, N, K in SHAPES:
        sets = make_inputs((M, N, K), DTYPE)
        rows = {"cublas": (cublas_row("probe", dtype=DTYPE), sets), "auto": (auto_row("probe"), sets)}
        for text in specs:
            spec = kernel_spec(text, N)
            if spec not in kernels:
                kernels[spec] = CpKernel(*spec)
            rows[text] = (Row("probe", text, kernels[spec]), sets)
        res = timed_rows(rows, flush)
        cub = f"{res['cublas'][0]:.1f}" if res["cublas"][0] is not None else "failed"
        print(f"| {M}×{N}×{K} | {cub} | {' | '.join(cells(res, labels, logs))} |", flush=True)
    print()
    geomeans(logs)


DTYPE = "float16"

if __name__ == "__main__":
    main()
