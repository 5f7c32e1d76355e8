"""One module per rung of the ladder: its config class, its rules and its registry entry.

A module here defines a :class:`~tiled_matmul.configs.Config` subclass and
``STRATEGY = Strategy.of(ConfigClass, "NN_name.cu.j2", summary, search_space)``;
:mod:`tiled_matmul.registry` finds every module of this package and orders the ladder by the
templates' numbers. Adding a strategy = one ``kernels/NN_name.cu.j2`` + one module here.
"""
