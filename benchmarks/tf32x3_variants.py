"""What the tf32x3 kernel's numerics cost: wgmma (128 x 128) with its pieces switched off, timed
in one run against cuBLAS FP32. Each variant is the shipped template with one text substitution,
registered as a user strategy (so it compiles and launches like any rung).

    PYTHONPATH=. python3 benchmarks/tf32x3_variants.py

Variants: shipped (round-to-nearest split, small MMAs first, range guard); two cheaper-looking
guards that were tried (a 3-input max over pairs; a per-step shared-memory flag, which spills);
no guard; truncated split; neither (the pre-precision-modes numerics with the new MMA order); and
the pre-modes kernel (truncated split, per-k8 MMA order, no guard).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import cupy

import tiled_matmul as tm
from tiled_matmul.measure import cublas_compute_type, make_inputs
from tiled_matmul.render import templates_dir
from tiled_matmul.strategies.wgmma import WgmmaConfig
from tiled_matmul.timing import L2Flusher, time_fn

MAIN = (templates_dir() / "09_wgmma.cu.j2").read_text()
TF32 = (templates_dir() / "_tf32.cuh.j2").read_text()

NO_GUARD = ("        hi = max(hi, u);\n        lo_m1 = __viaddmin_u32(u, 0xffffffffu, lo_m1);  // min(u - 1, lo_m1)\n", "")
TRUNCATE = ("return (__float_as_uint(x) + 0x1000u) & 0xffffe000u;", "return __float_as_uint(x) & 0xffffe000u;")
OLD_ORDER = ("""        #pragma unroll
        for (int kk = 0; kk < BK / 8; ++kk) {
            const unsigned long long step = (kk * K8_BYTES) >> 4;
            if (kk == 0) wgmma_tf32<0>(part, frag[1][kk], big_desc + step);
            else wgmma_tf32<1>(part, frag[1][kk], big_desc + step);
        }
        #pragma unroll
        for (int kk = 0; kk < BK / 8; ++kk)
            wgmma_tf32<1>(part, frag[0][kk], small_desc + ((kk * K8_BYTES) >> 4));
        #pragma unroll
        for (int kk = 0; kk < BK / 8; ++kk)
            wgmma_tf32<1>(part, frag[0][kk], big_desc + ((kk * K8_BYTES) >> 4));
""", """        #pragma unroll
        for (int kk = 0; kk < BK / 8; ++kk) {
            const unsigned long long step = (kk * K8_BYTES) >> 4;
            if (kk == 0) wgmma_tf32<0>(part, frag[1][kk], big_desc + step);
            else wgmma_tf32<1>(part, frag[1][kk], big_desc + step);
            wgmma_tf32<1>(part, frag[0][kk], small_desc + step);
            wgmma_tf32<1>(part, frag[0][kk], big_desc + step);
        }
""")

SEE2 = ("""    // Whether any value seen""", """    __device__ __forceinline__ void see2(float x, float y) {
        const unsigned u = __float_as_uint(x) & 0x7fffffffu, v = __float_as_uint(y) & 0x7fffffffu;
        hi = __vimax3_u32(hi, u, v);
        lo_m1 = __viaddmin_u32(u, 0xffffffffu, __viaddmin_u32(v, 0xffffffffu, lo_m1));
    }
    // Whether any value seen""")
PAIRS = [("""            split_tf32(x.x, big.x, sm.x, guard);
            split_tf32(x.y, big.y, sm.y, guard);
            split_tf32(x.z, big.z, sm.z, guard);
            split_tf32(x.w, big.w, sm.w, guard);""", """            guard.see2(x.x, x.y);
            guard.see2(x.z, x.w);
            split_tf32(x.x, big.x, sm.x);
            split_tf32(x.y, big.y, sm.y);
            split_tf32(x.z, big.z, sm.z);
            split_tf32(x.w, big.w, sm.w);"""),
         ("""            split_tf32(p[0], frag[0][kk][0], frag[1][kk][0], guard);
            split_tf32(p[8], frag[0][kk][1], frag[1][kk][1], guard);
            split_tf32(p[4 * B_LD], frag[0][kk][2], frag[1][kk][2], guard);
            split_tf32(p[4 * B_LD + 8], frag[0][kk][3], frag[1][kk][3], guard);""", """            guard.see2(p[0], p[8]);
            guard.see2(p[4 * B_LD], p[4 * B_LD + 8]);
            split_tf32(p[0], frag[0][kk][0], frag[1][kk][0]);
            split_tf32(p[8], frag[0][kk][1], frag[1][kk][1]);
            split_tf32(p[4 * B_LD], frag[0][kk][2], frag[1][kk][2]);
            split_tf32(p[4 * B_LD + 8], frag[0][kk][3], frag[1][kk][3]);""")]

SMEM_FLAG = [
    ("""struct RangeGuard {""", """__shared__ int range_out;
struct RangeGuard {"""),
    ("""    RangeGuard guard;  // this thread's operands: see _tf32.cuh.j2
""", """    if (threadIdx.x == 0) range_out = 0;
"""),
    ("""        // Split this stage of A: big in place""", """        RangeGuard guard;
        // Split this stage of A: big in place"""),
    ("""            split_tf32(p[4 * B_LD + 8], frag[0][kk][3], frag[1][kk][3], guard);
        }
""", """            split_tf32(p[4 * B_LD + 8], frag[0][kk][3], frag[1][kk][3], guard);
        }
        if (guard.out()) range_out = 1;
"""),
    ("""    bool bad = guard.out();""", """    __syncthreads();
    bool bad = range_out != 0;"""),
]

# big by Veltkamp's split (x * (2^13 + 1), then two subtractions: round to nearest at 11 bits,
# NaN stays NaN and Inf or |x| > FLT_MAX / 8193 becomes NaN, which the result check catches), so
# the guard keeps only the smallest nonzero |x|: one register instead of two
VELTKAMP = [
    ("""__device__ __forceinline__ void split_tf32(float x, unsigned& big, unsigned& small) {
    big = round_tf32(x);""", """__device__ __forceinline__ void split_tf32(float x, unsigned& big, unsigned& small) {
    const float t = __fmul_rn(x, 8193.0f);  // _rn: no FMA contraction, which would break the split
    big = __float_as_uint(__fsub_rn(t, __fsub_rn(t, x)));"""),
    ("""        hi = max(hi, u);
""", ""),
    ("""    __device__ __forceinline__ bool out() const { return hi >= RANGE_HI || lo_m1 < RANGE_LO - 1u; }""",
     """    __device__ __forceinline__ bool out() const { return lo_m1 < RANGE_LO - 1u; }"""),
]

VARIANTS = {
    "shipped": [],
    "veltkamp_lo_guard": VELTKAMP,
    "smem_flag_per_step": SMEM_FLAG,
    "guard_pairs": [SEE2, *PAIRS],
    "no_guard": [NO_GUARD],
    "truncated": [TRUNCATE],
    "trunc_no_guard": [TRUNCATE, NO_GUARD],
    "pre_modes": [TRUNCATE, NO_GUARD, OLD_ORDER],
}


def text(subs) -> str:
    tf32 = TF32
    main = MAIN
    for old, new in subs:
        if old in tf32:
            tf32 = tf32.replace(old, new)
        else:
            assert old in main, old[:60]
            main = main.replace(old, new)
    return main.replace('{% include "_tf32.cuh.j2" %}', tf32)


def register(name: str, subs) -> str:
    cls = dataclasses.make_dataclass(f"V_{name}", [], bases=(WgmmaConfig,), frozen=True,
                                     namespace={"STRATEGY": name, "__annotations__": {"STRATEGY": ClassVar[str]}})
    tm.register_strategy(name, template=text(subs), config=cls, replace=True)
    return name


def main() -> None:
    flush = L2Flusher()
    rows = []
    for n in (4096, 8192):
        a, b, c = make_inputs((n, n, n), "float32", seed=0)[0]
        rep = 20 if n == 4096 else 8
        with cublas_compute_type("fp32"):
            ref = time_fn(lambda i: cupy.matmul(a, b, out=c), repeat=rep, flush=flush)
        for v, subs in VARIANTS.items():
            name = register(f"v_{v}", subs)
            k = tm.kernel(name)
            t = time_fn(lambda i: k(a, b, c), repeat=rep, flush=flush)
            err = tm.check(c, a, b)
            rows.append((f"{n}^3", v, t.tflops(n, n, n), ref.median_ms / t.median_ms, err.comp_err, err.cublas_comp_err))
    print("| shape | variant | TF/s | x cuBLAS FP32 | comp. err | cuBLAS comp. err |\n|---|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]:.1f} | {r[3]:.2f} | {r[4]:.2e} | {r[5]:.2e} |")


if __name__ == "__main__":
    main()
