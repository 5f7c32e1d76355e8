// Probe (twenty-first session): float64 C = A * B (row-major, M % BM == N % BN == K % BK == 0) on
// mma.sync.m16n8k8.f64, computed as C^T = B^T * A^T so that every pair of fragment registers the
// DMMA reads is one 16-byte ld.shared.
//
// Why the transpose: DMMA takes A's fragment as four consecutive registers (rows g and g + 8 of
// k slot t, then of slot t + 4) and B's as two (slots t and t + 4 of column g). Each register pair
// that sits side by side in registers must sit side by side in shared memory for one 16-byte read.
// For C = A*B that is (row g, row g+8) of A, which are rows of As[m][k] apart, so dmma reads every
// double on its own (48 LDS.64 per k16 of its 128 x 64 tile). For C^T = B^T * A^T:
//   MMA A operand = B^T: slots (i = g, i = g + 8) are two columns of Bs[k][n]. Mapping MMA row
//     slot i < 8 to column 2i and i >= 8 to 2(i - 8) + 1 puts them side by side: one LDS.128.
//   MMA B operand = A^T: slots (k = t, k = t + 4) of row g of As[m][k]. The k slots of an MMA may
//     stand for any 8 k of the step as long as both operands agree: slot t -> k 2t, slot t + 4 ->
//     k 2t + 1 puts them side by side: one LDS.128 (and A's operand pairs use the same map).
// So 24 LDS.128 per k16 instead of 48 LDS.64 for the same bytes, and C comes out as 2 x 2 blocks
// per lane: (C[2t][2g], C[2t][2g+1]) and (C[2t+1][2g], C[2t+1][2g+1]) of each 8 x 16 tile.
//
// Banks (LDS.128 is served a quarter-warp at a time: lanes 8q..8q+7 = g in {2q, 2q+1}, t = 0..3):
//   Bs[k][n], row stride B_LD = BN + 2 (2 mod 16 doubles): lane reads row 2t (+ 1), doubles
//   2g..2g+1: 4t + 2g + const mod 16 -> 8 different 16-byte slots, no conflict.
//   As[m][k], BK doubles a row (BK >= 16: a row covers all banks), 16-byte chunk c of row r stored
//   at c ^ (4 (r & 1)): rows g = 2q and 2q + 1 read chunks 4h + t, which land in opposite halves.
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 64
#endif
#ifndef BK
#define BK 16
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 32
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef MINB
#define MINB 2
#endif
#ifndef GROUP_M
#define GROUP_M 8
#endif
#ifndef AHEAD
#define AHEAD 1
#endif
#ifndef CA
#define CA 0        // 1: cp.async.ca (L1-allocating) instead of .cg
#endif
#ifndef SPLITCP
#define SPLITCP 0   // 1: A's copies with the first k8 step, B's with the second
#endif

constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
constexpr int THREADS = 32 * WARPS_M * WARPS_N;
constexpr int TN = WN / 16;     // MMA tiles along C's columns (the MMA's M)
constexpr int TM = WM / 8;      // MMA tiles along C's rows (the MMA's N)
constexpr int KSTEPS = BK / 8;
constexpr int B_LD = BN + 2;
constexpr int A_STAGE = BM * BK, B_STAGE = BK * B_LD;
constexpr int A_CP = BM * BK / 2 / THREADS, B_CP = BK * BN / 2 / THREADS;
static_assert(BK % 16 == 0 && A_CP * THREADS * 2 == BM * BK && B_CP * THREADS * 2 == BK * BN, "tile");
static_assert(KSTEPS % 2 == 0 || !AHEAD, "fragment buffers alternate by step");
static_assert(!SPLITCP || (AHEAD && KSTEPS == 2 && STAGES >= 3), "SPLITCP: A at step 0, B at step 1");

__device__ __forceinline__ void cp16(double* s, const double* g) {
    unsigned sa = (unsigned)__cvta_generic_to_shared(s);
#if CA
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(g));
#else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(g));
#endif
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void wait_groups() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

__device__ __forceinline__ void mma8(double* d, const double* a, const double* b) {
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
        "{ %0, %1, %2, %3}, { %4, %5, %6, %7}, { %8, %9}, { %0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}

extern "C" __global__ void __launch_bounds__(THREADS, MINB)
dmma_t(const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C, int M, int N, int K) {
    extern __shared__ __align__(16) double smem[];
    double* const As = smem;
    double* const Bs = smem + STAGES * A_STAGE;
    const int tiles_n = N / BN, tiles_m = M / BM;
    const int per_group = GROUP_M * tiles_n;
    const int group = blockIdx.x / per_group, first_m = group * GROUP_M;
    const int gsize = min(tiles_m - first_m, GROUP_M);
    const int in_group = blockIdx.x % per_group;
    const int m_blk = (first_m + in_group % gsize) * BM, n_blk = (in_group / gsize) * BN;

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, g = lane >> 2, t = lane & 3;
    const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;

    // Copies: one source pointer per operand, advanced by a step each K step; a thread's copies
    // are rows ROWS apart in a fixed 16-byte column (ROWS even, so As's swizzle parity is fixed).
    constexpr int A_ROWS = THREADS / (BK / 2), B_ROWS = THREADS / (BN / 2);
    static_assert(A_ROWS % 2 == 0, "a thread's A rows share one swizzle");
    const double* a_src = A + (size_t)(m_blk + tid / (BK / 2)) * K + 2 * (tid % (BK / 2));
    const int a_dst = (tid / (BK / 2)) * BK + 2 * ((tid % (BK / 2)) ^ (4 * ((tid / (BK / 2)) & 1)));
    const double* b_src = B + (size_t)(tid / (BN / 2)) * N + n_blk + 2 * (tid % (BN / 2));
    const int b_dst = (tid / (BN / 2)) * B_LD + 2 * (tid % (BN / 2));
    const size_t b_step = (size_t)BK * N;
    auto load_a = [&](int stage) {
        double* as = As + stage * A_STAGE + a_dst;
#pragma unroll
        for (int i = 0; i < A_CP; ++i) cp16(as + i * A_ROWS * BK, a_src + (i * A_ROWS) * K);
        a_src += BK;
    };
    auto load_b = [&](int stage) {
        double* bs = Bs + stage * B_STAGE + b_dst;
#pragma unroll
        for (int i = 0; i < B_CP; ++i) cp16(bs + i * B_ROWS * B_LD, b_src + (i * B_ROWS) * N);
        b_src += b_step;
    };
    auto load_tile = [&](int stage) { load_a(stage); load_b(stage); };

    // Fragment lane offsets. MMA A operand (B^T) tile i, step h: Bs[8h + 2t (+1)][wn0 + 16i + 2g].
    const int fa_off = 2 * t * B_LD + wn0 + 2 * g;
    // MMA B operand (A^T) tile j, step h: As[wm0 + 8j + g][chunk (4h + t) ^ 4p], p = g & 1.
    const int p = g & 1;
    const int fb_off0 = (wm0 + g) * BK + 2 * (t + 4 * p);        // even h
    const int fb_off1 = (wm0 + g) * BK + 2 * (t + 4 * (1 - p));  // odd h

    double acc[TN][TM][4];
#pragma unroll
    for (int i = 0; i < TN; ++i)
#pragma unroll
        for (int j = 0; j < TM; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0;

    double fa[2][TN][4], fb[2][TM][2];
    auto load_frags = [&](int buf, int stage, int h) {
        const double* bs = Bs + stage * B_STAGE + 8 * h * B_LD + fa_off;
        const double* as = As + stage * A_STAGE + (h & 1 ? fb_off1 : fb_off0) + (h >> 1) * 16;
#pragma unroll
        for (int i = 0; i < TN; ++i) {
            const double2 lo = *reinterpret_cast<const double2*>(bs + 16 * i);
            const double2 hi = *reinterpret_cast<const double2*>(bs + B_LD + 16 * i);
            fa[buf][i][0] = lo.x; fa[buf][i][1] = lo.y; fa[buf][i][2] = hi.x; fa[buf][i][3] = hi.y;
        }
#pragma unroll
        for (int j = 0; j < TM; ++j) {
            const double2 v = *reinterpret_cast<const double2*>(as + 8 * j * BK);
            fb[buf][j][0] = v.x; fb[buf][j][1] = v.y;
        }
    };

    const int KT = K / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < KT) load_tile(s);
        commit();
    }
    wait_groups<STAGES - 2>();
    __syncthreads();
#if AHEAD
    load_frags(0, 0, 0);
#endif
    for (int kt = 0; kt < KT; ++kt) {
        const int stage = kt % STAGES;
#pragma unroll
        for (int h = 0; h < KSTEPS; ++h) {
#if AHEAD
            const int cur = h & 1;
            if (h == KSTEPS - 1) {
                // tile kt + 1 landed (SPLITCP: this step's group is not yet committed)
                wait_groups<STAGES - 2 - SPLITCP>();
                __syncthreads();
                load_frags(cur ^ 1, (kt + 1) % STAGES, 0);
            } else {
                load_frags(cur ^ 1, stage, h + 1);
            }
#if SPLITCP
            // (A's half of the group at the first step, B's at the second, committed there)
            if (h == 0) {
                const int nt = kt + STAGES - 1;
                if (nt < KT) load_a(nt % STAGES);
            }
            if (h == 1) {
                const int nt = kt + STAGES - 1;
                if (nt < KT) load_b(nt % STAGES);
                commit();
            }
#else
            if (h == 0) {
                const int nt = kt + STAGES - 1;
                if (nt < KT) load_tile(nt % STAGES);
                commit();
            }
#endif
#else
            const int cur = 0;
            load_frags(0, stage, h);
            if (h == 0) {
                const int nt = kt + STAGES - 1;
                if (nt < KT) load_tile(nt % STAGES);
                commit();
            }
#endif
#pragma unroll
            for (int i = 0; i < TN; ++i)
#pragma unroll
                for (int j = 0; j < TM; ++j) mma8(acc[i][j], fa[cur][i], fb[cur][j]);
#if !AHEAD
            if (h == KSTEPS - 1) {
                wait_groups<STAGES - 2>();
                __syncthreads();
            }
#endif
        }
    }
    // C[row 8j + 2t (+1)][col 16i + 2g, +1] = (d0, d2) and (d1, d3).
#pragma unroll
    for (int i = 0; i < TN; ++i)
#pragma unroll
        for (int j = 0; j < TM; ++j) {
            const int row = m_blk + wm0 + 8 * j + 2 * t, col = n_blk + wn0 + 16 * i + 2 * g;
            *reinterpret_cast<double2*>(C + (size_t)row * N + col) = make_double2(acc[i][j][0], acc[i][j][2]);
            *reinterpret_cast<double2*>(C + (size_t)(row + 1) * N + col) = make_double2(acc[i][j][1], acc[i][j][3]);
        }
}
