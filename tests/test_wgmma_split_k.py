"""CPU checks of wgmma_split_k and of the split hooks it adds to 09_wgmma.cu.j2 and _tf32.cuh.j2."""

from __future__ import annotations

import hashlib

import pytest

import tiled_matmul as tm
from tiled_matmul.render import render

# sha256 (first 16 hex digits) of the float32 rendering of each config of wgmma and tensor_core,
# taken from the templates before the split hooks went in: the hooks must render nothing, so
# these kernels compile to the same code as before. A deliberate change to 09_wgmma.cu.j2,
# 08_tensor_core.cu.j2 or _tf32.cuh.j2 updates this table (the failure prints the new hash).
PINNED = [
    ("wgmma", {'bm': 128, 'bn': 128, 'stages': 3, 'group_m': 8, 'min_blocks': 1}, "25dd389551254d19"),
    ("wgmma", {'bm': 112, 'bn': 128, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "d74ba83a185fa01a"),
    ("wgmma", {'bm': 112, 'bn': 128, 'stages': 3, 'group_m': 8, 'min_blocks': 1}, "163118a7eff66a01"),
    ("wgmma", {'bm': 120, 'bn': 128, 'stages': 3, 'group_m': 8, 'min_blocks': 1}, "b4417a4d0a9b43c4"),
    ("wgmma", {'bm': 96, 'bn': 128, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "a85eaee42db00022"),
    ("wgmma", {'bm': 64, 'bn': 128, 'stages': 6, 'group_m': 8, 'min_blocks': 1}, "61aba5830aff218f"),
    ("wgmma", {'bm': 64, 'bn': 64, 'stages': 4, 'group_m': 8, 'min_blocks': 2}, "22833c7059ab966f"),
    ("wgmma", {'bm': 112, 'bn': 64, 'stages': 3, 'group_m': 8, 'min_blocks': 2}, "24147d2f8d4c7418"),
    ("tensor_core", {'bm': 128, 'bn': 128, 'bk': 32, 'wm': 64, 'wn': 32, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "b4fba741cb036aa1"),
    ("tensor_core", {'bm': 128, 'bn': 128, 'bk': 32, 'wm': 64, 'wn': 32, 'stages': 3, 'group_m': 8, 'min_blocks': 1}, "691d41c7ef69099c"),
    ("tensor_core", {'bm': 128, 'bn': 128, 'bk': 16, 'wm': 64, 'wn': 32, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "6eeae4e247e038ab"),
    ("tensor_core", {'bm': 128, 'bn': 128, 'bk': 16, 'wm': 32, 'wn': 64, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "0f7dc66c91f0491a"),
    ("tensor_core", {'bm': 128, 'bn': 64, 'bk': 32, 'wm': 32, 'wn': 32, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "9f37aa7461346e2d"),
    ("tensor_core", {'bm': 64, 'bn': 128, 'bk': 32, 'wm': 32, 'wn': 32, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "a6fc31ff6db967d6"),
    ("tensor_core", {'bm': 64, 'bn': 64, 'bk': 32, 'wm': 32, 'wn': 32, 'stages': 4, 'group_m': 8, 'min_blocks': 2}, "6da16b2b33ea8687"),
    ("tensor_core", {'bm': 64, 'bn': 64, 'bk': 16, 'wm': 32, 'wn': 32, 'stages': 5, 'group_m': 8, 'min_blocks': 2}, "c7b61c601c1658fe"),
]


@pytest.mark.parametrize("name,params,digest", PINNED, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(PINNED)])
def test_unsplit_renderings_are_unchanged(name, params, digest):
    entry = tm.STRATEGIES[name]
    src = render(entry, entry.config_cls(**params), "float32")
    got = hashlib.sha256(src.encode()).hexdigest()[:16]
    assert got == digest, f"{name} {params} renders differently: sha256 {got}, pinned {digest}"


@pytest.mark.parametrize("name", ["wgmma", "tensor_core"])
def test_unsplit_renderings_hold_no_split_code(name):
    for cfg in tm.STRATEGIES[name].configs:
        src = render(tm.STRATEGIES[name], cfg, "float32")
        for needle in ("SPLIT_K", "k_begin", "k_end", "k_len", "gridDim.z", "blockIdx.z"):
            assert needle not in src, (name, cfg.tag(), needle)
