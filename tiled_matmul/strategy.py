"""What the registry holds for one rung of the ladder: :class:`Strategy`.

Each strategy module (``tiled_matmul/strategies/<name>.py``) defines its config class and one
``STRATEGY = Strategy.of(...)`` entry; :mod:`tiled_matmul.registry` collects them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .configs import Config
from .device import device_limits
from .dtypes import DType


@dataclass(frozen=True)
class Strategy:
    """One rung of the ladder: a template, its config class, default config and search space."""

    name: str
    template: str  # file name in kernels/
    config_cls: type[Config]
    default: Config
    search_space: tuple[Config, ...]
    summary: str
    #: False for rungs kept for teaching, which the autotuner and `auto` never pick
    tunable: bool = True
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: the template's text, for strategies registered from user code (None: `template` names a
    #: file in kernels/)
    template_text: "str | None" = field(default=None, repr=False)
    #: False for strategies registered from user code: the shipped tuning databases never name them
    builtin: bool = True

    @classmethod
    def of(cls, config_cls: type[Config], template: str, summary: str,
           search: Iterable[Mapping[str, int]] = (), *, tunable: bool = True) -> "Strategy":
        """The entry for `config_cls`: its class defaults are the default config, and each
        mapping of `search` overrides some of them to make one config of the search space."""
        return cls(
            name=config_cls.STRATEGY,
            template=template,
            config_cls=config_cls,
            default=config_cls(),
            search_space=tuple(config_cls(**p) for p in search),
            summary=summary,
            tunable=tunable,
        )

    @property
    def configs(self) -> tuple[Config, ...]:
        """The default config, then the search space, without repeats (order kept)."""
        return tuple(dict.fromkeys((self.default, *self.search_space)))

    def configs_for(self, dtype: Any, device: Any = None) -> tuple[Config, ...]:
        """:attr:`configs` that validate for `dtype` on `device` (the current GPU, or the H100
        stand-in): a search space is dtype-free, and a config sized for float32's registers may
        not fit float64's (gemv_xb's float32-only K-group configs)."""
        return tuple(c for c in self.configs if c.is_valid(device, dtype))

    def supports(self, dtype: Any) -> bool:
        """Whether this strategy computes `dtype` (tensor_core is float32 only, dmma float64 only)."""
        return self.config_cls.supports(dtype)

    @property
    def default_dtype(self) -> DType:
        """The dtype `source`, `explain` and the CLI use for this strategy when none is named:
        float32 where it computes float32, else its own (float64 for dmma)."""
        return self.config_cls.default_dtype()

    def runs_on(self, device: Any = None) -> bool:
        """Whether this strategy's code can run on `device` (an id or DeviceLimits; the current
        GPU, or the H100 stand-in without one): wgmma needs an sm_90 GPU, the rest run anywhere."""
        return self.config_cls.runs_on(device_limits(device))

    def make_config(self, **params: Any) -> Config:
        """A config from keyword params, the default filling in the rest.

        Unknown names raise TypeError listing the parameters this strategy takes.
        """
        allowed = list(self.default.params())
        unknown = sorted(set(params) - set(allowed))
        if unknown:
            raise TypeError(
                f"strategy {self.name!r} has no parameter(s) {', '.join(unknown)}; "
                f"its parameters are {', '.join(allowed)}"
            )
        return self.default.replace(**params)


__all__ = ["Strategy"]
