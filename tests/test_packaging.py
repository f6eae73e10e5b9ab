"""pyproject.toml: metadata that today's setuptools reads without a deprecation warning."""

from __future__ import annotations

import tomllib
import warnings
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_license_is_an_spdx_string_with_a_build_requirement_that_reads_it() -> None:
    config = tomllib.loads(PYPROJECT.read_text())
    assert config["project"]["license"] == "MIT"
    # The SPDX string form needs setuptools >= 77 (PEP 639); older ones reject it.
    assert config["build-system"]["requires"] == ["setuptools>=77"]


def test_setuptools_reads_the_metadata_without_a_warning() -> None:
    import setuptools
    from setuptools.config.pyprojecttoml import apply_configuration

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the table form of project.license warned here
        dist = apply_configuration(setuptools.Distribution(), PYPROJECT)
    assert dist.metadata.license_expression == "MIT"
