// Probe (twenty-fourth session): float32 A.x with 8 columns on the TF32 tensor cores, 3xTF32.
// C[M, 8] = A[M, K] . B[K, 8]; rows of A 16-byte aligned, K a multiple of 32, M a multiple of 16 RT.
// A lane (g, t) loads k = kc + 8t .. + 7 of rows g and g + 8 of each m16 tile (two 16-byte loads a
// row) and those 8 values are the fragments of the chunk's four m16n8k8 MMAs: MMA m's slot t stands
// for k = kc + 8t + 2m, slot t + 4 for kc + 8t + 2m + 1, and B's fragments follow (b0 = B[kc + 8t +
// 2m][g], b1 = B[kc + 8t + 2m + 1][g]; 8 scalar loads of B a lane and chunk, through L1).
// MODE 0: 3xTF32 (a_small b_big + a_big b_small + a_big b_big; big = x rounded to 11 bits, small =
// x - big as it lies, truncated by the tensor core); 1: one TF32 MMA (the structure's floor);
// 2: MODE 0 with B's values 1 (no loads of B; wrong results: a timing control).
__device__ __forceinline__ float4 ld_stream(const float* p) {
    float4 v;
    asm("ld.global.nc.L1::no_allocate.v4.f32 { %0, %1, %2, %3 }, [%4];"
        : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ unsigned big_of(float x) { return (__float_as_uint(x) + 0x1000u) & 0xffffe000u; }
__device__ __forceinline__ unsigned small_of(float x, unsigned big) { return __float_as_uint(x - __uint_as_float(big)); }
__device__ __forceinline__ void mma8(float (&d)[4], unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
__device__ __forceinline__ float el(const float4 (&v)[2], int j) {
    const float4 q = v[j / 4];
    return (j % 4 == 0) ? q.x : (j % 4 == 1) ? q.y : (j % 4 == 2) ? q.z : q.w;
}

template <int RT, int KG, int U, int MODE, int OCC>
__global__ void __launch_bounds__(32 * KG, OCC)
ax3(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int K)
{
    __shared__ float red[KG][RT][4][32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    const int row0 = blockIdx.x * 16 * RT;
    const float* arow[RT][2];
    #pragma unroll
    for (int i = 0; i < RT; ++i)
        #pragma unroll
        for (int h = 0; h < 2; ++h) arow[i][h] = A + (size_t)(row0 + 16 * i + g + 8 * h) * K + 8 * t;
    const float* bp = B + (size_t)(8 * t) * 8 + g;
    float acc[RT][4];
    #pragma unroll
    for (int i = 0; i < RT; ++i)
        #pragma unroll
        for (int r = 0; r < 4; ++r) acc[i][r] = 0.f;
    typedef float4 AV[U][RT][2][2];
    typedef float BV[U][8];
    const int nch = K / 32;
    auto load = [&](AV& a, BV& b, int c) {
        #pragma unroll
        for (int u = 0; u < U; ++u) {
            const int cc = min(c + u, nch - 1);  // past the end: reload the last chunk (not used)
            const int kc = cc * 32;
            #pragma unroll
            for (int i = 0; i < RT; ++i)
                #pragma unroll
                for (int h = 0; h < 2; ++h) {
                    a[u][i][h][0] = ld_stream(arow[i][h] + kc);
                    a[u][i][h][1] = ld_stream(arow[i][h] + kc + 4);
                }
            #pragma unroll
            for (int j = 0; j < 8; ++j) b[u][j] = MODE == 2 ? 1.f : __ldg(bp + (size_t)(kc + j) * 8);
        }
    };
    auto compute = [&](AV& a, BV& b, int c) {
        #pragma unroll
        for (int u = 0; u < U; ++u) {
            if (c + u >= nch) break;
            unsigned bb[8], bs[8];
            #pragma unroll
            for (int j = 0; j < 8; ++j) {
                bb[j] = MODE == 1 ? __float_as_uint(b[u][j]) : big_of(b[u][j]);
                bs[j] = small_of(b[u][j], bb[j]);
            }
            #pragma unroll
            for (int i = 0; i < RT; ++i)
                #pragma unroll
                for (int m = 0; m < 4; ++m) {
                    const float x0 = el(a[u][i][0], 2 * m), x1 = el(a[u][i][1], 2 * m);
                    const float x2 = el(a[u][i][0], 2 * m + 1), x3 = el(a[u][i][1], 2 * m + 1);
                    if (MODE == 1) {
                        mma8(acc[i], __float_as_uint(x0), __float_as_uint(x1), __float_as_uint(x2), __float_as_uint(x3),
                             bb[2 * m], bb[2 * m + 1]);
                    } else {
                        const unsigned h0 = big_of(x0), h1 = big_of(x1), h2 = big_of(x2), h3 = big_of(x3);
                        mma8(acc[i], small_of(x0, h0), small_of(x1, h1), small_of(x2, h2), small_of(x3, h3),
                             bb[2 * m], bb[2 * m + 1]);
                        mma8(acc[i], h0, h1, h2, h3, bs[2 * m], bs[2 * m + 1]);
                        mma8(acc[i], h0, h1, h2, h3, bb[2 * m], bb[2 * m + 1]);
                    }
                }
        }
    };
    AV a0, a1;
    BV b0, b1;
    const int step = KG * U;
    int c = warp * U;
    if (c < nch) load(a0, b0, c);
    while (c < nch) {
        load(a1, b1, c + step);
        compute(a0, b0, c);
        c += step;
        if (c >= nch) break;
        load(a0, b0, c + step);
        compute(a1, b1, c);
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
        for (int r = 0; r < 4; ++r)
            C[(size_t)(row0 + 16 * i + g + 8 * (r / 2)) * 8 + 2 * t + r % 2] = acc[i][r];
}

template __global__ void ax3<1, 8, 2, 0, 2>(const float*, const float*, float*, int, int);
template __global__ void ax3<1, 8, 1, 0, 3>(const float*, const float*, float*, int, int);
template __global__ void ax3<2, 8, 1, 0, 2>(const float*, const float*, float*, int, int);
template __global__ void ax3<1, 4, 2, 0, 4>(const float*, const float*, float*, int, int);
template __global__ void ax3<2, 4, 1, 0, 4>(const float*, const float*, float*, int, int);
template __global__ void ax3<1, 8, 2, 1, 2>(const float*, const float*, float*, int, int);
template __global__ void ax3<1, 8, 2, 2, 2>(const float*, const float*, float*, int, int);
template __global__ void ax3<2, 8, 1, 1, 2>(const float*, const float*, float*, int, int);
template __global__ void ax3<1, 16, 2, 0, 1>(const float*, const float*, float*, int, int);
