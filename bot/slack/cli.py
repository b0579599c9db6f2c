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
    """The mode the settings allow, and why, in words that name no value; half a
    Slack setup (a token without its partner) is a :class:`SettingsError`."""
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
    if given := slack_settings_given(settings):
        raise SettingsError(incomplete_slack(given))
    return (
        Mode.CONSOLE,
        "no Slack tokens configured (SLACK_BOT_TOKEN with SLACK_APP_TOKEN or SLACK_SIGNING_SECRET): local console",
    )


# The settings that ask for Slack: one of them set means the operator wants the app.
SLACK_CREDENTIALS = (
    "SLACK_BOT_TOKEN",
    "SLACK_APP_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_CLIENT_ID",
    "SLACK_CLIENT_SECRET",
)


def slack_settings_given(settings: Settings) -> list[str]:
    """The Slack credentials that are set, by name."""
    return [name for name in SLACK_CREDENTIALS if getattr(settings, name.lower()) is not None]


def incomplete_slack(given: list[str]) -> str:
    """Half a Slack setup: what each mode still needs, and how to get the console instead.

    Falling back to the console here would leave a container reading an empty stdin
    and exiting 0, the opposite of what whoever set a token wanted.
    """
    socket = [n for n in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN") if n not in given]
    oauth = {"SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET"} & set(given)
    token = ["SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET"] if oauth else ["SLACK_BOT_TOKEN"]
    http = [n for n in ("SLACK_SIGNING_SECRET", *token) if n not in given]
    names = " and ".join(given)
    return (
        f"{names} {'is' if len(given) == 1 else 'are'} set, but Socket Mode also needs "
        f"{' and '.join(socket)}, HTTP mode {' and '.join(http)}; "
        f"set what one mode needs, or unset {names} for the local console"
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
