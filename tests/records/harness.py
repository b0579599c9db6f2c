"""The Slack helper's end-to-end harness (tests/slack), loaded by path and reused as is.

tests/slack is not a package, so its conftest and helpers are imported from
their files; the fixtures are re-exported by this folder's conftest.
"""

import importlib.util
import sys
from pathlib import Path

SLACK_TESTS = Path(__file__).parents[1] / "slack"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(
        f"records_harness_{name}", SLACK_TESTS / f"{name}.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


_conftest = _load("conftest")
slackmsg = _load("slackmsg")

slack = _conftest.slack
start_app = _conftest.start_app
bot = _conftest.bot
TEAM = _conftest.TEAM
