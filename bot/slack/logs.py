"""Logging for the Slack app: text or JSON lines, with secrets scrubbed.

Tokens and response URLs can reach a log line by many roads (a library's debug output, an
exception's repr, a URL); the formatter scrubs the final line, tracebacks
included, so no road leaks one.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime

from bot.settings import LogFormat, Settings

# Slack tokens (bot, user, app-level, config, refresh) by their documented prefixes.
_TOKEN = re.compile(r"\b(?:xox[abeoprs]|xapp|xoxe\.xox[bp])-[A-Za-z0-9-]+")
# Response URLs (slash commands, interactions) and webhooks let anyone holding
# them post into the channel, so they are secrets too; Bolt's debug output logs
# request bodies, where they appear URL-encoded.
_HOOK = re.compile(r"https?(?::|%3A)(?://|%2F%2F)hooks\.slack\.com[^\s\"'&,)]*", re.IGNORECASE)
REDACTED = "[redacted]"


class ScrubbingFormatter(logging.Formatter):
    def __init__(self, secrets: list[str], as_json: bool) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self._secrets = [s for s in secrets if len(s) >= 8]
        self._as_json = as_json

    def scrub(self, line: str) -> str:
        for secret in self._secrets:
            line = line.replace(secret, REDACTED)
        return _HOOK.sub(REDACTED, _TOKEN.sub(REDACTED, line))

    def format(self, record: logging.LogRecord) -> str:
        if not self._as_json:
            return self.scrub(super().format(record))
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return self.scrub(json.dumps(entry, ensure_ascii=False))


def configure_logging(settings: Settings) -> None:
    """Send every logger to stderr through the scrubbing formatter."""
    secrets = [
        value.get_secret_value()
        for value in (
            settings.slack_bot_token,
            settings.slack_signing_secret,
            settings.slack_app_token,
            settings.slack_client_secret,
            settings.database_url,
        )
        if value is not None
    ]
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(ScrubbingFormatter(secrets, settings.log_format is LogFormat.JSON))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level.value)
