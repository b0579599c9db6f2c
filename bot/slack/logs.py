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
import threading
from collections import OrderedDict
from datetime import UTC, datetime
from urllib.parse import unquote, urlsplit

from bot.settings import LogFormat, Settings

# Slack tokens (bot, user, app-level, config, refresh) by their documented prefixes.
_TOKEN = re.compile(r"\b(?:xox[abeoprs]|xapp|xoxe\.xox[bp])-[A-Za-z0-9-]+")
# Response URLs (slash commands, interactions) and webhooks let anyone holding
# them post into the channel, so they are secrets too, on any host: GovSlack's
# hooks.slack-gov.com, a proxy, a test's recorder. Bolt's debug output logs
# request bodies, where they appear URL-encoded, and Slack's JSON escapes "/"
# as "\/". Every URL-looking run is decoded and judged by _is_hook.
_SEP = r"(?:/|%2F|\\/|%5C%2F)"
_URL = re.compile(rf"https?(?::|%3A){_SEP}{_SEP}(?:[^\s\"'&,)<>\\]|\\/)+", re.IGNORECASE)
_HOOK_HOST = re.compile(r"hooks\.slack(?:-gov)?\.com", re.IGNORECASE)
# Slack's webhook and response_url paths: /commands/T…/…, /actions/T…/…,
# /services/…, /workflows/T…/…, /triggers/T…/… (E… for Enterprise Grid).
_HOOK_PATH = re.compile(r"/(?:(?:commands|actions|workflows|triggers)/[TE][A-Z0-9]+/|services/)")
# The response URLs this process was given (see remember_response_url); the
# newest few thousand are enough: a response_url is only valid for 30 minutes.
_GIVEN_URLS: OrderedDict[str, None] = OrderedDict()
_GIVEN_URLS_KEPT = 4096
_GIVEN_LOCK = threading.Lock()
REDACTED = "[redacted]"
# One log line at most (tracebacks included): a huge value must not flood the log.
MAX_LINE_CHARS = 8192


class ScrubbingFormatter(logging.Formatter):
    def __init__(self, secrets: list[str], as_json: bool) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self._secrets = [s for s in secrets if len(s) >= 8]
        self._as_json = as_json

    def scrub(self, line: str, limit: int | None = MAX_LINE_CHARS) -> str:
        """``line`` without secrets, cut to ``limit`` characters.

        It is cut before scrubbing too (with room to spare), so scrubbing stays
        cheap whatever the line's size.
        """
        if limit is not None:
            line = line[: 2 * limit]
        for secret in self._secrets:
            line = line.replace(secret, REDACTED)
        line = _URL.sub(_redact_hook, _TOKEN.sub(REDACTED, line))
        return line if limit is None else _cut(line, limit)

    def format(self, record: logging.LogRecord) -> str:
        if not self._as_json:
            return self.scrub(super().format(record))
        # Cut field by field, so the line stays one valid JSON object.
        field = MAX_LINE_CHARS // 2
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": _cut(record.getMessage()[: 2 * field], field),
        }
        if record.exc_info:
            entry["exception"] = _cut(self.formatException(record.exc_info), field)
        return self.scrub(json.dumps(entry, ensure_ascii=False), limit=None)


def first_line_of_bolt_suggestions(record: logging.LogRecord) -> bool:
    """Bolt follows "Unhandled request (...)" with sample listener code for the
    developer; a request from outside (an unknown ``callback_id``) is one line."""
    if record.name.startswith("slack_bolt") and not record.exc_info:
        message = record.getMessage()
        if "\n" in message:
            record.msg, record.args = message.split("\n", 1)[0], None
    return True


def _cut(text: str, limit: int) -> str:
    marker = " …[cut]"
    return text if len(text) <= limit else text[: limit - len(marker)] + marker


def remember_response_url(url: str) -> None:
    """Treat ``url`` as a secret in every later log line, whatever its host or shape."""
    plain = _plain_url(url)
    with _GIVEN_LOCK:
        _GIVEN_URLS[plain] = None
        _GIVEN_URLS.move_to_end(plain)
        while len(_GIVEN_URLS) > _GIVEN_URLS_KEPT:
            _GIVEN_URLS.popitem(last=False)


def _plain_url(text: str) -> str:
    """A URL as logged (URL-encoded, JSON-escaped, or both) back to its plain form."""
    return unquote(text).replace("\\/", "/")


def _is_hook(url: str) -> bool:
    """On Slack's hooks host, shaped like a Slack webhook, or a response URL we were given."""
    plain = _plain_url(url)
    try:
        parts = urlsplit(plain)
    except ValueError:  # not even a URL ("http://[oops"): not worth the risk
        return True
    if _HOOK_HOST.fullmatch(parts.hostname or "") or _HOOK_PATH.match(parts.path):
        return True
    without_query = plain.split("?", 1)[0]  # a logged URL may carry a query string
    with _GIVEN_LOCK:
        return plain in _GIVEN_URLS or without_query in _GIVEN_URLS


def _redact_hook(match: re.Match[str]) -> str:
    return REDACTED if _is_hook(match.group()) else match.group()


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
    if settings.token_encryption_keys is not None:  # each key alone, as a log might show one
        secrets += settings.token_encryption_keys.get_secret_value().split(",")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(ScrubbingFormatter(secrets, settings.log_format is LogFormat.JSON))
    handler.addFilter(first_line_of_bolt_suggestions)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level.value)
