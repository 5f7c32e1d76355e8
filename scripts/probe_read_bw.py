"""How fast can this GPU read a buffer at all? The ceiling of the memory-bound rows (GEMV, M or
N <= 8), measured against the yardstick the suite uses (a device-to-device copy of the same byte
count, read + write counted), in the same run.

Three readers over the same bytes, each summing what it reads (one store per block, so nothing
is dead code), L2 flushed before every repeat, CUDA events, medians:
- ldg:  16-byte ld.global.nc.L1::no_allocate, UNR independent loads per thread per step; either one
        block per THREADS*UNR vectors (grid covers the buffer once) or a persistent grid-stride loop.
- bulk: one thread per block issues 1-D cp.async.bulk copies of CHUNK bytes into STAGES shared
        buffers that complete on mbarriers; the block sums each buffer and refills it.
- an empty kernel: what the events themselves cost.
Then auto's picks on the float32 memory-bound suite rows, for the same comparison.

    PYTHONPATH=. python3 scripts/probe_read_bw.py [--inflight]
"""

from __future__ import annotations

import os
import statistics
import sys

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.dispatch import choose  # noqa: E402
from tiled_matmul.timing import L2Flusher, time_fn  # noqa: E402

LDG = r"""
#ifdef VOLATILE
#define LD_ASM asm volatile  // every load issued in order before the adds: UNR really in flight
#else
#define LD_ASM asm           // ptxas keeps about 4 in flight, whatever UNR
#endif
extern "C" __global__ void __launch_bounds__(THREADS) rd(const float4* __restrict__ p, unsigned long long n_vec, float* out) {
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    const unsigned long long step = (unsigned long long)THREADS * UNR;
    unsigned long long i = (unsigned long long)blockIdx.x * step + threadIdx.x;
    const unsigned long long stride = (unsigned long long)gridDim.x * step;
    for (; i + (UNR - 1) * THREADS < n_vec; i += stride) {
        float4 v[UNR];
        #pragma unroll
        for (int u = 0; u < UNR; ++u)
            LD_ASM("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];"
                : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w) : "l"(p + i + u * THREADS));
        #pragma unroll
        for (int u = 0; u < UNR; ++u) { acc.x += v[u].x; acc.y += v[u].y; acc.z += v[u].z; acc.w += v[u].w; }
    }
    const float s = acc.x + acc.y + acc.z + acc.w;
    if (s == 1234.5f) out[blockIdx.x] = s;
}
"""

BULK = r"""
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
    asm volatile("{\n.reg .pred done;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n@!done bra W;\n}\n"
                 ::"r"(bar), "r"(parity) : "memory");
}
__device__ __forceinline__ void bulk_load(unsigned dst, const void* src, unsigned bytes, unsigned bar) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
}
extern "C" __global__ void __launch_bounds__(THREADS) rd(const float4* __restrict__ p, unsigned long long n_vec, float* out) {
    extern __shared__ __align__(128) float4 buf[];
    __shared__ __align__(8) unsigned long long full[STAGES];
    constexpr int CV = CHUNK / 16;
    const unsigned long long chunks = n_vec / CV;
    const unsigned base = (unsigned)__cvta_generic_to_shared(buf);
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) mbar_init((unsigned)__cvta_generic_to_shared(&full[s]), 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; ++s) {
            const unsigned long long c = blockIdx.x + (unsigned long long)s * gridDim.x;
            if (c < chunks) bulk_load(base + s * CHUNK, p + c * CV, CHUNK, (unsigned)__cvta_generic_to_shared(&full[s]));
        }
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    int s = 0; unsigned phase = 0;
    for (unsigned long long c = blockIdx.x; c < chunks; c += gridDim.x) {
        mbar_wait((unsigned)__cvta_generic_to_shared(&full[s]), phase);
        #pragma unroll 4
        for (int v = threadIdx.x; v < CV; v += THREADS) { float4 x = buf[s * CV + v]; acc.x += x.x; acc.y += x.y; acc.z += x.z; acc.w += x.w; }
        __syncthreads();
        const unsigned long long nxt = c + (unsigned long long)STAGES * gridDim.x;
        if (threadIdx.x == 0 && nxt < chunks) bulk_load(base + s * CHUNK, p + nxt * CV, CHUNK, (unsigned)__cvta_generic_to_shared(&full[s]));
        if (++s == STAGES) { s = 0; phase ^= 1; }
    }
    const float t = acc.x + acc.y + acc.z + acc.w;
    if (t == 1234.5f) out[blockIdx.x] = t;
}
"""

EMPTY = r'extern "C" __global__ void rd() {}'


def med(fn, flush, repeat=15) -> float:
    return time_fn(lambda i: fn(), repeat=repeat, warmup=3, flush=flush).median_ms


def inflight(flush, sms: int) -> None:
    """The ldg reader on a one-wave grid of `bps` blocks per SM: bytes in flight per SM =
    bps * threads * UNR * 16, the quantity the GEMV configs set (gemv_ax nt=8: 2 x 256 x 4 x 16)."""
    out = cp.zeros(1 << 20, dtype=cp.float32)
    nbytes = 256 << 20
    src = cp.ones(nbytes // 4, dtype=cp.float32)
    n_vec = nbytes // 16
    print("| threads | UNR | blocks/SM | KiB in flight per SM | us | GB/s |\n|---:|---:|---:|---:|---:|---:|")
    for threads, u, bps in ((256, 4, 1), (256, 4, 2), (512, 4, 1), (256, 4, 4), (512, 4, 2), (1024, 4, 1),
                            (512, 4, 4), (1024, 4, 2), (256, 8, 2), (256, 8, 4)):
        k = cp.RawKernel(LDG, "rd", options=(f"-DTHREADS={threads}", f"-DUNR={u}", "-DVOLATILE"))
        t = med(lambda: k((sms * bps,), (threads,), (src, cp.uint64(n_vec), out)), flush)
        print(f"| {threads} | {u} | {bps} | {threads * u * 16 * bps // 1024} | {1000 * t:.1f} | {nbytes / t / 1e6:.0f} |")


def main() -> None:
    flush = L2Flusher()
    if "--inflight" in sys.argv:
        inflight(flush, cp.cuda.Device().attributes["MultiProcessorCount"])
        return
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    out = cp.zeros(1 << 20, dtype=cp.float32)
    empty = cp.RawKernel(EMPTY, "rd")
    print(f"empty kernel (events + launch): {1000 * med(lambda: empty((1,), (32,), ()), flush):.1f} us")
    rows = []
    for mib in (256, 512):
        nbytes = mib << 20
        src = cp.ones(nbytes // 4, dtype=cp.float32)
        dst = cp.empty_like(src)
        t_copy = med(lambda: dst.data.copy_from_device_async(src.data, nbytes), flush)
        copy_gbs = 2 * nbytes / t_copy / 1e6
        rows.append((mib, "copy (r+w)", t_copy, copy_gbs, 100.0))
        n_vec = nbytes // 16
        for threads, u in ((256, 8), (512, 8), (1024, 4), (1024, 8), (512, 16), (256, 16)):
            k = cp.RawKernel(LDG, "rd", options=(f"-DTHREADS={threads}", f"-DUNR={u}"))
            per_block = threads * u
            for mode, grid in (("cover", n_vec // per_block), ("persist", sms * max(1, 2048 // threads))):
                t = med(lambda: k((grid,), (threads,), (src, cp.uint64(n_vec), out)), flush)
                rows.append((mib, f"ldg t={threads} u={u} {mode}", t, nbytes / t / 1e6, 100 * nbytes / t / 1e6 / copy_gbs))
        for threads, chunk, stages, per_sm in ((256, 16384, 4, 2), (512, 32768, 3, 2), (256, 8192, 8, 3), (512, 16384, 6, 2),
                                                (1024, 32768, 4, 1), (256, 32768, 3, 2)):
            k = cp.RawKernel(BULK, "rd", options=(f"-DTHREADS={threads}", f"-DCHUNK={chunk}", f"-DSTAGES={stages}"))
            smem = chunk * stages
            k.max_dynamic_shared_size_bytes = smem
            grid = sms * per_sm
            t = med(lambda: k((grid,), (threads,), (src, cp.uint64(n_vec), out), shared_mem=smem), flush)
            rows.append((mib, f"bulk t={threads} chunk={chunk} st={stages} x{per_sm}", t, nbytes / t / 1e6,
                         100 * nbytes / t / 1e6 / copy_gbs))
        del src, dst
    for shape in ((1, 8192, 8192), (1, 4096, 16384), (8, 8192, 8192), (8192, 8, 8192), (8192, 1, 8192), (2, 8192, 8192)):
        M, N, K = shape
        a = cp.random.rand(M, K, dtype=cp.float32)
        b = cp.random.rand(K, N, dtype=cp.float32)
        nbytes = 4 * (M * K + K * N + M * N)
        src = cp.empty(nbytes, dtype=cp.uint8)
        dst = cp.empty_like(src)
        t_copy = med(lambda: dst.data.copy_from_device_async(src.data, nbytes), flush)
        copy_gbs = 2 * nbytes / t_copy / 1e6
        t_auto = med(lambda: tm.matmul(a, b), flush)
        t_cub = med(lambda: cp.matmul(a, b), flush)
        pick = choose(M, N, K, "float32")
        rows.append((f"{M}x{N}x{K}", f"auto {pick}", t_auto, nbytes / t_auto / 1e6, 100 * nbytes / t_auto / 1e6 / copy_gbs))
        rows.append((f"{M}x{N}x{K}", "cuBLAS", t_cub, nbytes / t_cub / 1e6, 100 * nbytes / t_cub / 1e6 / copy_gbs))
    print("| bytes | reader | us | GB/s | % of copy |\n|---|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {1000 * r[2]:.1f} | {r[3]:.0f} | {r[4]:.1f} |")


if __name__ == "__main__":
    main()
