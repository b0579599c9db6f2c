"""``mpbot serve``, ``mpbot socket`` and the no-argument mode picker.

They read the settings first, so a missing or malformed setting stops the
start with a message naming it (never its value), before anything connects.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum

from bot.settings import Settings, SettingsError, load_settings

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 3000


class Mode(StrEnum):
    SOCKET = "socket"
    HTTP = "http"
    CONSOLE = "console"


def pick_mode(settings: Settings) -> tuple[Mode, str]:
    """The mode the settings allow, and why, in words that name no value."""
    if settings.socket_ready:
        return Mode.SOCKET, "SLACK_BOT_TOKEN and SLACK_APP_TOKEN are set: Socket Mode"
    if settings.http_ready:
        source = (
            "SLACK_CLIENT_ID/SLACK_CLIENT_SECRET" if settings.oauth_enabled else "SLACK_BOT_TOKEN"
        )
        return (
            Mode.HTTP,
            f"{source} and SLACK_SIGNING_SECRET are set: HTTP mode on port {DEFAULT_PORT}",
        )
    return (
        Mode.CONSOLE,
        "no Slack tokens configured (SLACK_BOT_TOKEN with SLACK_APP_TOKEN or SLACK_SIGNING_SECRET): local console",
    )


def run_serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> int:
    settings = _settings()
    if settings is None:
        return 2
    if not settings.http_ready:
        print(
            "mpbot serve: needs SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN "
            "(or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET)",
            file=sys.stderr,
        )
        return 2
    from bot.slack.logs import configure_logging
    from bot.slack.server import serve

    configure_logging(settings)
    return serve(settings, host, port)


def run_socket() -> int:
    settings = _settings()
    if settings is None:
        return 2
    if not settings.socket_ready:
        print("mpbot socket: needs SLACK_BOT_TOKEN and SLACK_APP_TOKEN (xapp-...)", file=sys.stderr)
        return 2
    from bot.slack.logs import configure_logging
    from bot.slack.socket_mode import run_socket_mode

    configure_logging(settings)
    return run_socket_mode(settings)


def run_auto(console: Callable[[], int]) -> int:
    """Socket Mode, HTTP or ``console()``, whichever the settings allow; says which."""
    settings = _settings()
    if settings is None:
        return 2
    mode, why = pick_mode(settings)
    print(f"mpbot: {why}.", file=sys.stderr)
    if mode is Mode.SOCKET:
        return run_socket()
    if mode is Mode.HTTP:
        return run_serve()
    return console()


def _settings() -> Settings | None:
    try:
        return load_settings()
    except SettingsError as error:
        print(f"mpbot: {error}", file=sys.stderr)
        return None
