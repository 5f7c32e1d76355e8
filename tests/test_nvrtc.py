"""Every template compiles with NVRTC, the compiler `tm.matmul` uses at run time (CPU only).

nvcc and NVRTC share a front end but not every rule: NVRTC (13.0, the version CuPy loads on the
H100 machine) compiles device code only and takes an unannotated function, a generic lambda
included, for a host function, which nvcc accepts. So a template that passes tests/test_nvcc.py
can still fail in `tm.matmul`; this test compiles each strategy's configs for their dtypes with the
same options as tiled_matmul.compile (no GPU needed: NVRTC is a library; the `test` extra installs
it as the nvidia-cuda-nvrtc wheel)."""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul.compile import NVRTC_OPTIONS
from tiled_matmul.render import render


def _nvrtc():
    try:
        from cupy.cuda import nvrtc

        nvrtc.getVersion()
        return nvrtc
    except Exception as exc:  # no libnvrtc on this machine
        return exc


NVRTC = _nvrtc()
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(isinstance(NVRTC, Exception),
                                 reason=f"NVRTC cannot be loaded ({NVRTC!r:.120}); pip install nvidia-cuda-nvrtc")]

CASES = [(name, cfg, dt) for name, entry in tm.STRATEGIES.items() for cfg in entry.configs
         for dt in entry.config_cls.SUPPORTED_DTYPES]


@pytest.mark.parametrize("name,cfg,dtype", CASES, ids=[f"{n}-{c.tag()}-{d}" for n, c, d in CASES])
def test_compiles_with_nvrtc(name, cfg, dtype):
    source = render(tm.STRATEGIES[name], cfg, dtype)
    prog = NVRTC.createProgram(source, "k.cu", (), ())
    try:
        try:
            NVRTC.compileProgram(prog, [*NVRTC_OPTIONS, f"-arch={cfg.NVRTC_ARCH or 'sm_90'}"])
        except NVRTC.NVRTCError:
            pytest.fail(f"NVRTC {NVRTC.getVersion()} rejected {name} {cfg.tag()} {dtype}:\n{NVRTC.getProgramLog(prog)}")
        assert len(NVRTC.getCUBIN(prog)) > 0
    finally:
        NVRTC.destroyProgram(prog)
