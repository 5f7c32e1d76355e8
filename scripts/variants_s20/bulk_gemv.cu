// Probe (twentieth session): skinny float32 products whose streamed operand reaches shared memory
// through 1-D bulk copies (cp.async.bulk + mbarrier) issued by one producer warp, so that the bytes
// in flight are bound by the shared-memory ring (STAGES stages), not by the consumers' registers.
// The question: do the memory-bound rows that gemv_xb / gemv_ax leave at 84-87% of a device copy's
// bandwidth (register-bound bytes in flight, 12-24% occupancy) reach 88% this way?
// Probe restrictions (the Python side checks them): float32, 16-byte aligned rows (K and N
// multiples of 4), pointers 16-byte aligned.

__device__ __forceinline__ unsigned smem_u32(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_fence_init() {
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ __forceinline__ void mbar_arrive_expect_tx(unsigned bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
    asm volatile(
        "{\n"
        ".reg .pred done;\n"
        "PROBE_WAIT:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
        "@!done bra PROBE_WAIT;\n"
        "}\n" ::"r"(bar), "r"(parity) : "memory");
}
// `bytes` (a multiple of 16) from global `src` to shared `dst` (both 16-byte aligned), counted on `bar`.
__device__ __forceinline__ void bulk_g2s(unsigned dst, const void* src, unsigned bytes, unsigned bar) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
}

// x.B: x is M x K, B is K x N (streamed), C is M x N (or slice blockIdx.y of a [S][M][N] workspace).
// Block: BN columns of B over the K range [blockIdx.y * k_per, + k_per), RK rows of B per stage,
// CW consumer warps + 1 producer warp. Consumer thread: column quad q (of BN / 4), K lane kl.
template <int M, int BN, int RK, int STAGES, int CW>
__global__ void __launch_bounds__((CW + 1) * 32, 1)
xb_bulk(const float* __restrict__ x, const float* __restrict__ B, float* __restrict__ C, int N, int K, int k_per) {
    constexpr int Q = BN / 4, KL = CW * 32 / Q;
    constexpr int XS = RK;  // x's stage rows: M rows of RK floats after the B rows
    constexpr int STAGE = RK * BN + M * XS;
    static_assert(CW * 32 % Q == 0, "whole K lanes");
    extern __shared__ __align__(128) float ring[];
    unsigned long long* bars = reinterpret_cast<unsigned long long*>(ring + STAGES * STAGE);
    const int n0 = blockIdx.x * BN;
    const int kb = blockIdx.y * k_per, ke = min(K, kb + k_per);
    const int steps = (ke - kb + RK - 1) / RK;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned full0 = smem_u32(bars), empty0 = full0 + 8 * STAGES;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full0 + 8 * s, 1);
            mbar_init(empty0 + 8 * s, CW);
        }
        mbar_fence_init();
    }
    __syncthreads();
    const int ncols = min(BN, N - n0);
    float acc[M][4];
#pragma unroll
    for (int m = 0; m < M; ++m)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[m][j] = 0.f;
    const int q = threadIdx.x % Q, kl = threadIdx.x / Q;
    if (warp == CW) {
        for (int s = 0; s < steps; ++s) {
            const int st = s % STAGES;
            mbar_wait(empty0 + 8 * st, ((s / STAGES) & 1) ^ 1);
            const int k0 = kb + s * RK, rows = min(RK, ke - k0);
            if (lane == 0) mbar_arrive_expect_tx(full0 + 8 * st, rows * ncols * 4 + M * rows * 4);
            __syncwarp();
            float* bs = ring + st * STAGE;
            for (int r = lane; r < rows; r += 32)
                bulk_g2s(smem_u32(bs + r * BN), B + (size_t)(k0 + r) * N + n0, ncols * 4, full0 + 8 * st);
            if (lane < M)
                bulk_g2s(smem_u32(bs + RK * BN + lane * XS), x + (size_t)lane * K + k0, rows * 4, full0 + 8 * st);
        }
    } else {
        for (int s = 0; s < steps; ++s) {
            const int st = s % STAGES;
            mbar_wait(full0 + 8 * st, (s / STAGES) & 1);
            const int k0 = kb + s * RK, rows = min(RK, ke - k0);
            const float* bs = ring + st * STAGE;
            const float* xs = bs + RK * BN;
            if (rows == RK) {
#pragma unroll
                for (int i = 0; i < RK / KL; ++i) {
                    const int r = kl + i * KL;
                    const float4 b = *reinterpret_cast<const float4*>(bs + r * BN + 4 * q);
#pragma unroll
                    for (int m = 0; m < M; ++m) {
                        const float xv = xs[m * XS + r];
                        acc[m][0] = fmaf(xv, b.x, acc[m][0]);
                        acc[m][1] = fmaf(xv, b.y, acc[m][1]);
                        acc[m][2] = fmaf(xv, b.z, acc[m][2]);
                        acc[m][3] = fmaf(xv, b.w, acc[m][3]);
                    }
                }
            } else {
                for (int r = kl; r < rows; r += KL) {
                    const float4 b = *reinterpret_cast<const float4*>(bs + r * BN + 4 * q);
#pragma unroll
                    for (int m = 0; m < M; ++m) {
                        const float xv = xs[m * XS + r];
                        acc[m][0] = fmaf(xv, b.x, acc[m][0]);
                        acc[m][1] = fmaf(xv, b.y, acc[m][1]);
                        acc[m][2] = fmaf(xv, b.z, acc[m][2]);
                        acc[m][3] = fmaf(xv, b.w, acc[m][3]);
                    }
                }
            }
            __syncwarp();
            if (lane == 0) mbar_arrive(empty0 + 8 * st);
        }
    }
    __syncthreads();  // every stage consumed: the ring is free for the K lanes' partial sums
    float* red = ring;  // [KL][M][BN]
    if (warp < CW)
#pragma unroll
        for (int m = 0; m < M; ++m)
            *reinterpret_cast<float4*>(red + (kl * M + m) * BN + 4 * q) = make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]);
    __syncthreads();
    float* c = C + (size_t)blockIdx.y * M * N;
    for (int e = threadIdx.x; e < M * BN; e += blockDim.x) {
        const int m = e / BN, n = e % BN;
        float s = 0.f;
#pragma unroll 4
        for (int l = 0; l < KL; ++l) s += red[(l * M + m) * BN + n];
        if (n < ncols) c[(size_t)m * N + n0 + n] = s;
    }
}

// A.x: A is M x K (streamed), B is K x NN (NN <= 8), C is M x NN (or a workspace slice).
// Block: BM rows of A over a K range, RKC columns of A per stage (rows padded to RKC + 4 floats so
// a quarter-warp's 8 rows fall on different banks), the matching RKC rows of B after them.
// Consumer warp w takes the k quads w, w + CW, ...; lane l the rows l, l + 32, ...
template <int NN, int BM, int RKC, int STAGES, int CW>
__global__ void __launch_bounds__((CW + 1) * 32, 1)
ax_bulk(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int K, int k_per) {
    constexpr int A_LD = RKC + 4, QS = RKC / 4, RI = BM / 32;
    constexpr int STAGE = BM * A_LD + RKC * NN;
    static_assert(BM % 32 == 0 && QS % CW == 0, "whole rows and quads");
    extern __shared__ __align__(128) float ring[];
    unsigned long long* bars = reinterpret_cast<unsigned long long*>(ring + STAGES * STAGE);
    const int m0 = blockIdx.x * BM;
    const int kb = blockIdx.y * k_per, ke = min(K, kb + k_per);
    const int steps = (ke - kb + RKC - 1) / RKC;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned full0 = smem_u32(bars), empty0 = full0 + 8 * STAGES;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full0 + 8 * s, 1);
            mbar_init(empty0 + 8 * s, CW);
        }
        mbar_fence_init();
    }
    __syncthreads();
    const int nrows = min(BM, M - m0);
    float acc[RI][NN];
#pragma unroll
    for (int i = 0; i < RI; ++i)
#pragma unroll
        for (int n = 0; n < NN; ++n) acc[i][n] = 0.f;
    if (warp == CW) {
        for (int s = 0; s < steps; ++s) {
            const int st = s % STAGES;
            mbar_wait(empty0 + 8 * st, ((s / STAGES) & 1) ^ 1);
            const int k0 = kb + s * RKC, kc = min(RKC, ke - k0);
            if (lane == 0) mbar_arrive_expect_tx(full0 + 8 * st, nrows * kc * 4 + kc * NN * 4);
            __syncwarp();
            float* as = ring + st * STAGE;
            for (int r = lane; r < nrows; r += 32)
                bulk_g2s(smem_u32(as + r * A_LD), A + (size_t)(m0 + r) * K + k0, kc * 4, full0 + 8 * st);
            if (lane == 0) bulk_g2s(smem_u32(as + BM * A_LD), B + (size_t)k0 * NN, kc * NN * 4, full0 + 8 * st);
        }
    } else {
        for (int s = 0; s < steps; ++s) {
            const int st = s % STAGES;
            mbar_wait(full0 + 8 * st, (s / STAGES) & 1);
            const int k0 = kb + s * RKC, kc = min(RKC, ke - k0);
            const float* as = ring + st * STAGE;
            const float* bs = as + BM * A_LD;
#pragma unroll
            for (int qi = 0; qi < QS / CW; ++qi) {
                const int qq = warp + qi * CW;
                if (4 * qq >= kc) break;
                float b[4][NN];
#pragma unroll
                for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                    for (int n = 0; n < NN; ++n) b[kk][n] = bs[(4 * qq + kk) * NN + n];
#pragma unroll
                for (int i = 0; i < RI; ++i) {
                    const float4 a = *reinterpret_cast<const float4*>(as + (lane + 32 * i) * A_LD + 4 * qq);
#pragma unroll
                    for (int n = 0; n < NN; ++n) {
                        acc[i][n] = fmaf(a.x, b[0][n], acc[i][n]);
                        acc[i][n] = fmaf(a.y, b[1][n], acc[i][n]);
                        acc[i][n] = fmaf(a.z, b[2][n], acc[i][n]);
                        acc[i][n] = fmaf(a.w, b[3][n], acc[i][n]);
                    }
                }
            }
            __syncwarp();
            if (lane == 0) mbar_arrive(empty0 + 8 * st);
        }
    }
    __syncthreads();
    float* red = ring;  // [CW][BM][NN]
    if (warp < CW)
#pragma unroll
        for (int i = 0; i < RI; ++i)
#pragma unroll
            for (int n = 0; n < NN; ++n) red[(warp * BM + lane + 32 * i) * NN + n] = acc[i][n];
    __syncthreads();
    float* c = C + (size_t)blockIdx.y * M * NN;
    for (int e = threadIdx.x; e < BM * NN; e += blockDim.x) {
        float s = 0.f;
#pragma unroll
        for (int w = 0; w < CW; ++w) s += red[w * BM * NN + e];
        if (e / NN < nrows) c[(size_t)m0 * NN + e] = s;
    }
}

// Sum S slices of a [S][len] workspace in slice order.
extern "C" __global__ void slice_sum(const float* __restrict__ ws, float* __restrict__ C, int len, int S) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= len) return;
    float s = 0.f;
    for (int z = 0; z < S; ++z) s += ws[(size_t)z * len + i];
    C[i] = s;
}

// ---------------------------------------------------------------------------------------------
// The same two products fed by 2-D TMA boxes (one copy instruction per operand and stage; the
// 1-D bulk copies above cost about one copy per 50-60 SM cycles whatever their size, measured:
// 128-512-byte rows ran at 10-70% of a copy's bandwidth). Parts of a box past the matrix read as
// zeros, so the consumers need no edge code; a K slice is a whole number of boxes.
struct alignas(64) TmTensorMap {
    unsigned long long opaque[16];
};
__device__ __forceinline__ void tma_load_2d(unsigned dst, const TmTensorMap* map, int c0, int c1, unsigned bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
        ::"r"(dst), "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(bar)
        : "memory");
}

// x.B: boxes of B {BN columns, RK rows} and of x {RK columns, M rows}.
template <int M, int BN, int RK, int STAGES, int CW>
__global__ void __launch_bounds__((CW + 1) * 32, 1)
xb_tma(const __grid_constant__ TmTensorMap xmap, const __grid_constant__ TmTensorMap bmap, float* __restrict__ C,
       int N, int K, int k_per) {
    constexpr int Q = BN / 4, KL = CW * 32 / Q;
    constexpr int STAGE = RK * BN + M * RK;
    static_assert(CW * 32 % Q == 0 && RK % KL == 0, "whole K lanes");
    extern __shared__ __align__(128) float ring[];
    unsigned long long* bars = reinterpret_cast<unsigned long long*>(ring + STAGES * STAGE);
    const int n0 = blockIdx.x * BN;
    const int kb = blockIdx.y * k_per, ke = min(K, kb + k_per);
    const int steps = (ke - kb + RK - 1) / RK;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned full0 = smem_u32(bars), empty0 = full0 + 8 * STAGES;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full0 + 8 * s, 1);
            mbar_init(empty0 + 8 * s, CW);
        }
        mbar_fence_init();
    }
    __syncthreads();
    float acc[M][4];
#pragma unroll
    for (int m = 0; m < M; ++m)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[m][j] = 0.f;
    const int q = threadIdx.x % Q, kl = threadIdx.x / Q;
    if (warp == CW) {
        if (lane == 0)
            for (int s = 0; s < steps; ++s) {
                const int st = s % STAGES;
                mbar_wait(empty0 + 8 * st, ((s / STAGES) & 1) ^ 1);
                const int k0 = kb + s * RK;
                mbar_arrive_expect_tx(full0 + 8 * st, STAGE * 4);
                float* bs = ring + st * STAGE;
                tma_load_2d(smem_u32(bs), &bmap, n0, k0, full0 + 8 * st);
                tma_load_2d(smem_u32(bs + RK * BN), &xmap, k0, 0, full0 + 8 * st);
            }
    } else {
        for (int s = 0; s < steps; ++s) {
            const int st = s % STAGES;
            mbar_wait(full0 + 8 * st, (s / STAGES) & 1);
            const float* bs = ring + st * STAGE;
            const float* xs = bs + RK * BN;
#pragma unroll
            for (int i = 0; i < RK / KL; ++i) {
                const int r = kl + i * KL;
                const float4 b = *reinterpret_cast<const float4*>(bs + r * BN + 4 * q);
#pragma unroll
                for (int m = 0; m < M; ++m) {
                    const float xv = xs[m * RK + r];
                    acc[m][0] = fmaf(xv, b.x, acc[m][0]);
                    acc[m][1] = fmaf(xv, b.y, acc[m][1]);
                    acc[m][2] = fmaf(xv, b.z, acc[m][2]);
                    acc[m][3] = fmaf(xv, b.w, acc[m][3]);
                }
            }
            __syncwarp();
            if (lane == 0) mbar_arrive(empty0 + 8 * st);
        }
    }
    __syncthreads();
    float* red = ring;  // [KL][M][BN]
    if (warp < CW)
#pragma unroll
        for (int m = 0; m < M; ++m)
            *reinterpret_cast<float4*>(red + (kl * M + m) * BN + 4 * q) = make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]);
    __syncthreads();
    const int ncols = min(BN, N - n0);
    float* c = C + (size_t)blockIdx.y * M * N;
    for (int e = threadIdx.x; e < M * BN; e += blockDim.x) {
        const int m = e / BN, n = e % BN;
        float s = 0.f;
#pragma unroll 4
        for (int l = 0; l < KL; ++l) s += red[(l * M + m) * BN + n];
        if (n < ncols) c[(size_t)m * N + n0 + n] = s;
    }
}

// A.x: boxes of A {RKC columns, BM rows} and of B {NN columns, RKC rows}. Warp w takes rows
// w, w + CW, ...; lane l the k = l, l + 32, ... of a stage (a warp reads 128 contiguous bytes of a
// row at a time, and each of its B values serves all its rows); the lanes' sums meet by shuffles.
template <int NN, int BM, int RKC, int STAGES, int CW>
__global__ void __launch_bounds__((CW + 1) * 32, 1)
ax_tma(const __grid_constant__ TmTensorMap amap, const __grid_constant__ TmTensorMap bmap, float* __restrict__ C,
       int M, int K, int k_per) {
    constexpr int RW = BM / CW, KJ = RKC / 32;
    constexpr int STAGE = BM * RKC + RKC * NN;
    static_assert(BM % CW == 0 && RKC % 32 == 0, "whole rows and k runs");
    extern __shared__ __align__(128) float ring[];
    unsigned long long* bars = reinterpret_cast<unsigned long long*>(ring + STAGES * STAGE);
    const int m0 = blockIdx.x * BM;
    const int kb = blockIdx.y * k_per, ke = min(K, kb + k_per);
    const int steps = (ke - kb + RKC - 1) / RKC;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned full0 = smem_u32(bars), empty0 = full0 + 8 * STAGES;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full0 + 8 * s, 1);
            mbar_init(empty0 + 8 * s, CW);
        }
        mbar_fence_init();
    }
    __syncthreads();
    float acc[RW][NN];
#pragma unroll
    for (int i = 0; i < RW; ++i)
#pragma unroll
        for (int n = 0; n < NN; ++n) acc[i][n] = 0.f;
    if (warp == CW) {
        if (lane == 0)
            for (int s = 0; s < steps; ++s) {
                const int st = s % STAGES;
                mbar_wait(empty0 + 8 * st, ((s / STAGES) & 1) ^ 1);
                const int k0 = kb + s * RKC;
                mbar_arrive_expect_tx(full0 + 8 * st, STAGE * 4);
                float* as = ring + st * STAGE;
                tma_load_2d(smem_u32(as), &amap, k0, m0, full0 + 8 * st);
                // B is K x NN, or (NN = 1) the 1 x K row it is in memory: a box's rows must be
                // 16 bytes.
                if (NN == 1) tma_load_2d(smem_u32(as + BM * RKC), &bmap, k0, 0, full0 + 8 * st);
                else tma_load_2d(smem_u32(as + BM * RKC), &bmap, 0, k0, full0 + 8 * st);
            }
    } else {
        for (int s = 0; s < steps; ++s) {
            const int st = s % STAGES;
            mbar_wait(full0 + 8 * st, (s / STAGES) & 1);
            const float* as = ring + st * STAGE;
            const float* bs = as + BM * RKC;
#pragma unroll
            for (int j = 0; j < KJ; ++j) {
                const int k = lane + 32 * j;
                float b[NN];
#pragma unroll
                for (int n = 0; n < NN; ++n) b[n] = bs[k * NN + n];
#pragma unroll
                for (int i = 0; i < RW; ++i) {
                    const float a = as[(warp + CW * i) * RKC + k];
#pragma unroll
                    for (int n = 0; n < NN; ++n) acc[i][n] = fmaf(a, b[n], acc[i][n]);
                }
            }
            __syncwarp();
            if (lane == 0) mbar_arrive(empty0 + 8 * st);
        }
    }
    if (warp < CW) {
        float* c = C + (size_t)blockIdx.y * M * NN;
#pragma unroll
        for (int i = 0; i < RW; ++i)
#pragma unroll
            for (int n = 0; n < NN; ++n) {
                float v = acc[i][n];
#pragma unroll
                for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
                const int r = m0 + warp + CW * i;
                if (lane == n && r < M) c[(size_t)r * NN + n] = v;
            }
    }
}

// A.x variants for the N = 8 question (why 8192 x 8 x 8192 stays at 84-85% where N = 1 reaches
// 89-90%): B_BULK takes B's stage as one 1-D bulk copy of RKC * NN contiguous floats from `B`
// instead of a 2-D box of RKC 32-byte rows (does the copy engine's per-row rate matter?). NO_B (a
// timing control, wrong results): B is not copied and its values are made from k in registers, so
// the consumers' FMAs stay and B's reads (shared memory, and 32 MB from L2 over the grid) go.
template <int NN, int BM, int RKC, int STAGES, int CW, bool B_BULK, bool NO_B = false>
__global__ void __launch_bounds__((CW + 1) * 32, 1)
ax_tma2(const __grid_constant__ TmTensorMap amap, const __grid_constant__ TmTensorMap bmap, const float* __restrict__ B,
        float* __restrict__ C, int M, int K, int k_per) {
    constexpr int RW = BM / CW, KJ = RKC / 32;
    constexpr int STAGE = BM * RKC + RKC * NN;
    static_assert(BM % CW == 0 && RKC % 32 == 0, "whole rows and k runs");
    extern __shared__ __align__(128) float ring[];
    unsigned long long* bars = reinterpret_cast<unsigned long long*>(ring + STAGES * STAGE);
    const int m0 = blockIdx.x * BM;
    const int kb = blockIdx.y * k_per, ke = min(K, kb + k_per);
    const int steps = (ke - kb + RKC - 1) / RKC;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned full0 = smem_u32(bars), empty0 = full0 + 8 * STAGES;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full0 + 8 * s, 1);
            mbar_init(empty0 + 8 * s, CW);
        }
        mbar_fence_init();
    }
    __syncthreads();
    float acc[RW][NN];
#pragma unroll
    for (int i = 0; i < RW; ++i)
#pragma unroll
        for (int n = 0; n < NN; ++n) acc[i][n] = 0.f;
    if (warp == CW) {
        if (lane == 0)
            for (int s = 0; s < steps; ++s) {
                const int st = s % STAGES;
                mbar_wait(empty0 + 8 * st, ((s / STAGES) & 1) ^ 1);
                const int k0 = kb + s * RKC;
                float* as = ring + st * STAGE;
                if (NO_B) {
                    mbar_arrive_expect_tx(full0 + 8 * st, BM * RKC * 4);
                    tma_load_2d(smem_u32(as), &amap, k0, m0, full0 + 8 * st);
                } else if (B_BULK) {
                    const int kc = min(RKC, K - k0);  // whole stages here (K a multiple of RKC)
                    mbar_arrive_expect_tx(full0 + 8 * st, BM * RKC * 4 + kc * NN * 4);
                    tma_load_2d(smem_u32(as), &amap, k0, m0, full0 + 8 * st);
                    bulk_g2s(smem_u32(as + BM * RKC), B + (size_t)k0 * NN, kc * NN * 4, full0 + 8 * st);
                } else {
                    mbar_arrive_expect_tx(full0 + 8 * st, STAGE * 4);
                    tma_load_2d(smem_u32(as), &amap, k0, m0, full0 + 8 * st);
                    tma_load_2d(smem_u32(as + BM * RKC), &bmap, 0, k0, full0 + 8 * st);
                }
            }
    } else {
        for (int s = 0; s < steps; ++s) {
            const int st = s % STAGES;
            mbar_wait(full0 + 8 * st, (s / STAGES) & 1);
            const float* as = ring + st * STAGE;
            const float* bs = as + BM * RKC;
#pragma unroll
            for (int j = 0; j < KJ; ++j) {
                const int k = lane + 32 * j;
                float b[NN];
#pragma unroll
                for (int n = 0; n < NN; ++n) b[n] = NO_B ? __int_as_float(0x3f800000 + k * 8 + n) : bs[k * NN + n];
#pragma unroll
                for (int i = 0; i < RW; ++i) {
                    const float a = as[(warp + CW * i) * RKC + k];
#pragma unroll
                    for (int n = 0; n < NN; ++n) acc[i][n] = fmaf(a, b[n], acc[i][n]);
                }
            }
            __syncwarp();
            if (lane == 0) mbar_arrive(empty0 + 8 * st);
        }
    }
    if (warp < CW) {
        float* c = C + (size_t)blockIdx.y * M * NN;
#pragma unroll
        for (int i = 0; i < RW; ++i)
#pragma unroll
            for (int n = 0; n < NN; ++n) {
                float v = acc[i][n];
#pragma unroll
                for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
                const int r = m0 + warp + CW * i;
                if (lane == n && r < M) c[(size_t)r * NN + n] = v;
            }
    }
}
