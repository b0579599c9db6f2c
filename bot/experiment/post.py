"""``--post``: hand the measured ratio to the bot's record store.

The store belongs to the bot (``bot.store``); this module only looks for its
``add_record`` function and never pretends a record was saved when it was
not. Without a database the user pastes the ``/mpestimate record`` line.
"""

from __future__ import annotations

import importlib
import os

from bot.experiment.report import Report


def post(report: Report, gpus: int) -> tuple[bool, str]:
    """Return (saved, message for the user). The URL is never echoed (it may hold a password)."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return False, ("--post needs DATABASE_URL (the bot's database) in the environment; "
                       "posting with a bot token is not available, so paste the line above "
                       "into Slack instead")
    try:
        store = importlib.import_module("bot.store")
    except ImportError:
        store = None
    add_record = getattr(store, "add_record", None)
    if not callable(add_record):
        return False, ("not saved: this version of the bot has no record store "
                       "(bot.store.add_record); paste the line above into Slack instead")
    record = {
        "gpu": report.environment.device_name if report.environment.device == "cuda" else "CPU",
        "model": report.model, "num_gpus": gpus, "precision": report.mixed.precision,
        "baseline": report.baseline.precision, "batch": report.mixed.batch,
        "fp32_step_s": report.baseline.time.median_s,
        "mixed_step_s": report.mixed.time.median_s, "ratio": report.ratio.ratio,
        "source": "mpbot experiment",
    }
    try:
        add_record(record, database_url=url)
    except Exception as exc:  # noqa: BLE001 - any store failure; the URL stays out of it
        return False, f"not saved: the record store refused it ({type(exc).__name__})"
    return True, "saved to the team's records"
