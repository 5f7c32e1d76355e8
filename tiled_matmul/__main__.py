"""``python -m tiled_matmul``: the same CLI as the ``tiled-matmul`` console script."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
