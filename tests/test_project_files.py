"""The files a user looks for: LICENSE, py.typed, CITATION.cff, CHANGELOG.md, consistent with pyproject."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PYPROJECT = (ROOT / "pyproject.toml").read_text()


def _pyproject(key):
    return re.search(rf'^{key} = "([^"]+)"$', PYPROJECT, re.MULTILINE).group(1)


def test_the_license_file_is_the_mit_license_pyproject_declares():
    assert _pyproject("license") == "MIT"
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text


@pytest.mark.parametrize("package", ["envs", "agents", "training"])
def test_every_package_is_marked_typed(package):
    assert (ROOT / package / "py.typed").is_file()


def test_citation_file_has_the_cff_fields_and_the_package_version():
    yaml = pytest.importorskip("yaml")
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0"
    assert {"message", "title", "authors"} <= set(citation)
    assert citation["version"] == _pyproject("version")
    assert citation["license"] == _pyproject("license")


def test_changelog_has_an_unreleased_section_and_the_current_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in text
    assert f"## [{_pyproject('version')}]" in text
