"""Epilogues and batches: what a kernel does at its store, and which matrix of a batch it reads.

A plain ``matmul`` kernel stores ``C[i][j] = acc``. :class:`ExSpec` describes everything else a
kernel can be rendered with, as compile-time structure (the values are run-time arguments):

* a **batch**: the kernel reads one matrix of A, B and C per grid index along its batch axis
  (``Config.BATCH_AXIS``: z for the 2-D-grid rungs, y for the 1-D-grid rungs, whose z holds K
  slices), at per-operand element strides; stride 0 reads one shared matrix (a broadcast weight);
* an **epilogue** applied at the store, ``act(user(alpha * acc + beta * C + bias))``: `alpha`
  and `beta` scalars, a `bias` vector along rows or columns, a user CUDA C expression over
  ``acc, i, j, M, N`` and named extra arrays, then an activation (:data:`ACTIVATIONS`).

The spec renders into the template through ``kernels/_epilogue.cuh.j2`` (a ``TmExtra`` struct
passed by value as one extra kernel argument, and ``tm_epilogue``) and the hooks
:meth:`ExSpec.render_vars` fills in; with no spec the hooks render to nothing, so the plain kernel's
source is byte-identical to what it was. Split-K rungs write partial sums to a workspace: there the
struct's ``active`` flag is 0 and the reduce kernel applies the epilogue instead.

The user expression is checked token by token (:func:`check_expression`) against a conservative
whitelist before it is rendered, in one place, into its own device function.

>>> spec = ExSpec("float", alpha=True, bias=1, activation="relu")
>>> spec.store("acc[i][j]", "row", "col")
'tm_epilogue(acc[i][j], row, col, M, N, ex)'
"""

from __future__ import annotations

import ctypes
import functools
import keyword
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .device import device_limits
from .launch import dependent_launch_supported, function_ptr, launch_with_args

#: activation name -> what it computes (the C is in kernels/_epilogue.cuh.j2)
ACTIVATIONS: dict[str, str] = {
    "relu": "max(x, 0) (NaN stays NaN)",
    "gelu": "0.5 x (1 + erf(x / sqrt(2)))",
    "gelu_tanh": "0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))",
    "silu": "x / (1 + exp(-x))",
    "sigmoid": "1 / (1 + exp(-x))",
}

#: names a user expression may read besides its arrays
EXPRESSION_NAMES = ("acc", "i", "j", "M", "N")

#: functions a user expression may call (CUDA math, overloaded for float and double), and the
#: activations under their own names
EXPRESSION_FUNCTIONS: dict[str, str] = {
    **{f: f for f in (
        "exp", "expf", "exp2", "exp2f", "expm1", "expm1f", "log", "logf", "log2", "log2f", "log1p", "log1pf",
        "sqrt", "sqrtf", "rsqrt", "rsqrtf", "cbrt", "cbrtf", "pow", "powf", "fabs", "fabsf", "abs",
        "fmin", "fminf", "fmax", "fmaxf", "min", "max", "tanh", "tanhf", "sinh", "sinhf", "cosh",
        "coshf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "erf", "erff", "erfc", "erfcf", "floor",
        "floorf", "ceil", "ceilf", "round", "roundf", "trunc", "truncf", "fma", "fmaf", "copysign",
        "copysignf", "isnan", "isinf", "isfinite",
    )},
    **{name: f"tm_{name}" for name in ACTIVATIONS},
}

#: element types of extra arrays: numpy name -> C type
ARRAY_CTYPES: dict[str, str] = {
    "float32": "float", "float64": "double", "int32": "int", "int64": "long long",
}

_CTYPES = {"float": ctypes.c_float, "double": ctypes.c_double, "int": ctypes.c_int,
           "long long": ctypes.c_longlong, "ptr": ctypes.c_void_p}

#: C and C++ words an array may not be named (plus CUDA's built-in variables)
_RESERVED = frozenset(keyword.kwlist) | frozenset(
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t char32_t "
    "class compl const constexpr const_cast continue decltype default delete do double dynamic_cast "
    "else enum explicit export extern false float for friend goto if inline int long mutable "
    "namespace new noexcept not not_eq nullptr operator or or_eq private protected public register "
    "reinterpret_cast return short signed sizeof static static_assert static_cast struct switch "
    "template this thread_local throw true try typedef typeid typename union unsigned using virtual "
    "void volatile wchar_t while xor xor_eq size_t threadIdx blockIdx blockDim gridDim warpSize "
    "printf malloc free main restrict T V ex".split()
)

_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}\Z")
#: one token of an expression: a number, a name, or an operator (longest first)
_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[fF]?)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op><=|>=|==|!=|&&|\|\||[-+*/%()\[\]?:<>!,]))"
)
#: the longest expression accepted
MAX_EXPRESSION = 2000


def check_array_name(name: str) -> str:
    """`name` if it can name an extra array in a user expression, else ValueError saying why."""
    if not isinstance(name, str) or not _IDENT.match(name):
        raise ValueError(f"extra array name {name!r} is not allowed: names are a letter, then letters, "
                         "digits or underscores (at most 32 characters)")
    if name in _RESERVED or name in EXPRESSION_NAMES or name in EXPRESSION_FUNCTIONS or name.startswith("tm_"):
        raise ValueError(f"extra array name {name!r} is reserved (a C/C++ word, a CUDA built-in, one of "
                         f"{', '.join(EXPRESSION_NAMES)}, a function the expression may call, or tm_*); "
                         "rename it")
    return name


def check_expression(expression: str, arrays: Iterable[str] = ()) -> str:
    """The user expression rewritten for the kernel (activation names mapped to their device
    functions), after checking every token: numbers, the names ``acc, i, j, M, N``, the extra
    arrays, the functions of :data:`EXPRESSION_FUNCTIONS`, and the operators
    ``+ - * / % ( ) [ ] ? : < > <= >= == != && || ! ,``. Anything else (``;``, braces, ``#``,
    comments, quotes, backslashes, assignments, other names) raises ValueError naming it.

    >>> check_expression("acc * scale[j] + gelu(acc)", ["scale"])
    'acc * scale [ j ] + tm_gelu ( acc )'
    """
    if not isinstance(expression, str):
        raise TypeError(f"epilogue must be a str holding a CUDA C expression; got {type(expression).__name__}")
    if not expression.strip():
        raise ValueError("epilogue is empty; give a CUDA C expression over acc, i, j (e.g. 'acc * 2')")
    if len(expression) > MAX_EXPRESSION:
        raise ValueError(f"epilogue is {len(expression)} characters long; at most {MAX_EXPRESSION} are allowed")
    for bad in ("//", "/*", "*/", "++", "--"):  # comments, increments, decrements
        if bad in expression:
            raise ValueError(f"epilogue {expression!r}: {bad!r} is not allowed (comments and ++/-- are refused; "
                             "write '- -x' with a space for a double negation)")
    arrays = set(arrays)
    out: list[str] = []
    pos, depth = 0, 0
    end = len(expression.rstrip())
    while pos < end:
        m = _TOKEN.match(expression, pos)
        if m is None or m.end() == pos:
            bad = expression[pos:].lstrip()[:12]
            raise ValueError(f"epilogue {expression!r}: {bad!r} is not allowed (at character {pos}); an "
                             "epilogue is one expression of numbers, names, function calls, indexing and "
                             "the operators + - * / % ( ) [ ] ? : < > <= >= == != && || ! ,")
        pos = m.end()
        tok = m.group(m.lastgroup)
        if m.lastgroup == "name":
            if tok in EXPRESSION_FUNCTIONS:
                tok = EXPRESSION_FUNCTIONS[tok]
            elif tok not in EXPRESSION_NAMES and tok not in arrays:
                raise ValueError(
                    f"epilogue {expression!r}: unknown name {tok!r}; it may use {', '.join(EXPRESSION_NAMES)}, "
                    f"the arrays passed as keyword arguments ({', '.join(sorted(arrays)) or 'none'}) and the "
                    f"functions {', '.join(sorted(EXPRESSION_FUNCTIONS))}"
                )
        elif tok in "([":
            depth += 1
        elif tok in ")]":
            depth -= 1
            if depth < 0:
                raise ValueError(f"epilogue {expression!r}: unbalanced {tok!r}")
        out.append(tok)
    if depth:
        raise ValueError(f"epilogue {expression!r}: unbalanced brackets")
    # "/" next to "/" or "*" would open a comment in C: the tokens are joined by spaces, so they
    # cannot; the check above already refused every character a comment or directive needs.
    return " ".join(out)


@dataclass(frozen=True)
class UserArray:
    """An extra array a user expression reads, by name, with its C element type."""

    name: str
    ctype: str


@dataclass(frozen=True)
class ExSpec:
    """The compile-time shape of a kernel's extras (hashable: part of the compile cache key).

    `ctype` is the type the epilogue computes in ("float" or "double"; "float" for float16 and
    bfloat16 kernels, whose `c` and `bias` are read as float32). `bias` is the axis the bias
    vector runs along (0: one value per row i, 1: one per column j) or None. `expression` is a
    user expression already passed through :func:`check_expression`. `out_ctype` is C's element
    type when it is not the inputs' ("float": ``out_dtype=float32`` on 16-bit inputs), else None.
    """

    ctype: str
    batched: bool = False
    alpha: bool = False
    beta: bool = False
    bias: "int | None" = None
    activation: "str | None" = None
    expression: "str | None" = None
    arrays: tuple[UserArray, ...] = ()
    #: the expression as the user wrote it (for error messages)
    text: "str | None" = None
    #: operand layouts (see :func:`tiled_matmul.semantics.operand_layout`): A read column-major
    #: (Aᵀ row-major in memory), B read column-major; `ld`: the leading dimensions lda and ldb
    #: are run-time fields (set whenever either operand is not a plain row-major matrix)
    a_col: bool = False
    b_col: bool = False
    ld: bool = False
    out_ctype: "str | None" = None

    def __post_init__(self) -> None:
        if self.activation is not None and self.activation not in ACTIVATIONS:
            raise ValueError(f"activation {self.activation!r} is not one of {', '.join(ACTIVATIONS)}")
        if (self.a_col or self.b_col) and not self.ld:
            object.__setattr__(self, "ld", True)  # a column-major operand always reads its ld

    @property
    def layout(self) -> bool:
        """Whether an operand is read with its own leading dimension (or column-major)."""
        return self.ld

    @property
    def epilogue(self) -> bool:
        """Whether anything happens at the store (else only the batch)."""
        return bool(self.alpha or self.beta or self.bias is not None or self.activation or self.expression)

    def fields(self) -> list[tuple[str, str]]:
        """(field name, C type) of the ``TmExtra`` struct, in order; "ptr" marks a pointer."""
        out: list[tuple[str, str]] = []
        if self.ld:
            out += [("lda", "int"), ("ldb", "int")]
        if self.batched:
            out += [("sa", "long long"), ("sb", "long long"), ("sc", "long long")]
        if self.beta:
            out += [("cin", "ptr"), ("scin", "long long")]
        if self.bias is not None:
            out += [("bias", "ptr")]
        out += [(f"u_{a.name}", "ptr") for a in self.arrays]
        if self.alpha:
            out += [("alpha", self.ctype)]
        if self.beta:
            out += [("beta", self.ctype)]
        out += [("active", "int")]
        return out

    def c_fields(self) -> list[str]:
        """The struct's member declarations in C."""
        types = {"cin": f"const {self.ctype}*", "bias": f"const {self.ctype}*"}
        types.update({f"u_{a.name}": f"const {a.ctype}*" for a in self.arrays})
        return [f"{types.get(name, ctype)} {name}" for name, ctype in self.fields()]

    def store(self, value: str, row: str, col: str) -> str:
        """The C expression a template stores for output (row, col) whose product is `value`."""
        return f"tm_epilogue({value}, {row}, {col}, M, N, ex)" if self.epilogue else value

    def prologue(self, batch_index: str, indent: int = 4, ab: bool = True, c: bool = True) -> str:
        """Statements at the top of a main kernel: move A and B (`ab`), C and the C read by beta
        (`c`) to this block's matrix of the batch (nothing unbatched). A kernel short of
        registers moves C only before its stores (`c` there, `ab` at the top)."""
        if not self.batched:
            return ""
        pad = " " * indent
        lines = [f"const size_t tm_batch = {batch_index};  // this block's matrix of the batch"] if ab else []
        if ab:
            lines += ["A += tm_batch * ex.sa;", "B += tm_batch * ex.sb;"]
        if c:
            lines.append("C += tm_batch * ex.sc;")
            if self.beta:
                lines.append("ex.cin += tm_batch * ex.scin;")
        return "".join(pad + line + "\n" for line in lines)

    def reduce_prologue(self, slices: str, indent: int = 4) -> str:
        """Statements at the top of a reduce kernel: its batch's [slices][M][N] workspace block,
        C and the C read by beta (the reduce's batch index is blockIdx.y)."""
        if not self.batched:
            return ""
        pad = " " * indent
        lines = ["const size_t tm_batch = blockIdx.y;  // this block's matrix of the batch",
                 f"W += tm_batch * ({slices}) * (size_t)M * N;", "C += tm_batch * ex.sc;"]
        if self.beta:
            lines.append("ex.cin += tm_batch * ex.scin;")
        return "".join(pad + line + "\n" for line in lines)

    def tag(self) -> str:
        """A short deterministic text naming this spec (for listings)."""
        parts = ["batched"] if self.batched else []
        if self.ld:
            parts.append("ld" + ("A" if self.a_col else "a") + ("B" if self.b_col else "b"))
        parts += [p for p, on in (("alpha", self.alpha), ("beta", self.beta)) if on]
        if self.bias is not None:
            parts.append(f"bias{self.bias}")
        if self.activation:
            parts.append(self.activation)
        if self.expression:
            parts.append("expr(" + ",".join(a.name for a in self.arrays) + ")")
        if self.out_ctype:
            parts.append(f"out_{self.out_ctype}")
        return "+".join(parts) or "plain"


def render_vars(spec: "ExSpec | None", batch_axis: int) -> dict[str, Any]:
    """The template variables of the extras hooks: with no spec, every hook renders to nothing
    (so the plain kernel's source is what it always was)."""
    if spec is None:
        return {"EX": None, "EPI": _identity, "EX_PARAMS": "", "EX_DECL": "", "EX_VALUE_DECL": "",
                "EX_ARG": "", "EX_PROLOGUE": "", "EX_PROLOGUE_AB": "", "EX_PROLOGUE_C": "",
                "EX_REDUCE_PROLOGUE": _nothing, **layout_vars(None)}
    index = "blockIdx." + "xyz"[batch_axis]
    return {
        **layout_vars(spec),
        "EX": spec, "EPI": spec.store, "EX_PARAMS": ", TmExtra ex", "EX_DECL": ", const TmExtra& ex",
        # by value for a __noinline__ callee: a reference to the kernel's parameter would make the
        # kernel copy the struct to a local-memory stack frame
        "EX_VALUE_DECL": ", TmExtra ex",
        "EX_ARG": ", ex", "EX_PROLOGUE": spec.prologue(index),
        "EX_PROLOGUE_AB": spec.prologue(index, c=False), "EX_PROLOGUE_C": spec.prologue(index, ab=False),
        "EX_REDUCE_PROLOGUE": spec.reduce_prologue,
    }


def layout_vars(spec: "ExSpec | None") -> dict[str, Any]:
    """The template variables of the operand layouts. ``A_AT(r, c)`` is the C expression of the
    element offset of A[r][c] (r a row of M, c a k), ``B_AT(r, c)`` that of B[r][c] (r a k, c a
    column of N); ``LDA``/``LDB`` the leading dimensions, ``A_COL``/``B_COL`` whether an operand is
    column-major (its contiguous direction is M for A, K for B: a structural choice of the loads).
    A plain row-major operand renders exactly as before: ``(size_t)r * K + c``.
    """
    ld = spec is not None and spec.ld
    a_col = bool(spec is not None and spec.a_col)
    b_col = bool(spec is not None and spec.b_col)
    lda, ldb = ("ex.lda", "ex.ldb") if ld else ("K", "N")

    def at(r: str, c: str, col: bool, ldx: str) -> str:
        if not ld:  # the plain kernel's own text
            return f"(size_t){r} * {ldx} + {c}"
        r, c = _paren(r), _paren(c)
        return f"(size_t){c} * {ldx} + {r}" if col else f"(size_t){r} * {ldx} + {c}"

    def a_at(r: str, c: str) -> str:
        return at(r, c, a_col, lda)

    def b_at(r: str, c: str) -> str:
        return at(r, c, b_col, ldb)

    return {"A_COL": a_col, "B_COL": b_col, "LD": ld, "LDA": lda, "LDB": ldb, "A_AT": a_at, "B_AT": b_at}


def _paren(expr: str) -> str:
    """`expr` in parentheses unless it is one name or number."""
    return expr if re.fullmatch(r"[A-Za-z0-9_.]+", expr) else f"({expr})"


def _identity(value: str, row: str, col: str) -> str:
    return value


def _nothing(*args: Any, **kwargs: Any) -> str:
    return ""


@functools.lru_cache(maxsize=None)
def struct_type(spec: ExSpec) -> type:
    """The ctypes Structure laid out like the rendered ``TmExtra`` (same members, same order, so
    the same offsets and size under the platform ABI nvcc follows)."""
    return type("TmExtra", (ctypes.Structure,), {"_fields_": [(n, _CTYPES[t]) for n, t in spec.fields()]})


def pack(spec: ExSpec, values: Mapping[str, Any]) -> ctypes.Structure:
    """A ``TmExtra`` value with `values` set (pointers as ints, the rest as numbers); members
    not named are 0."""
    s = struct_type(spec)()
    for name, value in values.items():
        setattr(s, name, value)
    return s


class ExLaunch:
    """A compiled kernel bound to one call's extras: what ``Config.launch`` is handed in place of
    the :class:`~tiled_matmul.compile.CompiledKernel` when a call has a batch or an epilogue.

    It launches like the plain kernel (``launcher(grid, a, b, c, M, N, K, flags, stream)``, and
    ``reduce_launcher(symbol)`` for the reduce kernel) with the ``TmExtra`` struct appended and the batch
    count on the grid's batch axis. A main-kernel launch whose C is the call's output applies the
    epilogue (``active = 1``); one into a split-K workspace does not, and its C batch stride is the
    workspace's; the reduce kernel always applies it.
    """

    def __init__(self, compiled: Any, spec: ExSpec, values: Mapping[str, Any], out_ptr: int, batch: int,
                 out_batch_stride: int, batch_axis: int):
        self.compiled = compiled
        self.spec = spec
        self.values = dict(values)
        self.out_ptr = out_ptr
        self.batch = batch
        self.out_batch_stride = out_batch_stride
        self.batch_axis = batch_axis
        self.device, self.dtype, self.name = compiled.device, compiled.dtype, compiled.name

    def _grid(self, grid: tuple[int, int, int], axis: int) -> tuple[int, int, int]:
        if self.batch == 1:
            return tuple(grid)  # type: ignore[return-value]
        g = list(grid)
        g[axis] = self.batch
        return tuple(g)  # type: ignore[return-value]

    def _struct(self, active: bool, sc: int) -> ctypes.Structure:
        values = dict(self.values, active=int(active and self.spec.epilogue))
        if self.spec.batched:
            values["sc"] = sc
        return pack(self.spec, values)

    def extra(self) -> ctypes.Structure:
        """The ``TmExtra`` value of a main-kernel launch that writes the call's output (epilogue
        active), for a config that launches the kernel itself (its own argument list, the struct
        last: wgmma_tma_tf32)."""
        return self._struct(True, self.out_batch_stride)

    def launcher(self, grid, a_ptr: int, b_ptr: int, c_ptr: int, M: int, N: int, K: int, flags: int,
                 stream_ptr: int) -> None:
        """The main kernel on `grid` (its batch axis set to the batch count)."""
        direct = self.compiled.launcher
        to_out = c_ptr == self.out_ptr
        sc = self.out_batch_stride if to_out else grid[2] * M * N  # workspace: [batch][slices][M][N]
        args = [ctypes.c_void_p(a_ptr), ctypes.c_void_p(b_ptr), ctypes.c_void_p(c_ptr), ctypes.c_int(M),
                ctypes.c_int(N), ctypes.c_int(K), ctypes.c_int(flags), self._struct(to_out, sc)]
        launch_with_args(direct.fptr_for(flags, M, N), self._grid(grid, self.batch_axis), direct.block, direct.smem, stream_ptr, args)

    def reduce_launcher(self, symbol: str):
        """The reduce kernel of the same source, launched like
        :class:`~tiled_matmul.compile.ReduceLauncher` (``(grid, w_ptr, c_ptr, M, N, flags,
        stream_ptr[, splits])``); it gets the struct too and runs one grid row (y) per matrix of
        the batch."""
        fn = self.compiled.companion(symbol)
        ptr = function_ptr(fn)
        dependent = dependent_launch_supported(device_limits(self.device).compute_capability)
        block = (self.compiled.config.REDUCE_THREADS, 1, 1)

        def call(grid, w_ptr: int, c_ptr: int, M: int, N: int, flags: int, stream_ptr: int, *splits: int) -> None:
            values = [ctypes.c_void_p(w_ptr), ctypes.c_void_p(c_ptr), ctypes.c_int(M), ctypes.c_int(N),
                      ctypes.c_int(flags), *(ctypes.c_int(int(s)) for s in splits),
                      self._struct(True, self.out_batch_stride)]
            launch_with_args(ptr, self._grid(tuple(grid), 1), block, 0, stream_ptr, values, dependent=dependent)

        return call


__all__ = ["ACTIVATIONS", "ExSpec", "UserArray", "ExLaunch", "check_expression", "check_array_name",
           "render_vars", "layout_vars", "struct_type", "pack"]
