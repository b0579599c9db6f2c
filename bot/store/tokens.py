"""Bot tokens encrypted at rest: Fernet (``cryptography``), keys from the settings.

OAuth mode stores each workspace's bot token (and refresh token) in the
database; a copy of the database, a backup or a stray read of the file must
not hand them out. Each token is stored as ``fernet:<token>``, encrypted with
the first of ``TOKEN_ENCRYPTION_KEYS`` (comma-separated Fernet keys) and read
with any of them (:class:`cryptography.fernet.MultiFernet`): a rotation puts
the new key first, re-encrypts every row (``mpbot rotate-token-key``), then
drops the old key. A value without the prefix is a token stored in plain text
by an older version: it is read as is, and the migration that brought the
prefix (0005) encrypted the rows it found.

With no key set, a local SQLite database uses a key generated once into the
data folder (``token-encryption.key``, 0600 in a 0700 folder): tokens are not
in the database's file, and nothing is to set up for a try-out. A shared
database (PostgreSQL: several replicas, each with its own disk) requires the
setting (see :func:`bot.settings.Settings`), as one generated key per replica
could not read the others' rows.
"""

from __future__ import annotations

import logging
import os
from copy import copy
from pathlib import Path
from typing import TypeVar

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from sqlalchemy import Engine, Table, select, update

from bot.files import open_private, private_folder
from bot.settings import Settings, data_folder

PREFIX = "fernet:"
KEY_FILE = "token-encryption.key"
# The fields of slack-sdk's Installation and Bot that are secrets.
SECRET_FIELDS = ("bot_token", "bot_refresh_token", "user_token", "user_refresh_token")
# Where they are stored (slack-sdk's tables, created by migration 0001).
SECRET_COLUMNS = {
    "slack_installations": SECRET_FIELDS,
    "slack_bots": ("bot_token", "bot_refresh_token"),
}
_EXCLUSIVE = os.O_WRONLY | os.O_CREAT | os.O_EXCL
T = TypeVar("T")
log = logging.getLogger(__name__)


class TokenKeyError(Exception):
    """A stored token cannot be read with the keys set (a key is missing or wrong)."""


class TokenCipher:
    """Encrypts with the first key, decrypts with any (:class:`MultiFernet`)."""

    def __init__(self, keys: list[bytes]) -> None:
        if not keys:
            raise ValueError("at least one key")
        self._first = Fernet(keys[0])
        self._fernet = MultiFernet([Fernet(key) for key in keys])

    @classmethod
    def from_setting(cls, value: str) -> TokenCipher:
        """``TOKEN_ENCRYPTION_KEYS``: comma-separated, the newest first."""
        return cls([key.strip().encode() for key in value.split(",") if key.strip()])

    @classmethod
    def local(cls, folder: Path) -> TokenCipher:
        """The key generated into ``folder`` on first use (0600), for a local database."""
        path = private_folder(folder) / KEY_FILE
        try:
            key = path.read_bytes().strip()
        except FileNotFoundError:
            key = Fernet.generate_key()
            try:  # O_EXCL: two processes starting at once keep the first one's key
                with open_private(path, _EXCLUSIVE) as file:
                    file.write(key.decode())
                log.info("generated a token encryption key in %s", path)
            except FileExistsError:
                key = path.read_bytes().strip()
        return cls([key])

    def seal(self, value: str | None) -> str | None:
        if value is None or value.startswith(PREFIX):
            return value
        return PREFIX + self._fernet.encrypt(value.encode()).decode()

    def unseal(self, value: str | None) -> str | None:
        if value is None or not value.startswith(PREFIX):
            return value  # none, or stored in plain text before encryption
        try:
            return self._fernet.decrypt(value.removeprefix(PREFIX).encode()).decode()
        except InvalidToken:
            raise TokenKeyError(
                "a stored Slack token cannot be decrypted with TOKEN_ENCRYPTION_KEYS"
            ) from None

    def reseal(self, value: str | None) -> str | None:
        """``value`` encrypted with the first key (plain text encrypted too); unchanged
        when it already is, so a rotation run twice changes nothing the second time."""
        if value is None:
            return None
        if not value.startswith(PREFIX):
            return self.seal(value)
        sealed = value.removeprefix(PREFIX).encode()
        try:
            self._first.decrypt(sealed)
            return value
        except InvalidToken:
            pass
        try:
            return PREFIX + self._fernet.rotate(sealed).decode()
        except InvalidToken:
            raise TokenKeyError(
                "a stored Slack token cannot be decrypted with TOKEN_ENCRYPTION_KEYS"
            ) from None

    def sealed(self, item: T) -> T:
        """A copy of an Installation or Bot with its secret fields encrypted."""
        return _mapped(item, self.seal)

    def unsealed(self, item: T) -> T:
        """A copy of an Installation or Bot with its secret fields decrypted."""
        return _mapped(item, self.unseal)


def cipher_for(settings: Settings) -> TokenCipher:
    """The cipher the settings give: their keys, or the local key (SQLite only)."""
    keys = settings.token_encryption_keys
    if keys is not None:
        return TokenCipher.from_setting(keys.get_secret_value())
    if settings.database_url.get_secret_value().startswith("sqlite"):
        return TokenCipher.local(data_folder())
    raise TokenKeyError("TOKEN_ENCRYPTION_KEYS must be set for a shared (non-SQLite) database")


def _mapped(item: T, change) -> T:
    if item is None:
        return item
    changed = copy(item)
    for field in SECRET_FIELDS:
        if hasattr(changed, field):
            setattr(changed, field, change(getattr(changed, field)))
    return changed


def reseal_all(connection, cipher: TokenCipher, tables: dict[str, Table]) -> int:
    """Every stored token encrypted with ``cipher``'s first key; the rows changed."""
    changed = 0
    for name, columns in SECRET_COLUMNS.items():
        table = tables[name]
        rows = connection.execute(select(table.c.id, *(table.c[c] for c in columns))).all()
        for row in rows:
            values = {c: cipher.reseal(getattr(row, c)) for c in columns}
            if any(values[c] != getattr(row, c) for c in columns):
                connection.execute(update(table).where(table.c.id == row.id).values(**values))
                changed += 1
    return changed


def rotate(engine: Engine, cipher: TokenCipher) -> int:
    """``mpbot rotate-token-key``: re-encrypt every row with the first key, in one transaction."""
    from sqlalchemy import MetaData

    metadata = MetaData()
    with engine.begin() as connection:
        metadata.reflect(connection, only=list(SECRET_COLUMNS))
        return reseal_all(connection, cipher, dict(metadata.tables))
