"""Epilogue and batch extras: expression checking, rendering, byte-identical plain kernels, and
every template compiled with them by nvcc without spills (CPU only)."""

from __future__ import annotations

import ctypes
import hashlib

import pytest

import tiled_matmul as tm
from tiled_matmul.configs import EXTRA_FEATURES
from tiled_matmul.dtypes import as_dtype
from tiled_matmul.epilogue import ExSpec, UserArray, check_array_name, check_expression, struct_type
from tiled_matmul.ptxas import _report, nvcc_path
from tiled_matmul.render import kernel_name, render

from .conftest import HAS_NVCC, without_elem_kernel

ALL = [(n, c, dt) for n, e in tm.STRATEGIES.items() for c in e.configs
       for dt in ("float32", "float64") if e.supports(dt)]


# -- the expression checker --------------------------------------------------------------------
@pytest.mark.parametrize("expr,arrays,rendered", [
    ("acc * 2", [], "acc * 2"),
    ("acc*scale[j]+shift[j]", ["scale", "shift"], "acc * scale [ j ] + shift [ j ]"),
    ("i == j ? acc : 0.0f", [], "i == j ? acc : 0.0f"),
    ("fmaxf(acc, 1e-3) + gelu(acc) - relu(-acc)", [], "fmaxf ( acc , 1e-3 ) + tm_gelu ( acc ) - tm_relu ( - acc )"),
    ("acc / (M * N) + .5", [], "acc / ( M * N ) + .5"),
])
def test_expression_accepted(expr, arrays, rendered):
    assert check_expression(expr, arrays) == rendered


@pytest.mark.parametrize("expr,needle", [
    ("acc; asm(\"trap;\")", "is not allowed"),
    ("acc } __global__ void f() {", "is not allowed"),
    ("acc // comment", "is not allowed"),
    ("acc /* x */", "is not allowed"),
    ("#define X 1\nacc", "is not allowed"),
    ("'a'", "is not allowed"),
    ("\"s\"", "is not allowed"),
    ("acc \\\n + 1", "is not allowed"),
    ("acc = 1", "is not allowed"),
    ("acc += 1", "is not allowed"),
    ("acc++", "is not allowed"),
    ("C[0]", "unknown name 'C'"),
    ("threadIdx.x", "unknown name 'threadIdx'"),
    ("printf(acc)", "unknown name 'printf'"),
    ("sizeof(acc)", "unknown name 'sizeof'"),
    ("(acc", "unbalanced"),
    ("acc)", "unbalanced"),
    ("", "is empty"),
    ("acc & 1", "is not allowed"),
    ("0x10", "unknown name 'x10'"),
])
def test_expression_rejected(expr, needle):
    with pytest.raises(ValueError, match=needle):
        check_expression(expr, ["scale"])


def test_expression_type_and_length():
    with pytest.raises(TypeError, match="must be a str"):
        check_expression(3)
    with pytest.raises(ValueError, match="characters long"):
        check_expression("acc + " * 500 + "1")


@pytest.mark.parametrize("name", ["int", "acc", "i", "tm_x", "_x", "1a", "a-b", "exp", "gelu", "threadIdx", "x" * 40, "T"])
def test_bad_array_names(name):
    with pytest.raises(ValueError, match="extra array name"):
        check_array_name(name)


# -- rendering ---------------------------------------------------------------------------------
def test_plain_sources_are_byte_identical_to_before():
    """No spec renders every hook to nothing: the plain kernels' sources are the ones shipped before
    epilogues existed (digest of all of them, recorded at that commit)."""
    digest = hashlib.sha256()
    for name, cfg, dt in ALL:
        if name in LATER or (name, cfg.params()) in LATER_CONFIGS:
            continue
        digest.update(without_elem_kernel(render(tm.STRATEGIES[name], cfg, dt)).encode())
    assert digest.hexdigest() == PLAIN_DIGEST


#: the rungs that came after the digest: the TMA rungs (wgmma_tma_tf32 got its epilogue hooks
#: later still; its plain sources stayed byte-identical then: tests/test_wgmma_tma_tf32.py) and
#: dmma_split_k (whose SPLIT_K hooks leave every dmma source as it was: tests/test_dmma_split_k.py)
#: and dmma_tail (thirteenth session; its TAIL hooks render nothing elsewhere: tests/test_dmma_tail.py)
#: and gemv_xb_tma (twentieth session: a new template; no other rung's rendering changed)
LATER = ("wgmma_tma", "wgmma_tma_tf32", "dmma_split_k", "dmma_tail", "gemv_xb_tma")
#: configs added to an older rung's search space after the digest (sixth session: the 64 x 64
#: wgmma_split_k tiles at 4 and 8 slices, for the small cubes)
LATER_CONFIGS = [("wgmma_split_k", tm.STRATEGIES["wgmma_split_k"].make_config(bm=64, bn=64, stages=4, min_blocks=2,
                                                                             split_k=s).params()) for s in (4, 8)]
#: (eighth session: dmma's small tiles for the small cubes unsplit)
LATER_CONFIGS += [("dmma", tm.STRATEGIES["dmma"].make_config(**p).params())
                  for p in (dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2),
                            dict(bm=64, bn=64, bk=16, wm=32, wn=32, stages=4, min_blocks=2))]
#: (tenth session: gemv_xb's K-group configs; dmma's 32 x 64 tiles and 64 x 64 in 8 warps)
LATER_CONFIGS += [("gemv_xb", cfg.params()) for cfg in tm.STRATEGIES["gemv_xb"].configs if cfg.kg > 1]
LATER_CONFIGS += [("dmma", tm.STRATEGIES["dmma"].make_config(**p).params())
                  for p in (dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4),
                            dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2))]
#: (twelfth session: three dmma tiles in the row-major block order)
LATER_CONFIGS += [("dmma", tm.STRATEGIES["dmma"].make_config(**p).params())
                  for p in (dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2, group_m=1),
                            dict(bm=64, bn=64, bk=8, wm=32, wn=32, stages=4, min_blocks=3, group_m=1),
                            dict(bm=128, bn=128, bk=8, wm=64, wn=32, stages=4, group_m=1),
                            dict(bm=128, bn=64, bk=32, wm=32, wn=32, stages=3))]
#: (twenty-second session: dmma's pairs layout; every earlier config renders as it did)
LATER_CONFIGS += [("dmma", c.params()) for c in tm.STRATEGIES["dmma"].configs if c.pairs]

#: sha256 over every (strategy, config, dtype)'s plain source, in ALL's order, before epilogues
#: (re-taken from main just before the epilogue merge, which had the precision modes' templates;
#: re-taken again after dmma's interior-copy loop and the half rungs, third session; and after
#: dmma's plain interior copies took the pointer walk of its layout kernels and its K step's
#: copies moved in among the DMMAs, branch dlay; and when the split-K reduce took lanes and its
#: launch its early start, eighth session: every non-split rung's sources unchanged by that; and
#: when dmma's interior copies past K took one offset select per step, ninth session: the only
#: lines that changed in any dmma rendering are those selects and their comment; and when
#: gemv_xb took K groups, tenth session: only gemv_xb's sources changed, every other rung's
#: rendering is byte-identical to the ninth session's; taken without dmma's misaligned-operand
#: kernel, eleventh session, beside which the main kernels are byte-identical; and after dmma's
#: FRAG_AHEAD loop, twelfth session: only dmma's sources changed, those of its four-row tiles in two
#: header comments alone; and when dmma's default became the 128 x 128 tile of 32 x 64 warps,
#: thirteenth session: the same sources in another order, the sorted list of their sha256s
#: unchanged; and when warp_tiled took its staged store of C for rows that are not 16-byte
#: aligned, sixteenth session: only warp_tiled's and split_k's renderings changed; register_blocked's
#: staged store went into its second kernel, which without_elem_kernel leaves out)
PLAIN_DIGEST = "a3d13166c4debc5e7804af727ddee5a27cd27dd4219e165bcbac7dcd1a64e0a0"

SPECS = {
    "batched": lambda ct: ExSpec(ct, batched=True),
    "alpha_beta_bias_gelu": lambda ct: ExSpec(ct, alpha=True, beta=True, bias=1, activation="gelu"),
    "expr_rowbias_silu": lambda ct: ExSpec(ct, bias=0, activation="silu",
                                           expression=check_expression("acc * s[j] + k[i]", ["s", "k"]),
                                           arrays=(UserArray("s", ct), UserArray("k", "int"))),
    "batched_all": lambda ct: ExSpec(ct, batched=True, alpha=True, beta=True, bias=1, activation="gelu_tanh",
                                     expression=check_expression("acc * s[j]", ["s"]), arrays=(UserArray("s", ct),)),
}


#: strategies whose kernels take every extra (the TMA rungs' launches have their own signatures:
#: wgmma_tma none, wgmma_tma_tf32 the epilogue, tested in tests/test_wgmma_tma_tf32.py)
HOOKED = [n for n, e in tm.STRATEGIES.items() if e.config_cls.EXTRAS >= EXTRA_FEATURES]


@pytest.mark.parametrize("spec", list(SPECS))
@pytest.mark.parametrize("name", HOOKED)
def test_hooks_render(name, spec):
    entry = tm.STRATEGIES[name]
    dt = entry.default_dtype
    s = SPECS[spec](dt.acc.ctype)
    src = render(entry, entry.default, dt, s)
    assert "struct TmExtra" in src and "TmExtra ex" in src
    if s.epilogue:
        assert src.count("tm_epilogue(") > 1
    if s.batched:
        assert "tm_batch" in src
    if s.expression:
        assert src.count("TM_USER_EXPRESSION") == 1  # the expression lies in one place


def test_a_template_without_hooks_is_refused():
    entry = tm.STRATEGIES["naive"]
    import dataclasses

    bare = dataclasses.replace(entry, template_text="extern \"C\" __global__ void {{ KERNEL_NAME }}() {}\n")
    with pytest.raises(ValueError, match="has no hooks for an epilogue"):
        render(bare, entry.default, "float32", ExSpec("float", alpha=True))


def test_struct_layout_matches_fields():
    s = SPECS["batched_all"]("float")
    st = struct_type(s)
    assert [f[0] for f in st._fields_] == [n for n, _ in s.fields()]
    assert ctypes.sizeof(st) % 8 == 0


def test_source_of_epilogue_shows_the_expression():
    from tiled_matmul.compile import KernelCompileError, _with_expression

    s = ExSpec("float", expression=check_expression("acc * s[j]", ["s"]), arrays=(UserArray("s", "float"),),
               text="acc * s[j]")
    src = render(tm.STRATEGIES["naive"], tm.STRATEGIES["naive"].default, "float32", s)
    err = _with_expression(KernelCompileError("naive", tm.STRATEGIES["naive"].default, "float32", "k.cu(40): error", src), s)
    assert str(err).startswith("the epilogue expression 'acc * s[j]' (line ")


# -- nvcc: no spills with extras ----------------------------------------------------------------
#: batched extras (with beta, or the full epilogue) leave these configs, at their register cap
#: (wgmma at 255; warp_tiled and split_k where min_blocks caps registers), 4-32 B of spill
KNOWN_SPILLS = {
    ("wgmma", "bm128_bn128_stages3_group_m8_min_blocks1_passes3"),
    ("tensor_core", "bm128_bn128_bk32_wm32_wn64_stages4_group_m8_min_blocks1_passes3"),
    ("warp_tiled", "bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_group_m8_min_blocks2"),
    ("warp_tiled", "bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages5_group_m8_min_blocks2"),
    ("warp_tiled", "bm128_bn128_bk8_wm64_wn32_tm8_tn8_stages3_group_m8_min_blocks2"),
    ("warp_tiled", "bm64_bn64_bk16_wm32_wn32_tm4_tn8_stages3_group_m8_min_blocks4"),
    ("split_k", "bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_group_m8_min_blocks2_split_k4"),
    ("split_k", "bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_group_m8_min_blocks2_split_k16"),
    ("dmma_split_k", "bm128_bn64_bk16_wm64_wn32_mma_k8_stages3_group_m8_min_blocks2_split_k2"),
    ("dmma_split_k", "bm128_bn64_bk16_wm64_wn32_mma_k8_stages3_group_m8_min_blocks2_split_k4"),
}
#: dmma's partial-tile kernel (EDGE_KERNEL) with batched extras, on its four-row warp tiles (wm 64,
#: 252-255 registers): 4 B of spill (its main kernel, on the same tiles, none)
KNOWN_EDGE_SPILLS = {
    ("dmma", "bm128_bn128_bk16_wm64_wn32_mma_k8_stages4_group_m8_min_blocks1"),
    ("dmma", "bm128_bn128_bk16_wm64_wn32_mma_k8_stages3_group_m8_min_blocks1"),
    ("dmma", "bm128_bn64_bk16_wm64_wn32_mma_k8_stages3_group_m8_min_blocks2"),
    ("dmma", "bm128_bn64_bk16_wm64_wn32_mma_k8_stages3_group_m1_min_blocks2"),
}

NVCC_CASES = [(n, tm.STRATEGIES[n].default, dt, spec) for n in HOOKED
              for dt in tm.STRATEGIES[n].config_cls.SUPPORTED_DTYPES for spec in SPECS]
# (a config without epilogue hooks, dmma's pairs layout: Config.extras, is refused with one by render)
NVCC_CASES += [(n, c, tm.STRATEGIES[n].default_dtype, "batched_all") for n in HOOKED
               for c in tm.STRATEGIES[n].search_space if c != tm.STRATEGIES[n].default and "epilogue" in c.extras()]


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("name,cfg,dtype,spec", NVCC_CASES, ids=[f"{n}-{c.tag()}-{d}-{s}" for n, c, d, s in NVCC_CASES])
def test_extras_compile_without_spills(name, cfg, dtype, spec):
    entry = tm.STRATEGIES[name]
    s = SPECS[spec](as_dtype(dtype).acc.ctype)  # what the epilogue computes in (float for 16-bit inputs)
    rep = _report(nvcc_path(), render(entry, cfg, dtype, s), cfg.NVRTC_ARCH or "sm_90", kernel_name(name, cfg, dtype),
                  f"{name} {cfg.tag()} {dtype} {spec}")
    assert rep.registers > 0, rep.log
    if (name, cfg.tag()) in KNOWN_SPILLS and s.batched and (rep.spill_stores or rep.spill_loads):
        pytest.xfail(f"known: {rep.spill_stores} B spill stores with batched extras")
    assert rep.spill_stores == 0 and rep.spill_loads == 0, rep.log
    assert rep.stack_frame == 0, rep.log
    assert "are serialized" not in rep.log, rep.log
    if cfg.ELEM_KERNEL:  # the misaligned-operand kernel of the same source (dmma) spills nothing either
        elem = rep.log[rep.log.find(f"Compiling entry function '{cfg.elem_symbol(kernel_name(name, cfg, dtype))}'"):]
        assert "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" in elem.split("Compile time")[0], rep.log
    if cfg.EDGE_KERNEL:  # nor does its partial-tile kernel
        edge = rep.log[rep.log.find(f"Compiling entry function '{cfg.edge_symbol(kernel_name(name, cfg, dtype))}'"):]
        clean = "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" in edge.split("Compile time")[0]
        if not clean and (name, cfg.tag()) in KNOWN_EDGE_SPILLS and s.batched:
            pytest.xfail("known: the partial-tile kernel spills 4 B with batched extras")
        assert clean, rep.log


def test_gemm_form_names_what_the_checks_read():
    """execute.gemm_form, the gemm part of a replay plan's key: scalars by type and value (an int
    and a float alpha are different forms: check_gemm accepts both, a bool it refuses), None for
    what only the full path takes (non-finite or non-real scalars, host arrays, a non-int
    bias_axis), so the full path checks those on every call."""
    import numpy as np

    from tiled_matmul import execute

    base = dict(alpha=1.0, beta=0.0, c=None, bias=None, bias_axis=1, activation=None, epilogue=None, arrays={})
    form = execute.gemm_form(base)
    assert form is not None and form == execute.gemm_form(dict(base))
    assert execute.gemm_form(dict(base, alpha=1)) != form  # int 1 vs float 1.0
    assert execute.gemm_form(dict(base, alpha=2.0)) != form
    assert execute.gemm_form(dict(base, activation="relu")) != form
    assert execute.gemm_form(dict(base, bias_axis=0)) == form  # read only with a bias
    for bad in (dict(alpha=True), dict(beta=float("nan")), dict(alpha=float("inf")), dict(alpha=10**400),
                dict(alpha=1 + 2j), dict(c=np.zeros((2, 2))), dict(bias=np.zeros(2)), dict(activation=["relu"]),
                dict(epilogue=3), dict(arrays={"s": np.zeros(3)})):
        assert execute.gemm_form(dict(base, **bad)) is None, bad
