"""Jinja2 CUDA templates, one per tiling strategy (shipped as tiled_matmul.kernels)."""
