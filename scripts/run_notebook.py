"""Execute examples/tiled_matmul_tour.ipynb headlessly with nbclient and save it with its outputs.

    python3 scripts/run_notebook.py                      # in place (plots embedded as PNG)
    python3 scripts/run_notebook.py --output /tmp/tour.ipynb

Needs nbclient, nbformat and ipykernel (``pip install -e ".[examples]"``). The kernel starts in
examples/ with this checkout first on PYTHONPATH, so it imports this checkout's tiled_matmul.
Without a GPU the notebook still runs: its GPU cells print why they skip. If a cell fails, the
notebook is still written (with the error in that cell's output) and the exit code is 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATH = ROOT / "examples" / "tiled_matmul_tour.ipynb"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Execute the tour notebook with nbclient and save its outputs.")
    p.add_argument("notebook", nargs="?", type=Path, default=DEFAULT_PATH, help="the notebook (default: the tour)")
    p.add_argument("--output", type=Path, default=None, help="write here instead of in place")
    p.add_argument("--timeout", type=int, default=1200, help="seconds one cell may run (default 1200)")
    p.add_argument("--kernel", default="python3", help="Jupyter kernel name (default python3)")
    args = p.parse_args(argv)
    try:
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError
    except ImportError as exc:
        raise SystemExit(f"run_notebook needs nbclient, nbformat and ipykernel ({exc}): "
                         "pip install -e \".[examples]\"") from None

    nb = nbformat.read(str(args.notebook), as_version=4)
    # The kernel inherits this environment: put this checkout first so it imports its package.
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    client = NotebookClient(nb, timeout=args.timeout, kernel_name=args.kernel,
                            resources={"metadata": {"path": str(args.notebook.resolve().parent)}})
    status = 0
    try:
        client.execute()
    except CellExecutionError as exc:
        print(f"a cell failed:\n{exc}", file=sys.stderr)
        status = 1
    out = args.output or args.notebook
    nbformat.write(nb, str(out))
    print(f"executed {args.notebook} -> {out}" + (" (with an error)" if status else ""))
    return status


if __name__ == "__main__":
    sys.exit(main())
