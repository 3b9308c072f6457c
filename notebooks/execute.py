"""Execute notebooks in place, keeping their outputs (tables, plots, pictures) so that a reader on
the web sees them without running anything.

    .venv/bin/python notebooks/execute.py                      # every notebook in this folder
    .venv/bin/python notebooks/execute.py notebooks/quickstart_teufel_teufel.ipynb

Each notebook runs in its own folder, as nbmake runs it in ``make test`` (which executes them
afresh and ignores the stored outputs). Cell timings are not recorded, and each cell's stderr is
kept as a terminal would show it at the end (progress bars at their last state), so running again
changes only what the notebook shows.
"""

import pathlib
import re
import sys
import time

import nbformat
from nbclient import NotebookClient

HERE = pathlib.Path(__file__).resolve().parent
TIMEOUT = 1800  # seconds per cell: training and tournaments run in cells
_CONTROL = re.compile(r"(\r|\n|\x1b\[A)")  # carriage return, newline, cursor up (tqdm's nested bars)


def execute(path):
    """Run ``path`` top to bottom in a fresh kernel and write it back with its outputs."""
    path = pathlib.Path(path)
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3", record_timing=False,
                            coalesce_streams=True, resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream" and output["name"] == "stderr":  # progress bars
                output["text"] = final_screen(output["text"])
    nbformat.write(notebook, path)


def final_screen(text):
    """The lines a terminal shows once ``text`` has been written to it (each progress bar at its
    last state, blank lines dropped)."""
    lines, row, column = [""], 0, 0
    for part in _CONTROL.split(text):
        if part == "\n":
            row, column = row + 1, 0
            lines += [""] * (row + 1 - len(lines))
        elif part == "\r":
            column = 0
        elif part == "\x1b[A":
            row = max(row - 1, 0)
        elif part:
            lines[row] = lines[row][:column].ljust(column) + part + lines[row][column + len(part):]
            column += len(part)
    shown = [line.rstrip() for line in lines if line.strip()]
    return "\n".join(shown) + "\n" if shown else ""


def main(paths):
    for path in paths or sorted(HERE.glob("*.ipynb")):
        started = time.perf_counter()
        print(f"executing {path} ...", flush=True)
        execute(path)
        print(f"  done in {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
