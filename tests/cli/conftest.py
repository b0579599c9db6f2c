"""Run ``python -m bot`` as a user runs it: a real subprocess on a fresh database."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def mpbot(tmp_path: Path) -> Run:
    """``mpbot(*args, stdin=...)``: no Slack settings, a temporary SQLite file, cwd in tmp."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'cli.db'}"

    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            cwd=tmp_path,
            check=False,
        )

    return run
