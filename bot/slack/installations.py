"""OAuth installations: read from the database, remembered for when it cannot answer.

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

import logging
import threading
from collections.abc import Callable
from logging import Logger
from typing import TypeVar

from slack_sdk.oauth.installation_store import Bot, Installation, InstallationStore

from bot.store.gate import Gate
from bot.store.tokens import TokenCipher, TokenKeyError

log = logging.getLogger(__name__)
T = TypeVar("T")
_UNANSWERED = object()


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
