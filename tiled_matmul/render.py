"""Render a strategy's jinja2 template for one config and dtype into CUDA C source.

One :class:`jinja2.Environment` with ``StrictUndefined`` serves every template, so a variable the
template uses but the config does not provide is an error, not an empty string. The output is a
pure function of (strategy, config, dtype): no timestamps, no dict-order surprises, so CuPy's
on-disk cache keeps hitting across processes.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from .configs import Config
from .dtypes import as_dtype
from .epilogue import ExSpec, render_vars
from .strategy import Strategy


def templates_dir() -> Path:
    """The folder holding the *.cu.j2 templates: the checkout's top-level kernels/ next to the
    imported package when there is one (so a checkout imported through PYTHONPATH renders its own
    templates, even where an editable install of another checkout maps `tiled_matmul.kernels`
    elsewhere), else the installed `tiled_matmul.kernels` package."""
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file() and any((checkout / "kernels").glob("*.cu.j2")):
        return checkout / "kernels"
    try:
        path = Path(str(resources.files("tiled_matmul.kernels")))
        if any(path.glob("*.cu.j2")):
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return checkout / "kernels"


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


def kernel_name(strategy: str, config: Config, dtype: Any) -> str:
    """The unique `extern "C"` symbol for (strategy, config, dtype)."""
    return f"tm_{strategy}_{as_dtype(dtype).short}_{config.tag()}"


def render(entry: Strategy, config: Config, dtype: Any = None, ex: "ExSpec | None" = None) -> str:
    """CUDA C source of the strategy `entry` for `config` and `dtype` (the strategy's default
    dtype when None), with the batch and epilogue extras of `ex` (none when None: the plain
    kernel). Needs no GPU.

    Raises ValueError when `ex` asks for extras the strategy's template has no hooks for (a
    strategy registered from user code that predates them), or its config does not declare
    (Config.EXTRAS)."""
    if not isinstance(config, entry.config_cls):
        raise TypeError(
            f"strategy {entry.name!r} takes a {entry.config_cls.__name__}, got {type(config).__name__}"
        )
    dt = entry.default_dtype if dtype is None else as_dtype(dtype)
    if not entry.supports(dt):
        raise ValueError(f"strategy {entry.name!r} computes {', '.join(entry.config_cls.SUPPORTED_DTYPES)} only, not {dt}")
    variables = dict(config.template_vars(dt))
    variables.update(
        KERNEL_NAME=kernel_name(entry.name, config, dt),
        STRATEGY=entry.name,
        T=dt.ctype,
        VEC_T=dt.vec_ctype,
        DTYPE=dt.name,
        PARAMS=", ".join(f"{k}={v}" for k, v in config.named_params().items()),
        CT=dt.acc.ctype,  # what the epilogue computes in: float for the 16-bit types
        # C's element: the input type, or the type ExSpec.out_ctype asks for (float32 from half inputs)
        OUT_T=ex.out_ctype if ex is not None and ex.out_ctype else dt.ctype,
        **render_vars(ex, config.BATCH_AXIS),
    )
    env = environment()
    template = env.get_template(entry.template) if entry.template_text is None else env.from_string(entry.template_text)
    source = template.render(**variables)
    if ex is not None:
        # the epilogue's definition names tm_epilogue once; a template with hooks calls it too
        # ... and the config declares the feature (Config.EXTRAS: dmma_tail's template renders
        # dmma's hooks in its main kernel, but neither its reduce nor its launch takes them)
        declared = config.extras()
        missing = [what for what, needed, found in (("an epilogue", ex.epilogue, source.count("tm_epilogue(") > 1
                                                      and "epilogue" in declared),
                                                     ("batches", ex.batched, "tm_batch" in source and "batch" in declared),
                                                     # (or its config reads the layout pair through
                                                     # its own arguments: Config.LAYOUTS)
                                                     ("operand layouts", ex.ld, "ex.lda" in source and "layouts" in declared
                                                      or (ex.a_col, ex.b_col) in config.layouts()),
                                                     (f"a {ex.out_ctype} C", bool(ex.out_ctype), "tm_out_t" in source
                                                      and "out_dtype" in declared))
                   if needed and not found]
        if missing and declared != type(config).EXTRAS:  # the template has them; this config does not take them
            raise ValueError(f"strategy {entry.name!r}: config {config.tag()} has no hooks for {' or '.join(missing)} "
                             f"(Config.extras: {', '.join(sorted(declared)) or 'none'}); pick another config or strategy")
        if missing:
            raise ValueError(f"strategy {entry.name!r}: its template has no hooks for {' or '.join(missing)} "
                             "(EPI, EX_PARAMS, EX_PROLOGUE: see kernels/_epilogue.cuh.j2; C of type OUT_T, named "
                             "tm_out_t); pick another strategy")
    return source
