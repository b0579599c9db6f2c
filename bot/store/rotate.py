"""``mpbot rotate-token-key``: the stored Slack tokens re-encrypted with the newest key.

The steps (docs/operations.md, "Tokens at rest"): put the new key first in
``TOKEN_ENCRYPTION_KEYS`` (``new,old``) and roll the replicas out (they read
both), run this once, then drop the old key.

An operator runs it by hand, so every way it cannot work ends in one line on
stderr: settings and keys (status 2), a database that does not answer (status
1; the rotation is one transaction, so nothing changed). The line has the
driver's first line and never the database password.
"""

from __future__ import annotations

import sys

from sqlalchemy.exc import SQLAlchemyError

from bot.database_url import engine_url
from bot.settings import SettingsError, load_settings
from bot.store.db import make_engine, migrate
from bot.store.gate import error_reason
from bot.store.tokens import TokenKeyError, cipher_for, rotate


def run_rotate() -> int:
    try:
        settings = load_settings()
        cipher = cipher_for(settings)
        url = settings.database_url.get_secret_value()
        engine = make_engine(url)
        migrate(engine, lambda: cipher)
        changed = rotate(engine, cipher)
    except (SettingsError, TokenKeyError) as error:
        print(f"mpbot: {error}", file=sys.stderr)
        return 2
    except SQLAlchemyError as error:
        reason = _without(error_reason(error), engine_url(url).password)
        print(
            f"mpbot rotate-token-key: database unavailable ({reason}); nothing was re-encrypted",
            file=sys.stderr,
        )
        return 1
    print(f"re-encrypted the tokens of {changed} row(s) with the first key")
    return 0


def _without(text: str, secret: str | None) -> str:
    """``text`` with ``secret`` blanked, in case a driver ever quotes it."""
    return text.replace(secret, "***") if secret else text
