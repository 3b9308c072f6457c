"""Execute notebooks in place, keeping their outputs (tables, plots, pictures) so that a reader on
the web sees them without running anything.

    .venv/bin/python notebooks/execute.py                      # every notebook in this folder
    .venv/bin/python notebooks/execute.py notebooks/quickstart_teufel_teufel.ipynb

Each notebook runs in its own folder, as nbmake runs it in ``make test`` (which executes them
afresh and ignores the stored outputs). Cell timings are not recorded, so running again changes
only what the notebook shows.
"""

import pathlib
import sys
import time

import nbformat
from nbclient import NotebookClient

HERE = pathlib.Path(__file__).resolve().parent
TIMEOUT = 1800  # seconds per cell: training and tournaments run in cells


def execute(path):
    """Run ``path`` top to bottom in a fresh kernel and write it back with its outputs."""
    path = pathlib.Path(path)
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    nbformat.write(notebook, path)


def main(paths):
    for path in paths or sorted(HERE.glob("*.ipynb")):
        started = time.perf_counter()
        print(f"executing {path} ...", flush=True)
        execute(path)
        print(f"  done in {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
