"""The README's quick start is what CI runs, on what a README reader has.

A new user has Python, its own pip and setuptools (3.11's venv: pip 23.2,
setuptools 65.5) and the two commands in the README. CI must run exactly the
test command after no upgrade a reader would not do, and the build must be
one that setuptools accepts from the oldest version the build requires.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
CI = (REPO / ".ci" / "run").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))

# What `python3 -m venv` brings with Python 3.11 (ensurepip's bundled wheels).
FRESH_VENV_SETUPTOOLS = (65, 5)


def quick_start_commands() -> list[str]:
    """The indented command lines of the README's "Quick start" section."""
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [line.strip() for line in section.splitlines() if line.startswith("    ")]


def test_readme_has_the_two_quick_start_commands():
    commands = quick_start_commands()
    assert "pip install -e . && python -m bot" in commands, commands
    assert 'pip install -e ".[dev]" && python -m pytest' in commands, commands


def test_ci_runs_the_readme_test_command_exactly_and_last():
    last = [line for line in CI.splitlines() if line.strip() and not line.startswith("#")][-1]
    assert last.strip() in quick_start_commands(), last


def test_ci_does_not_upgrade_what_a_fresh_venv_brings():
    assert not re.search(r"pip install[^\n]*--upgrade[^\n]*\b(pip|setuptools|wheel)\b", CI)
    assert not re.search(r"pip install[^\n]*\b(setuptools|wheel)\b", CI)


def test_build_requires_a_setuptools_a_fresh_venv_can_meet():
    (setuptools,) = [r for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    floor = re.fullmatch(r"setuptools>=(\d+)(?:\.(\d+))?", setuptools.replace(" ", ""))
    assert floor, f"expected a plain lower bound, got {setuptools!r}"
    assert (int(floor[1]), int(floor[2] or 0)) <= FRESH_VENV_SETUPTOOLS


def test_license_is_declared_the_way_setuptools_65_reads_it():
    """A PEP 639 string (``license = "MIT"``) needs setuptools 77; the table form
    is read by every setuptools the build allows."""
    license_ = PYPROJECT["project"].get("license")
    assert isinstance(license_, dict) and set(license_) <= {"text", "file"}, license_
