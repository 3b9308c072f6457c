"""The Python examples in README.md and docs/api.md run as written."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def examples():
    for name in ("README.md", "docs/api.md"):
        for i, code in enumerate(BLOCK.findall((ROOT / name).read_text())):
            yield pytest.param(code, id=f"{name}#{i}")


@pytest.mark.parametrize("code", list(examples()))
def test_example_runs(code):
    exec(compile(code, "<example>", "exec"), {"__name__": "__example__"})
