"""OAuth installations: read from the database, remembered for when it cannot answer,
and the authorization each request gets from them, with no Slack call before its ack.

In OAuth mode every request's token comes from the installation store, on the
ack path (Bolt's authorization) and in the workers (the job's client). With the
database down or frozen, reading it would fail every request or hold its ack.
So each read goes through the store's :class:`~bot.store.gate.Gate` (a small
budget, skipped while degraded), and what the database last answered for a
workspace is kept in this process's memory: while the database works, it is
the database that answers (a token rotated or revoked elsewhere is seen at
once); while it does not, the remembered installation answers (degraded,
logged). A workspace never read since this process started cannot be served
until the database is back.

Tokens are encrypted on their way to the database and decrypted on their way
back (:mod:`bot.store.tokens`); what is remembered here is decrypted.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from logging import Logger
from typing import TypeVar

from slack_bolt import BoltContext
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.authorization.authorize import Authorize
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.oauth.installation_store import Bot, Installation, InstallationStore

from bot.store.gate import Gate
from bot.store.tokens import TokenCipher, TokenKeyError

log = logging.getLogger(__name__)
T = TypeVar("T")
_UNANSWERED = object()
# How often a workspace's bot token is checked with auth.test, in the background.
RECHECK_S = 60.0
# What Slack answers auth.test for a token that will never work again.
REFUSED_TOKEN = frozenset(
    {"invalid_auth", "token_revoked", "account_inactive", "not_authed", "token_expired"}
)


class RememberedInstallations(InstallationStore):
    """``store`` behind ``gate``, with the last answer per workspace kept (see the module)."""

    def __init__(self, store: InstallationStore, gate: Gate, tokens: TokenCipher) -> None:
        self.store = store
        self.gate = gate
        self.tokens = tokens
        self._memory: dict[tuple, object] = {}
        self._lock = threading.Lock()

    @property
    def logger(self) -> Logger:
        return self.store.logger

    def save(self, installation: Installation) -> None:
        self.store.save(self.tokens.sealed(installation))
        self._forget(installation.enterprise_id, installation.team_id)

    def save_bot(self, bot: Bot) -> None:
        self.store.save_bot(self.tokens.sealed(bot))
        self._forget(bot.enterprise_id, bot.team_id)

    def find_bot(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        is_enterprise_install: bool | None = False,
    ) -> Bot | None:
        key = ("bot", enterprise_id, team_id, is_enterprise_install)
        return self._read(
            key,
            lambda: self.store.find_bot(
                enterprise_id=enterprise_id,
                team_id=team_id,
                is_enterprise_install=is_enterprise_install,
            ),
        )

    def find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> Installation | None:
        key = ("installation", enterprise_id, team_id, user_id, is_enterprise_install)
        return self._read(
            key,
            lambda: self.store.find_installation(
                enterprise_id=enterprise_id,
                team_id=team_id,
                user_id=user_id,
                is_enterprise_install=is_enterprise_install,
            ),
        )

    def delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        self.store.delete_bot(enterprise_id=enterprise_id, team_id=team_id)
        self._forget(enterprise_id, team_id)

    def delete_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
    ) -> None:
        self.store.delete_installation(
            enterprise_id=enterprise_id, team_id=team_id, user_id=user_id
        )
        self._forget(enterprise_id, team_id)

    def delete_all(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        self.store.delete_all(enterprise_id=enterprise_id, team_id=team_id)
        self._forget(enterprise_id, team_id)

    def _read(self, key: tuple, read: Callable[[], T]) -> T:
        found = self.gate.run("installation read", read, _UNANSWERED)
        if found is not _UNANSWERED:
            try:
                found = self.tokens.unsealed(found)
            except TokenKeyError as error:  # a key missing from the settings: said, not raised
                log.error("installation for %s unreadable: %s", key[1:3], error)
                found = None
        with self._lock:
            if found is _UNANSWERED:
                remembered = self._memory.get(key)
                if remembered is None:
                    log.warning("degraded: no installation remembered for %s", key[1:3])
                return remembered  # type: ignore[return-value]
            if found is None:
                self._memory.pop(key, None)
            else:
                self._memory[key] = found
        return found

    def _forget(self, enterprise_id: str | None, team_id: str | None) -> None:
        """A workspace's installation changed: what was remembered of it is stale."""
        with self._lock:
            for key in [k for k in self._memory if k[1:3] == (enterprise_id, team_id)]:
                del self._memory[key]


class StoredAuthorize(Authorize):
    """Bolt's authorization in OAuth mode, from the stored installation alone.

    Bolt's own (``InstallationStoreAuthorize``) calls ``auth.test`` for every
    request, on the thread that owes Slack its ack: a slow Slack made every ack
    late (4 s of ``auth.test``, 4 s acks). The stored bot already holds what
    ``auth.test`` would say (its ``bot_id``, ``bot_user_id``, token). So a
    request is authorized from it, and ``auth.test`` runs in a background
    thread, at most once per token every ``recheck_s``: a token Slack refuses
    there (revoked, the app uninstalled) is refused here from then on (ERROR,
    once), with Bolt's "install this app" answer, until the workspace installs
    the app again (a new token). A request that arrives before that check has
    answered is acked as usual; its answer is then refused by Slack and logged.
    """

    def __init__(
        self, installations: InstallationStore, client: WebClient, recheck_s: float = RECHECK_S
    ) -> None:
        self.installations = installations
        self._client = client
        self._recheck_s = recheck_s
        # Tokens by digest (never the token itself): when each was last checked, which
        # one Slack refused.
        self._checked: dict[str, float] = {}
        self._refused: set[str] = set()
        self._lock = threading.Lock()
        self._checks = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mpbot-auth-check")

    def __call__(
        self,
        *,
        context: BoltContext,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None,
        **_actor: str | None,
    ) -> AuthorizeResult | None:
        bot = self.installations.find_bot(
            enterprise_id=enterprise_id,
            team_id=team_id,
            is_enterprise_install=bool(context.is_enterprise_install),
        )
        if bot is None or not bot.bot_token:
            return None
        digest = _digest(bot.bot_token)
        with self._lock:
            if digest in self._refused:
                return None
        self._check_later(bot, digest)
        return AuthorizeResult(
            enterprise_id=bot.enterprise_id or enterprise_id,
            team_id=bot.team_id or team_id,
            bot_token=bot.bot_token,
            bot_id=bot.bot_id,
            bot_user_id=bot.bot_user_id,
            bot_scopes=bot.bot_scopes,
            user_id=user_id,
        )

    def _check_later(self, bot: Bot, digest: str) -> None:
        moment = time.monotonic()
        with self._lock:
            last = self._checked.get(digest)
            if last is not None and moment - last < self._recheck_s:
                return
            self._checked[digest] = moment
        self._checks.submit(self._check, bot, digest)

    def _check(self, bot: Bot, digest: str) -> None:
        """One ``auth.test`` of ``bot``'s token; a refusal for good is remembered."""
        try:
            self._client.auth_test(token=bot.bot_token)
        except SlackApiError as error:
            reason = error.response.get("error") if isinstance(error.response.data, dict) else None
            if reason not in REFUSED_TOKEN:
                log.warning(
                    "auth.test of workspace %s answered %s (%s); checked again later",
                    bot.team_id or bot.enterprise_id,
                    error.response.status_code,
                    reason,
                )
                return
            with self._lock:
                self._refused.add(digest)
            log.error(
                "Slack refused the bot token of workspace %s (%s): its requests are refused "
                "until the app is installed there again",
                bot.team_id or bot.enterprise_id,
                reason,
            )
        except OSError as error:
            log.warning("auth.test unreachable (%s); checked again later", type(error).__name__)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
