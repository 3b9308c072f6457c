"""README's OpenSpiel example runs as written. It is tagged ```py rather than ```python so that
tests/test_docs.py, which runs every ```python block unconditionally, leaves it to this test,
which skips without open-spiel."""

import pathlib
import re

import pytest

pytest.importorskip("pyspiel")

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_openspiel_example_runs():
    section = README.read_text().split("## OpenSpiel\n", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"```py\n(.*?)```", section, re.S)
    exec(compile(code, "<README OpenSpiel example>", "exec"), {"__name__": "__example__"})
