"""Compile a rendered template offline with `nvcc -cubin -Xptxas -v` and read its resource report.

This needs nvcc but no GPU, so CI can prove every template compiles for sm_90 without spills,
and the tiling model can read register counts on a machine with no device.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import registry
from .configs import Config
from .render import kernel_name, render


@dataclass(frozen=True)
class PtxasReport:
    registers: int
    spill_stores: int
    spill_loads: int
    stack_frame: int
    static_smem: int
    log: str


def nvcc_path() -> "str | None":
    return shutil.which("nvcc")


def arch_flags(arch: str) -> list[str]:
    """nvcc flags that build machine code for `arch` alone. Architecture-specific targets such as
    sm_90a take the -gencode form: ``-arch=sm_90a`` also runs a plain sm_90 pass, which rejects
    wgmma."""
    number = arch.removeprefix("sm_")
    return [f"-gencode=arch=compute_{number},code=sm_{number}"]


def ptxas_report(strategy: str, config: Config, dtype: Any = None, arch: "str | None" = None) -> PtxasReport:
    """Registers, spills and shared memory of one kernel as ptxas reports them.

    `dtype` defaults to the strategy's default dtype; `arch` to the config's own target
    (``NVRTC_ARCH``, e.g. sm_90a), else sm_90.

    Raises RuntimeError naming the config (with nvcc's output) if compilation fails, and
    FileNotFoundError if nvcc is not on PATH.
    """
    nvcc = nvcc_path()
    if nvcc is None:
        raise FileNotFoundError("nvcc is not on PATH; install the CUDA toolkit to read ptxas reports")
    entry = registry.get(strategy)
    dtype = entry.default_dtype if dtype is None else dtype
    what = f"{strategy} {config.params()} ({dtype})"
    return _report(nvcc, render(entry, config, dtype), arch or config.NVRTC_ARCH or "sm_90",
                   kernel_name(strategy, config, dtype), what)


@functools.lru_cache(maxsize=256)
def _report(nvcc: str, src: str, arch: str, name: str, what: str) -> PtxasReport:
    """The report for one rendered source (cached: the same source and target compile the same,
    and the tests ask for some configs more than once)."""
    with tempfile.TemporaryDirectory() as tmp:
        cu = Path(tmp) / "k.cu"
        cu.write_text(src)
        proc = subprocess.run(
            [nvcc, "-cubin", *arch_flags(arch), "-std=c++17", "-Xptxas", "-v", "-o", str(Path(tmp) / "k.cubin"), str(cu)],
            capture_output=True, text=True,
        )
    log = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise RuntimeError(f"nvcc failed for {what}:\n{log}")
    # ptxas prints a block per function; keep the lines after "Compiling entry function '<name>'"
    # (an earlier info line, such as a performance note, may name the kernel too).
    entry = f"Compiling entry function '{name}'"
    start = log.find(entry) if entry in log else log.find(name)
    section = log[start:] if start >= 0 else log

    def grab(pattern: str) -> int:
        m = re.search(pattern, section)
        return int(m.group(1)) if m else 0

    return PtxasReport(
        registers=grab(r"Used (\d+) registers"),
        spill_stores=grab(r"(\d+) bytes spill stores"),
        spill_loads=grab(r"(\d+) bytes spill loads"),
        stack_frame=grab(r"(\d+) bytes stack frame"),
        static_smem=grab(r"(\d+) bytes smem"),
        log=log,
    )
