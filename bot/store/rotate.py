"""``mpbot rotate-token-key``: the stored Slack tokens re-encrypted with the newest key.

The steps (docs/operations.md, "Tokens at rest"): put the new key first in
``TOKEN_ENCRYPTION_KEYS`` (``new,old``) and roll the replicas out (they read
both), run this once, then drop the old key.
"""

from __future__ import annotations

import sys

from bot.settings import SettingsError, load_settings
from bot.store.db import make_engine, migrate
from bot.store.tokens import TokenKeyError, cipher_for, rotate


def run_rotate() -> int:
    try:
        settings = load_settings()
        cipher = cipher_for(settings)
        engine = make_engine(settings.database_url.get_secret_value())
        migrate(engine, lambda: cipher)
        changed = rotate(engine, cipher)
    except (SettingsError, TokenKeyError) as error:
        print(f"mpbot: {error}", file=sys.stderr)
        return 2
    print(f"re-encrypted the tokens of {changed} row(s) with the first key")
    return 0
