"""Probe (fifteenth session): 16-bit A·x with a few columns (N <= 8) on the tensor cores.

gemv_ax_half multiplies each value of A into NT columns with FFMAs; at NT = 8 that lost to the
split (0.36-0.50x cuBLAS, fourteenth session), and the split runs 8192x8x8192 at 0.66x. Here each
warp streams 16*RT rows of A straight into mma.sync.m16n8k16 fragments: a lane's 16-byte load of
row g holds k = 8t..8t+7 of a 32-deep chunk, which is the A fragment of two MMAs once the MMA's
k slots are mapped to those k (slots 2t, 2t+1, 2t+8, 2t+9 -> 8t+0..3 for the first, 8t+4..7 for
the second; B's fragment takes the same mapping: column g, rows 8t..8t+7). B's values come from
global memory (L1) as 16-bit loads; no shared memory and no barrier in the K loop. KG warps of a
block split K and add their partials in shared memory in warp order; gridDim.y > 1 splits K
across blocks into a float32 workspace summed by a second kernel in slice order.

    PYTHONPATH=. python3 scripts/variants_s15/probe_ax_mma.py
"""

from __future__ import annotations

import contextlib
import statistics
import sys

import cupy as cp
import numpy as np

import tiled_matmul as tm
from tiled_matmul.measure import cublas_row
from tiled_matmul.timing import L2Flusher, time_fn

SRC = r"""
constexpr int RT = %(RT)d, KG = %(KG)d, U = %(U)d, VEC = %(VEC)d;
constexpr int THREADS = 32 * KG;
typedef unsigned short H;

__device__ __forceinline__ uint4 ld_stream(const void* p) {
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%%0, %%1, %%2, %%3}, [%%4];\n"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ void mma(float* d, unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.%(MMA)s.%(MMA)s.f32 {%%0, %%1, %%2, %%3}, {%%4, %%5, %%6, %%7}, {%%8, %%9}, {%%0, %%1, %%2, %%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
__device__ __forceinline__ H to_h(float x) {
    H r;
    asm("cvt.rn.%(MMA)s.f32 %%0, %%1;\n" : "=h"(r) : "f"(x));
    return r;
}
__device__ __forceinline__ unsigned pack(H lo, H hi) { return (unsigned)lo | ((unsigned)hi << 16); }
__device__ __forceinline__ void ldsm_x4_trans(unsigned addr, unsigned* r) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%%0, %%1, %%2, %%3}, [%%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
// B's staging slot of k-row r (0..31) of a chunk: 16-byte rows, 8 to a 128-byte line, the slot
// XOR 2*line so that each ldmatrix phase (rows 8i + c, i = 0..3) hits 8 different slots
__device__ __forceinline__ int bslot(int r) { return (r & ~7) | ((r ^ (2 * (r >> 3))) & 7); }

extern "C" __global__ void __launch_bounds__(THREADS, %(MINB)d)
ax_mma(const H* __restrict__ A, const H* __restrict__ B, void* __restrict__ C, int M, int N, int K)
{
    __shared__ float red[KG][RT][4][32];
    __shared__ __align__(128) uint4 bsm[KG][32];  // each warp's B rows of the chunk being staged
    const int warp = threadIdx.x / 32, lane = threadIdx.x %% 32, g = lane / 4, t = lane %% 4;
    const int row0 = blockIdx.x * 16 * RT;
    const int chunks = (K + 31) / 32;
    const int per = (chunks + gridDim.y - 1) / gridDim.y;
    const int c_begin = blockIdx.y * per, c_end = min(chunks, c_begin + per);
    const H* arow[RT][2];
    bool rok[RT][2];
    #pragma unroll
    for (int i = 0; i < RT; ++i)
        #pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int r = row0 + 16 * i + g + 8 * h;
            rok[i][h] = r < M;
            arow[i][h] = A + (size_t)min(r, M - 1) * K;
        }
    // ldmatrix row of this lane: matrix j = lane / 8 holds k slots 8(j %% 2) .. +7 of MMA j / 2;
    // vector path: slot s of an MMA's first 8 is k = 8(s / 2) + s %% 2, of its second 8 the same + 2,
    // and the second MMA's are + 4; element path: natural order
    const int lr = lane %% 8, lj = lane / 8;
    const int krow = VEC ? 8 * (lr / 2) + lr %% 2 + 2 * (lj %% 2) + 4 * (lj / 2) : 8 * lj + lr;
    const unsigned b_lds = (unsigned)__cvta_generic_to_shared(&bsm[warp][bslot(krow)]);
    float acc[RT][4];
    #pragma unroll
    for (int i = 0; i < RT; ++i)
        #pragma unroll
        for (int r = 0; r < 4; ++r) acc[i][r] = 0.f;
    typedef unsigned Frags[U][RT][2][4];
    typedef uint4 BRows[U];
    typedef unsigned BFrags[U][4];
    // global loads of the U chunks from c (every KG-th from the warp's first): A's fragments, and
    // k-row 32cc + lane of B; zeros past the slice, M, N and K
    auto load = [&](Frags& a, BRows& brow, int c) {
        #pragma unroll
        for (int u = 0; u < U; ++u) {
            const int cc = c + u * KG;
            const bool in = cc < c_end;
            if (VEC) {
                const int k = cc * 32 + 8 * t;
                const bool kok = in && k < K;
                #pragma unroll
                for (int i = 0; i < RT; ++i)
                    #pragma unroll
                    for (int h = 0; h < 2; ++h) {
                        const bool ok = kok && rok[i][h];
                        const uint4 v = ld_stream(arow[i][h] + (kok ? k : 0));
                        a[u][i][h][0] = ok ? v.x : 0u; a[u][i][h][1] = ok ? v.y : 0u;
                        a[u][i][h][2] = ok ? v.z : 0u; a[u][i][h][3] = ok ? v.w : 0u;
                    }
            } else {
                #pragma unroll
                for (int m = 0; m < 2; ++m) {
                    const int k0 = cc * 32 + 16 * m + 2 * t, k1 = k0 + 8;
                    const bool ok0 = in && k0 < K, ok1 = in && k1 < K;
                    #pragma unroll
                    for (int i = 0; i < RT; ++i)
                        #pragma unroll
                        for (int h = 0; h < 2; ++h) {
                            a[u][i][h][2 * m] = ok0 && rok[i][h] ? __ldg(reinterpret_cast<const unsigned*>(arow[i][h] + k0)) : 0u;
                            a[u][i][h][2 * m + 1] = ok1 && rok[i][h] ? __ldg(reinterpret_cast<const unsigned*>(arow[i][h] + k1)) : 0u;
                        }
                }
            }
            const int kr = cc * 32 + lane;
            uint4 row = make_uint4(0, 0, 0, 0);
            if (in && kr < K) {
                if (N == 8) row = __ldg(reinterpret_cast<const uint4*>(B + (size_t)kr * 8));
                else {
                    H v[8];
                    #pragma unroll
                    for (int e = 0; e < 8; ++e) v[e] = e < N ? __ldg(B + (size_t)kr * N + e) : (H)0;
                    row = make_uint4(pack(v[0], v[1]), pack(v[2], v[3]), pack(v[4], v[5]), pack(v[6], v[7]));
                }
            }
            brow[u] = row;
        }
    };
    // B's rows through the warp's shared rows into MMA fragments (ldmatrix .trans: k slots are rows)
    auto stage = [&](BRows& brow, BFrags& b) {
        #pragma unroll
        for (int u = 0; u < U; ++u) {
            __syncwarp();
            bsm[warp][bslot(lane)] = brow[u];
            __syncwarp();
            ldsm_x4_trans(b_lds, b[u]);
        }
    };
    auto compute = [&](Frags& a, BFrags& b) {
        #pragma unroll
        for (int u = 0; u < U; ++u)
            #pragma unroll
            for (int i = 0; i < RT; ++i) {
                mma(acc[i], a[u][i][0][0], a[u][i][1][0], a[u][i][0][1], a[u][i][1][1], b[u][0], b[u][1]);
                mma(acc[i], a[u][i][0][2], a[u][i][1][2], a[u][i][0][3], a[u][i][1][3], b[u][2], b[u][3]);
            }
    };
    // two register sets: the next U chunks load while the MMAs take the current ones
    Frags fa0, fa1;
    BRows br0, br1;
    BFrags fb0, fb1;
    const int step = KG * U;
    int c = c_begin + warp;
    if (c < c_end) { load(fa0, br0, c); stage(br0, fb0); }
    while (c < c_end) {
        load(fa1, br1, c + step);
        compute(fa0, fb0);
        stage(br1, fb1);
        c += step;
        if (c >= c_end) break;
        load(fa0, br0, c + step);
        compute(fa1, fb1);
        stage(br0, fb0);
        c += step;
    }
    #pragma unroll
    for (int i = 0; i < RT; ++i)
        #pragma unroll
        for (int r = 0; r < 4; ++r) red[warp][i][r][lane] = acc[i][r];
    __syncthreads();
    if (warp != 0) return;
    #pragma unroll
    for (int w = 1; w < KG; ++w)
        #pragma unroll
        for (int i = 0; i < RT; ++i)
            #pragma unroll
            for (int r = 0; r < 4; ++r) acc[i][r] += red[w][i][r][lane];
    #pragma unroll
    for (int i = 0; i < RT; ++i)
        #pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int row = row0 + 16 * i + g + 8 * (r / 2), col = 2 * t + r %% 2;
            if (row < M && col < N) {
                if (gridDim.y > 1)
                    static_cast<float*>(C)[((size_t)blockIdx.y * M + row) * N + col] = acc[i][r];
                else
                    static_cast<H*>(C)[(size_t)row * N + col] = to_h(acc[i][r]);
            }
        }
}

extern "C" __global__ void reduce_ax(const float* __restrict__ W, H* __restrict__ C, int MN, int S)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= MN) return;
    float s = 0.f;
    for (int z = 0; z < S; ++z) s += W[(size_t)z * MN + i];
    C[i] = to_h(s);
}
"""

CONFIGS = {
    "r1_kg16_u2": dict(RT=1, KG=16, U=2, MINB=1),
    "r1_kg16_u2_m2": dict(RT=1, KG=16, U=2, MINB=2),
    "r1_kg8_u2_m3": dict(RT=1, KG=8, U=2, MINB=3),
    "r1_kg8_u2_m4": dict(RT=1, KG=8, U=2, MINB=4),
    "r1_kg8_u4_m2": dict(RT=1, KG=8, U=4, MINB=2),
    "r2_kg8_u2_m2": dict(RT=2, KG=8, U=2, MINB=2),
    "r1_kg4_u4_m4": dict(RT=1, KG=4, U=4, MINB=4),
    "r2_kg4_u2_m4": dict(RT=2, KG=4, U=2, MINB=4),
}


class Probe:
    def __init__(self, cfg, dtype, vec, splits=1):
        mma = "f16" if dtype == "float16" else "bf16"
        src = SRC % dict(cfg, VEC=vec, MMA=mma)
        mod = cp.RawModule(code=src, options=("-arch=sm_90a", "-std=c++17"))
        self.k, self.r = mod.get_function("ax_mma"), mod.get_function("reduce_ax")
        self.cfg, self.splits, self.threads = cfg, splits, 32 * cfg["KG"]

    def __call__(self, a, b, c):
        M, K = a.shape
        N = b.shape[1]
        gx = -(-M // (16 * self.cfg["RT"]))
        if self.splits > 1:
            w = cp.empty((self.splits, M, N), dtype=cp.float32)
            self.k((gx, self.splits), (self.threads,), (a, b, w, np.int32(M), np.int32(N), np.int32(K)))
            self.r((-(-M * N // 256),), (256,), (w, c, np.int32(M * N), np.int32(self.splits)))
        else:
            self.k((gx, 1), (self.threads,), (a, b, c, np.int32(M), np.int32(N), np.int32(K)))


def inputs(M, N, K, dt, seed=0):
    rng = np.random.default_rng(seed)
    a = cp.asarray(rng.standard_normal((M, K), dtype=np.float32)).astype(dt)
    b = cp.asarray(rng.standard_normal((K, N), dtype=np.float32)).astype(dt)
    return a, b


def err(c, a, b):
    a64, b64 = a.astype(cp.float64), b.astype(cp.float64)
    ref = a64 @ b64
    den = cp.abs(a64) @ cp.abs(b64) + 1e-300
    return float(cp.max(cp.abs(c.astype(cp.float64) - ref) / den)) if c.size else 0.0


def main():
    dts = ["float16", "bfloat16"]
    shapes = [(8192, 8, 8192), (8192, 5, 8192), (8192, 2, 8192), (9298, 6, 5590), (4096, 8, 4096), (100000, 8, 1000),
              (2048, 8, 32768), (8192, 1, 8192), (12399, 6, 890), (1000, 7, 1000)]
    names = sys.argv[1:] or list(CONFIGS)
    flush = L2Flusher()
    for dt in dts:
        crow = cublas_row("probe", dtype=dt)
        for M, N, K in shapes:
            vec = int((K * 2) % 16 == 0)
            a, b = inputs(M, N, K, dt)
            c = cp.empty((M, N), dtype=dt)
            rows = {"cublas": (lambda: crow.call(a, b, c), crow.context)}
            auto = tm.kernel("auto")
            rows["auto"] = (lambda: auto(a, b, out=c), contextlib.nullcontext)
            with crow.context():
                crow.call(a, b, c)
            line = f"{dt} {M}x{N}x{K} (vec {vec}): err cuBLAS {err(c, a, b):.1e}"
            for n in names:
                for s in (1, 2, 4):
                    p = Probe(CONFIGS[n], dt, vec, s)
                    c.fill(float("nan"))
                    p(a, b, c)
                    e = err(c, a, b)
                    if not (e < 2e-3):
                        line += f" | {n}/s{s} BAD {e:.1e}"
                        continue
                    rows[f"{n}/s{s}"] = (lambda p=p: p(a, b, c), contextlib.nullcontext)
            print(line, flush=True)
            ts = {r: [] for r in rows}
            for _ in range(3):
                for r, (f, ctx) in rows.items():
                    with ctx():
                        ts[r].append(time_fn(lambda i: f(), repeat=7, warmup=2, flush=flush).median_ms * 1e3)
            cub = statistics.median(ts["cublas"])
            byts = (M * K + K * N + M * N) * 2
            best = sorted((statistics.median(v), r) for r, v in ts.items() if r != "cublas")
            out = f"  cuBLAS {cub:.1f} us ({byts / cub / 1e3:.0f} GB/s)"
            for t_, r in best[:6]:
                out += f" | {r} {cub / t_:.2f}x {byts / t_ / 1e3:.0f}GB/s"
            out += f" | auto {cub / statistics.median(ts['auto']):.2f}x"
            print(out, flush=True)


if __name__ == "__main__":
    main()
