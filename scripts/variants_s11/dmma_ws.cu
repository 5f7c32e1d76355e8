// Experiment (eleventh session): dmma at cuBLAS DGEMM's tile (128 x 64 x 16, warps of 64 x 32)
// with a producer warp. Four consumer warps only read fragments and issue DMMAs; a fifth warp
// issues every cp.async and signals a stage's arrival on an mbarrier
// (cp.async.mbarrier.arrive.noinc), and the consumers hand a stage back on a second mbarrier.
// No __syncthreads in the K loop, and no copy address in a consumer's registers: the ninth
// session's ncu samples put the gap to cuBLAS on fragment loads waiting for earlier copies to
// release the registers holding their addresses, at 252 of 255 registers.
// Plain row-major A and B, M % BM == 0, N % BN == 0, K % BK == 0, 16-byte aligned rows (a probe,
// not a rung: scripts/variants_s11/probe_ws.py checks it against the shipped kernel).
typedef double T;
constexpr int BM = 128, BN = 64, BK = 16, WM = 64, WN = 32;
#ifndef STAGES
#define STAGES 3
#endif
#ifndef MINB
#define MINB 2
#endif
constexpr int GROUP_M = 8;
#ifndef PRODUCER_REGS
#define PRODUCER_REGS 40
#endif
#ifndef CONSUMER_REGS
#define CONSUMER_REGS 216
#endif
constexpr int CONSUMERS = (BM / WM) * (BN / WN);    // 4 warps
#ifdef WG
// a producer warpgroup (one warp copies, three idle) beside the consumer warpgroup, registers
// moved from the one to the other with setmaxnreg (sm_90a)
constexpr int THREADS = (CONSUMERS + 4) * 32;
#else
constexpr int THREADS = (CONSUMERS + 1) * 32;       // + the producer warp
#endif
constexpr int WARPS_N = BN / WN, MT = WM / 16, NT = WN / 8;
constexpr int A_LD = BK + 4, B_LD = BN + 4;
constexpr int A_STAGE = BM * A_LD, B_STAGE = BK * B_LD;
constexpr int A_RV = BK / 2, B_RV = BN / 2;         // 16-byte pairs per tile row
constexpr int A_PER = BM * A_RV / 32, B_PER = BK * B_RV / 32;  // producer copies per lane

__device__ __forceinline__ unsigned smem_addr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void cp_async16(unsigned dst, const void* src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void cp_async_arrive(unsigned bar) {
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
    asm volatile(
        "{\n.reg .pred done;\nWS_WAIT:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
        "@!done bra WS_WAIT;\n}\n" ::"r"(bar), "r"(parity) : "memory");
}
__device__ __forceinline__ void mma_f64_k8(T* d, const T* a, const T* b) {
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
        "{ %0, %1, %2, %3}, { %4, %5, %6, %7}, { %8, %9}, { %0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}

extern "C" __global__ void __launch_bounds__(THREADS, MINB)
dmma_ws(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N, int K, int flags)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* As = reinterpret_cast<T*>(smem_raw);
    T* Bs = As + STAGES * A_STAGE;
    unsigned long long* bars = reinterpret_cast<unsigned long long*>(Bs + STAGES * B_STAGE);
    const unsigned full0 = smem_addr(bars), empty0 = smem_addr(bars + STAGES);

    const int tiles_n = N / BN, tiles_m = M / BM;
    const int per_group = GROUP_M * tiles_n;
    const int group = blockIdx.x / per_group, in_group = blockIdx.x % per_group;
    const int first_m = group * GROUP_M;
    const int group_rows = min(tiles_m - first_m, GROUP_M);
    const int block_row = (first_m + in_group % group_rows) * BM;
    const int block_col = (in_group / group_rows) * BN;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full0 + 8 * s, 32);                 // the producer's 32 async arrivals
            mbar_init(empty0 + 8 * s, CONSUMERS * 32);    // every consumer thread
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    const int steps = K / BK;

    if (warp >= CONSUMERS) {
#ifdef WG
        // each path is its own region after its setmaxnreg: code after a merge of the two would
        // get the smaller count
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(PRODUCER_REGS));
        if (warp > CONSUMERS) return;
#endif
        // Producer: lane copies pairs lane, lane + 32, ... of each tile (row-major order of pairs)
        const T* a_src = A + (size_t)(block_row + lane / A_RV) * K + (lane % A_RV) * 2;
        const T* b_src = B + (size_t)(lane / B_RV) * N + block_col + (lane % B_RV) * 2;
        const unsigned a_dst = smem_addr(As + (lane / A_RV) * A_LD + (lane % A_RV) * 2);
        const unsigned b_dst = smem_addr(Bs + (lane / B_RV) * B_LD + (lane % B_RV) * 2);
        constexpr int A_ROWS = 32 / A_RV, B_ROWS = 32 / B_RV;  // tile rows per pass of 32 pairs
        const size_t a_step = (size_t)A_ROWS * K, b_step = (size_t)B_ROWS * N;
        for (int s = 0; s < steps; ++s) {
            const int st = s % STAGES;
            mbar_wait(empty0 + 8 * st, ((s / STAGES) & 1) ^ 1);
            const T* a = a_src + s * BK;
            #pragma unroll
            for (int l = 0; l < A_PER; ++l, a += a_step)
                cp_async16(a_dst + 8 * (st * A_STAGE + l * A_ROWS * A_LD), a);
            const T* b = b_src + (size_t)s * BK * N;
            #pragma unroll
            for (int l = 0; l < B_PER; ++l, b += b_step)
                cp_async16(b_dst + 8 * (st * B_STAGE + l * B_ROWS * B_LD), b);
            cp_async_arrive(full0 + 8 * st);
        }
        asm volatile("cp.async.wait_all;\n" ::: "memory");
        return;
    }

#ifdef WG
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(CONSUMER_REGS));
#endif
    const int g = lane / 4, t = lane % 4;
    const int warp_row = (warp / WARPS_N) * WM, warp_col = (warp % WARPS_N) * WN;
    T acc[MT][NT][4];
    #pragma unroll
    for (int i = 0; i < MT; ++i)
        #pragma unroll
        for (int j = 0; j < NT; ++j)
            #pragma unroll
            for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.0;
#ifdef PREFETCH
    // The next stage's first fragments are read before this stage's last DMMAs are issued, so a
    // warp never waits on its own fragment loads at a stage boundary (no block-wide barrier
    // stands in the way: each warp waits for the stage's mbarrier on its own).
    static_assert(BK == 16, "two 8-deep fragment sets per stage");
    T a0[MT][4], b0[NT][2], a1[MT][4], b1[NT][2];
    auto frags = [&](T (&a)[MT][4], T (&b)[NT][2], int st, int kk) {
        const T* as = As + st * A_STAGE + (warp_row + g) * A_LD + t + kk;
        const T* bs = Bs + st * B_STAGE + (t + kk) * B_LD + warp_col + g;
        #pragma unroll
        for (int i = 0; i < MT; ++i) {
            a[i][0] = as[(i * 16) * A_LD];
            a[i][1] = as[(i * 16 + 8) * A_LD];
            a[i][2] = as[(i * 16) * A_LD + 4];
            a[i][3] = as[(i * 16 + 8) * A_LD + 4];
        }
        #pragma unroll
        for (int j = 0; j < NT; ++j) {
            b[j][0] = bs[j * 8];
            b[j][1] = bs[4 * B_LD + j * 8];
        }
    };
    auto mmas = [&](T (&a)[MT][4], T (&b)[NT][2]) {
        #pragma unroll
        for (int i = 0; i < MT; ++i)
            #pragma unroll
            for (int j = 0; j < NT; ++j) mma_f64_k8(acc[i][j], a[i], b[j]);
    };
    mbar_wait(full0, 0);
    frags(a0, b0, 0, 0);
    for (int s = 0; s < steps; ++s) {
        const int st = s % STAGES;
        frags(a1, b1, st, 8);
        mbar_arrive(empty0 + 8 * st);  // this thread's reads of the stage are issued
        mmas(a0, b0);
        if (s + 1 < steps) {
            const int nx = (s + 1) % STAGES;
            mbar_wait(full0 + 8 * nx, ((s + 1) / STAGES) & 1);
            frags(a0, b0, nx, 0);
        }
        mmas(a1, b1);
    }
#else
    for (int s = 0; s < steps; ++s) {
        const int st = s % STAGES;
        mbar_wait(full0 + 8 * st, (s / STAGES) & 1);
        const T* as = As + st * A_STAGE + (warp_row + g) * A_LD + t;
        const T* bs = Bs + st * B_STAGE + t * B_LD + warp_col + g;
        #pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            T a[MT][4], b[NT][2];
            #pragma unroll
            for (int i = 0; i < MT; ++i) {
                a[i][0] = as[(i * 16) * A_LD + kk];
                a[i][1] = as[(i * 16 + 8) * A_LD + kk];
                a[i][2] = as[(i * 16) * A_LD + kk + 4];
                a[i][3] = as[(i * 16 + 8) * A_LD + kk + 4];
            }
            #pragma unroll
            for (int j = 0; j < NT; ++j) {
                b[j][0] = bs[kk * B_LD + j * 8];
                b[j][1] = bs[(kk + 4) * B_LD + j * 8];
            }
            if (kk == BK - 8) mbar_arrive(empty0 + 8 * st);  // this thread's reads of the stage are done
            #pragma unroll
            for (int i = 0; i < MT; ++i)
                #pragma unroll
                for (int j = 0; j < NT; ++j) mma_f64_k8(acc[i][j], a[i], b[j]);
        }
    }
#endif
    #pragma unroll
    for (int i = 0; i < MT; ++i)
        #pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = block_row + warp_row + i * 16 + h * 8 + g;
            #pragma unroll
            for (int j = 0; j < NT; ++j) {
                const int col = block_col + warp_col + j * 8 + 2 * t;
                *reinterpret_cast<double2*>(C + (size_t)row * N + col) = make_double2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
            }
        }
}
