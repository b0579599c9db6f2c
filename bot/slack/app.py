"""The Bolt app: one place that decides tokens, OAuth, clients and middleware.

A sync :class:`slack_bolt.App` on a threaded WSGI server: the listeners do
blocking work (database, the core, Web API calls with retries), which a
thread pool runs safely, while Bolt acknowledges each request at once. On
this machine a bare sync App on waitress and a bare AsyncApp on uvicorn
served the same load equally fast, so nothing was gained by going async.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from slack_bolt import App, BoltRequest, BoltResponse
from slack_bolt.oauth.oauth_settings import OAuthSettings
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore

from bot.settings import Settings
from bot.slack import rooms
from bot.slack.clients import web_client
from bot.slack.identity import BotIdentity
from bot.slack.installations import RememberedInstallations, StoredAuthorize
from bot.slack.listeners import Handoff, InPool
from bot.store import Store
from bot.store.oauth_states import PurgedOAuthStates
from bot.store.tokens import cipher_for

EVENTS_PATH = "/slack/events"
INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"
# The least scopes the listeners use (see deploy/slack manifests).
BOT_SCOPES = ("commands", "app_mentions:read", "chat:write", "im:history", "users:read")
OAUTH_STATE_TTL_S = 600
# Threads for the work after each ack (Bolt's default size).
WORKERS = 5
log = logging.getLogger(__name__)


def create_app(settings: Settings, store: Store, handoff: Handoff | None = None) -> App:
    """The configured app; in OAuth mode installations live in ``store``'s database.

    Where the work after each ack runs: by default in this process's thread
    pool; ``mpbot serve`` passes a ``handoff`` that commits each as a job for
    its worker processes (:mod:`bot.slack.workers`).
    """
    secret = settings.slack_signing_secret
    options: dict = {
        "signing_secret": secret.get_secret_value() if secret else "",
        "logger": logging.getLogger("slack_bolt"),
        # Respond as soon as the ack function returns (Kit.listen hands the
        # work on), not after Bolt's 10 ms ack polling.
        "process_before_response": True,
    }
    if settings.oauth_enabled:
        # Per-installation clients copy this one's base URL and retry handlers.
        options["client"] = web_client(settings)
        client_secret = settings.slack_client_secret.get_secret_value()  # type: ignore[union-attr]
        installations = RememberedInstallations(
            SQLAlchemyInstallationStore(client_id=settings.slack_client_id, engine=store.engine),
            store.gate,
            cipher_for(settings),  # tokens encrypted at rest
        )
        # From the stored installation: no auth.test between a request and its ack.
        options["authorize"] = StoredAuthorize(installations, options["client"])
        options["oauth_settings"] = OAuthSettings(
            client_id=settings.slack_client_id,
            client_secret=client_secret,
            scopes=list(BOT_SCOPES),
            installation_store=installations,
            state_store=PurgedOAuthStates(
                expiration_seconds=OAUTH_STATE_TTL_S, engine=store.engine
            ),
            install_path=INSTALL_PATH,
            redirect_uri_path=REDIRECT_PATH,
        )
    else:
        token = settings.slack_bot_token.get_secret_value()  # type: ignore[union-attr]
        # No token on the app's client: Bolt would then authorize with auth.test
        # on the first request's ack path. The identity answers from memory.
        options["client"] = web_client(settings)
        identity = BotIdentity(web_client(settings), token)
        options["authorize"] = identity.authorizer()
        identity.start()
    # One pool runs all after-ack work in this process (Bolt's listener pool).
    pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="mpbot-work")
    with _bolt_blind_to_token_env():
        app = App(**options, listener_executor=pool)
    app.use(answer_each_event_once(store))
    _watch_uninstalls(app, settings)
    rooms.register(app, rooms.Kit.build(settings, store, handoff or InPool(pool)))
    return app


UNINSTALL_EVENTS = ("app_uninstalled", "tokens_revoked")


def _watch_uninstalls(app: App, settings: Settings) -> None:
    """Slack says when a workspace uninstalls the app or revokes its tokens.

    In OAuth mode Bolt's own listeners delete that workspace's installation (its
    encrypted tokens), so its next request gets Bolt's "install this app" answer
    and no stale token is kept. With one bot token there is nothing to delete:
    the operator is told, once per event, that the token no longer works.
    """
    if settings.oauth_enabled:
        app.enable_token_revocation_listeners()
        return

    def said(ack: Callable, body: dict) -> None:
        ack()
        log.error(
            "Slack says %s for workspace %s: SLACK_BOT_TOKEN no longer works; install the "
            "app again and set its new token",
            (body.get("event") or {}).get("type"),
            body.get("team_id"),
        )

    for name in UNINSTALL_EVENTS:
        app.event(name)(said)


# What Bolt reads from the environment on its own when not given it. The bot
# gives Bolt a client and an authorizer (or OAuth) instead, read once from
# the settings, so Bolt's own look would only find a token it then skips, with
# a warning at every start, in every process ("`token` will be unused").
BOLT_ENV_TOKENS = ("SLACK_BOT_TOKEN",)


@contextmanager
def _bolt_blind_to_token_env() -> Iterator[None]:
    """Build the app without Bolt seeing ``SLACK_BOT_TOKEN`` (put back right after)."""
    hidden = {name: os.environ.pop(name) for name in BOLT_ENV_TOKENS if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(hidden)


def answer_each_event_once(store: Store) -> Callable:
    """Ack Slack's redeliveries of an event we already took, without running it again.

    The event id is recorded in the database, so a retry that lands on another
    replica is caught too. The database gets a small budget here (this runs
    before the ack); past it, or while it is unavailable, only this replica's
    memory of recent ids decides (logged by the store): a rare double answer
    beats a silent bot or a late ack.
    """

    def middleware(req: BoltRequest, resp: BoltResponse, next: Callable) -> BoltResponse | None:
        body = req.body or {}
        event_id = body.get("event_id") if body.get("type") == "event_callback" else None
        if event_id and not store.first_delivery(event_id):
            log.info(
                "event_id=%s already taken (retry %s, %s): not answered again",
                event_id,
                req.headers.get("x-slack-retry-num", ["?"])[0],
                req.headers.get("x-slack-retry-reason", ["?"])[0],
            )
            return BoltResponse(status=200, body="")
        return next()

    return middleware
