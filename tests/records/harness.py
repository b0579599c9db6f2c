"""The Slack helper's end-to-end harness (tests/slack), loaded by path and reused as is.

tests/slack is not a package, so its conftest and helpers are imported from
their files; the fixtures are re-exported by this folder's conftest.
"""

import importlib.util
import sys
from pathlib import Path

SLACK_TESTS = Path(__file__).parents[1] / "slack"


def _load(name: str, as_name: str):
    if as_name in sys.modules:  # tests/slack already loaded it in this session
        return sys.modules[as_name]
    spec = importlib.util.spec_from_file_location(as_name, SLACK_TESTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[as_name] = module
    spec.loader.exec_module(module)
    return module


# The harness imports its helpers as top-level modules (``slackmsg``, ``socketslack``),
# as pytest's rootdir-relative imports make them for tests/slack itself.
if str(SLACK_TESTS) not in sys.path:
    sys.path.insert(0, str(SLACK_TESTS))
slackmsg = _load("slackmsg", "slackmsg")
_conftest = _load("conftest", "records_harness_conftest")

slack = _conftest.slack
start_app = _conftest.start_app
bot = _conftest.bot
TEAM = slackmsg.TEAM
BOT_USER = slackmsg.BOT_USER
