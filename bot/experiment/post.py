"""``--post``: hand the measured ratio to the bot's record store.

The store belongs to the bot (``bot.store``). Records are written there only
through a records API of the store (``Store.add_record``); until the store has
one, this says so plainly and the user pastes the ``/mpestimate record`` line
instead. It never reports a record as saved when it was not.
"""

from __future__ import annotations

import importlib
import os

NO_URL = ("not saved: --post needs DATABASE_URL (the bot's database) in the environment, "
          "and posting with a bot token is not available; paste the line above into Slack")
NO_API = ("not saved: this version of the bot's store has no records API "
          "(bot.store.Store.add_record); paste the line above into Slack")


def post() -> tuple[bool, str]:
    """(saved, message). The database URL is never echoed: it may hold a password."""
    if not os.environ.get("DATABASE_URL"):
        return False, NO_URL
    try:
        store = importlib.import_module("bot.store")
    except ImportError:
        return False, NO_API
    if not callable(getattr(getattr(store, "Store", None), "add_record", None)):
        return False, NO_API
    return False, ("not saved: the store's records API appeared after this command was "
                   "written and is not wired here yet; paste the line above into Slack")
