// Experiment (eleventh session): stream-K dmma at cuBLAS DGEMM's tile (128 x 64 x 16, 3 stages,
// 4 warps of 64 x 32, 2 blocks per SM). A persistent grid of G blocks shares the (tile, K step)
// iterations evenly: block b takes [b*T/G, (b+1)*T/G) of T = tiles * steps, tile-major. A tile
// split between blocks is finished by the block holding its first K step (its "owner", which
// reaches it last, at the end of its range): the others (each at the start of its range) store
// their partial accumulators to their own workspace slot and raise a flag; the owner waits for
// them in block order and adds them in that order, so the sum is deterministic. Row-major A, B,
// C with 16-byte aligned rows (K, N even); any M, N, K (zero-filled edges). A probe, not a rung:
// scripts/variants_s11/probe_sk.py.
typedef double T;
constexpr int BM = 128, BN = 64, BK = 16, WM = 64, WN = 32, STAGES = 3, THREADS = 128;
constexpr int GROUP_M = 8;
constexpr int WARPS_N = BN / WN, MT = WM / 16, NT = WN / 8;
constexpr int A_LD = BK + 4, B_LD = BN + 4;
constexpr int A_STAGE = BM * A_LD, B_STAGE = BK * B_LD;
constexpr int A_RV = BK / 2, B_RV = BN / 2;
constexpr int A_N = BM * A_RV / THREADS, B_N = BK * B_RV / THREADS;
constexpr int A_RSTEP = THREADS / A_RV, B_RSTEP = THREADS / B_RV;
constexpr int PART = MT * NT * 4 * THREADS;  // doubles of one partial tile (a thread's registers, interleaved)

__device__ __forceinline__ unsigned smem_addr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void cp_async16(void* dst, const void* src, int bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void mma_f64_k8(T* d, const T* a, const T* b) {
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
        "{ %0, %1, %2, %3}, { %4, %5, %6, %7}, { %8, %9}, { %0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}

extern "C" __global__ void __launch_bounds__(THREADS, 2)
dmma_sk(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N, int K,
        T* __restrict__ W, int* __restrict__ F, int epoch)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* As = reinterpret_cast<T*>(smem_raw);
    T* Bs = As + STAGES * A_STAGE;
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const int warp_row = (warp / WARPS_N) * WM, warp_col = (warp % WARPS_N) * WN;
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    const int ipt = (K + BK - 1) / BK;
    const long long total = (long long)tiles_m * tiles_n * ipt;
    const int G = gridDim.x, b = blockIdx.x;
    auto start_of = [&](int blk) { return total * blk / G; };
    long long it = start_of(b);
    const long long it_end = start_of(b + 1);
    const int a_r = tid / A_RV, a_c = (tid % A_RV) * 2, b_r = tid / B_RV, b_c = (tid % B_RV) * 2;

    while (it < it_end) {
        const int tile = (int)(it / ipt);
        const int s0 = (int)(it - (long long)tile * ipt);
        const int s1 = (int)min((long long)ipt, s0 + (it_end - it));
        it += s1 - s0;
        // grouped order of the tile index, as grouped_block_order does with blockIdx.x
        const int per_group = GROUP_M * tiles_n;
        const int group = tile / per_group, in_group = tile % per_group;
        const int first_m = group * GROUP_M;
        const int group_rows = min(tiles_m - first_m, GROUP_M);
        const int block_row = (first_m + in_group % group_rows) * BM;
        const int block_col = (in_group / group_rows) * BN;

        T acc[MT][NT][4];
        #pragma unroll
        for (int i = 0; i < MT; ++i)
            #pragma unroll
            for (int j = 0; j < NT; ++j)
                #pragma unroll
                for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.0;

        auto load = [&](int s, int buf) {  // K step s (absolute) into stage buffer buf
            const int k0 = s * BK;
            const bool live = s < s1;
            #pragma unroll
            for (int l = 0; l < A_N; ++l) {
                const int r = block_row + a_r + l * A_RSTEP, c = k0 + a_c;
                const bool ok = live && r < M && c < K;
                cp_async16(As + buf * A_STAGE + (a_r + l * A_RSTEP) * A_LD + a_c, ok ? A + (size_t)r * K + c : A, ok ? 16 : 0);
            }
            #pragma unroll
            for (int l = 0; l < B_N; ++l) {
                const int r = k0 + b_r + l * B_RSTEP, c = block_col + b_c;
                const bool ok = live && r < K && c < N;
                cp_async16(Bs + buf * B_STAGE + (b_r + l * B_RSTEP) * B_LD + b_c, ok ? B + (size_t)r * N + c : B, ok ? 16 : 0);
            }
        };
        const int steps = s1 - s0;
        #pragma unroll
        for (int p = 0; p < STAGES - 1; ++p) {
            if (p < steps) load(s0 + p, p);
            asm volatile("cp.async.commit_group;\n" ::);
        }
        for (int q = 0; q < steps; ++q) {
            asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2));
            __syncthreads();
            const T* as = As + (q % STAGES) * A_STAGE + (warp_row + g) * A_LD + t;
            const T* bs = Bs + (q % STAGES) * B_STAGE + t * B_LD + warp_col + g;
            #pragma unroll
            for (int kk = 0; kk < BK; kk += 8) {
                T a[MT][4], bb[NT][2];
                #pragma unroll
                for (int i = 0; i < MT; ++i) {
                    a[i][0] = as[(i * 16) * A_LD + kk];
                    a[i][1] = as[(i * 16 + 8) * A_LD + kk];
                    a[i][2] = as[(i * 16) * A_LD + kk + 4];
                    a[i][3] = as[(i * 16 + 8) * A_LD + kk + 4];
                }
                #pragma unroll
                for (int j = 0; j < NT; ++j) {
                    bb[j][0] = bs[kk * B_LD + j * 8];
                    bb[j][1] = bs[(kk + 4) * B_LD + j * 8];
                }
                if (kk == 0) {
                    load(s0 + q + STAGES - 1, (q + STAGES - 1) % STAGES);
                    asm volatile("cp.async.commit_group;\n" ::);
                }
                #pragma unroll
                for (int i = 0; i < MT; ++i)
                    #pragma unroll
                    for (int j = 0; j < NT; ++j) mma_f64_k8(acc[i][j], a[i], bb[j]);
            }
        }
        asm volatile("cp.async.wait_group 0;\n" ::);
        __syncthreads();  // every warp is done with the stages before the next segment refills them

        if (s0 != 0) {
            // not the tile's first K step: this is the block's first segment. Partial to slot b.
            T* w = W + (size_t)b * PART + tid;
            #pragma unroll
            for (int i = 0; i < MT; ++i)
                #pragma unroll
                for (int j = 0; j < NT; ++j)
                    #pragma unroll
                    for (int r = 0; r < 4; ++r) __stcg(w + ((i * NT + j) * 4 + r) * THREADS, acc[i][j][r]);
            __threadfence();
            __syncthreads();
            if (tid == 0) asm volatile("st.release.gpu.global.s32 [%0], %1;\n" ::"l"(F + b), "r"(epoch) : "memory");
            continue;
        }
        if (s1 != ipt) {
            // the owner of a tile split with the next blocks: add their partials in block order
            const long long tile_end = (long long)(tile + 1) * ipt;
            for (int o = b + 1; o < G && start_of(o) < tile_end; ++o) {
                if (tid == 0) {
                    int v;
                    do {
                        asm volatile("ld.acquire.gpu.global.s32 %0, [%1];\n" : "=r"(v) : "l"(F + o) : "memory");
                    } while (v != epoch);
                }
                __syncthreads();
                const T* w = W + (size_t)o * PART + tid;
                #pragma unroll
                for (int i = 0; i < MT; ++i)
                    #pragma unroll
                    for (int j = 0; j < NT; ++j)
                        #pragma unroll
                        for (int r = 0; r < 4; ++r) acc[i][j][r] += __ldcg(w + ((i * NT + j) * 4 + r) * THREADS);
            }
        }
        #pragma unroll
        for (int i = 0; i < MT; ++i)
            #pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = block_row + warp_row + i * 16 + h * 8 + g;
                if (row >= M) continue;
                #pragma unroll
                for (int j = 0; j < NT; ++j) {
                    const int col = block_col + warp_col + j * 8 + 2 * t;
                    if (col < N)  // N even: the pair is in range
                        *reinterpret_cast<double2*>(C + (size_t)row * N + col) = make_double2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                }
            }
    }
}
