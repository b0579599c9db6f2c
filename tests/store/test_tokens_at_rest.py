"""Bot tokens are encrypted in the database: saved, migrated from plain text, rotated.

On SQLite and (with TEST_DATABASE_URL) PostgreSQL, whose VARCHAR(200) columns
an encrypted token would not fit before migration 0005.
"""

from __future__ import annotations

import pytest
from alembic import command
from alembic.config import Config
from cryptography.fernet import Fernet
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from sqlalchemy import text

from bot.settings import SettingsError, load_settings
from bot.slack.installations import RememberedInstallations
from bot.store import connect, make_engine, migrate
from bot.store.db import MIGRATIONS
from bot.store.gate import Gate
from bot.store.tokens import PREFIX, TokenCipher, TokenKeyError, rotate

TOKEN = "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy"
REFRESH = "xoxe-1-" + "r" * 140  # rotating tokens are long: their ciphertext passes 200
OLD, NEW = Fernet.generate_key(), Fernet.generate_key()


def _installation(team: str = "T0TEAM") -> Installation:
    return Installation(
        app_id="A0APP",
        enterprise_id=None,
        team_id=team,
        user_id="U0INSTALLER",
        bot_token=TOKEN,
        bot_refresh_token=REFRESH,
        bot_id="B0BOT",
        bot_user_id="U0BOT",
        bot_scopes=["commands"],
        user_token="xoxp-1-user-token-value",
    )


def _stored(engine) -> list[str]:
    """Every token column's raw value, as a copy of the database would show it."""
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT bot_token, bot_refresh_token, user_token FROM slack_installations")
        ).all()
        rows += connection.execute(
            text("SELECT bot_token, bot_refresh_token, NULL FROM slack_bots")
        ).all()
    return [value for row in rows for value in row if value is not None]


def _installations(engine, cipher: TokenCipher) -> RememberedInstallations:
    plain = SQLAlchemyInstallationStore(client_id="111.222", engine=engine)
    return RememberedInstallations(plain, Gate(5.0, 1.0), cipher)


def test_tokens_are_stored_encrypted_and_read_back(database_url):
    store = connect(database_url)
    installations = _installations(store.engine, TokenCipher([NEW]))
    installations.save(_installation())
    stored = _stored(store.engine)
    assert len(stored) == 5 and all(value.startswith(PREFIX) for value in stored)
    assert not any(TOKEN in value or REFRESH in value for value in stored)
    bot = installations.find_bot(enterprise_id=None, team_id="T0TEAM")
    assert bot.bot_token == TOKEN and bot.bot_refresh_token == REFRESH
    found = installations.find_installation(enterprise_id=None, team_id="T0TEAM")
    assert found.user_token == "xoxp-1-user-token-value"


def test_a_wrong_key_reads_no_installation_and_says_so(database_url, caplog):
    store = connect(database_url)
    _installations(store.engine, TokenCipher([OLD])).save(_installation())
    other = _installations(store.engine, TokenCipher([NEW]))
    assert other.find_bot(enterprise_id=None, team_id="T0TEAM") is None
    assert "cannot be decrypted" in caplog.text and TOKEN not in caplog.text


def _alembic(url: str, step, revision: str) -> None:
    """``step`` (alembic's upgrade or downgrade) to ``revision``, with the old key."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = make_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        config.attributes["tokens"] = lambda: TokenCipher([OLD])
        step(config, revision)
    engine.dispose()


def test_the_migration_encrypts_plain_rows_and_the_downgrade_decrypts_them(database_url):
    _alembic(database_url, command.upgrade, "0004")
    engine = make_engine(database_url)
    SQLAlchemyInstallationStore(client_id="111.222", engine=engine).save(_installation())
    assert TOKEN in _stored(engine)  # an older version stored it in plain text
    migrate(engine, lambda: TokenCipher([OLD]))
    stored = _stored(engine)
    assert stored and all(value.startswith(PREFIX) for value in stored)
    assert not any(TOKEN in value or REFRESH in value for value in stored)
    assert (
        _installations(engine, TokenCipher([OLD]))
        .find_bot(enterprise_id=None, team_id="T0TEAM")
        .bot_token
        == TOKEN
    )
    _alembic(database_url, command.downgrade, "0004")
    assert TOKEN in _stored(engine) and REFRESH in _stored(engine)
    engine.dispose()


def test_a_plain_row_written_after_the_migration_is_still_read(database_url):
    """A replica of the older version, during a rolling upgrade, writes plain text."""
    store = connect(database_url)
    SQLAlchemyInstallationStore(client_id="111.222", engine=store.engine).save(_installation())
    bot = _installations(store.engine, TokenCipher([NEW])).find_bot(
        enterprise_id=None, team_id="T0TEAM"
    )
    assert bot.bot_token == TOKEN


def test_rotation_re_encrypts_every_row_with_the_new_key(database_url):
    store = connect(database_url)
    _installations(store.engine, TokenCipher([OLD])).save(_installation("T0ONE"))
    _installations(store.engine, TokenCipher([OLD])).save(_installation("T0TWO"))
    both = TokenCipher([NEW, OLD])  # step 1: the new key first, the old one still read
    assert _installations(store.engine, both).find_bot(enterprise_id=None, team_id="T0ONE")
    assert rotate(store.engine, both) == 4  # step 2: two installations, two bots
    new_only = _installations(store.engine, TokenCipher([NEW]))  # step 3: the old key dropped
    for team in ("T0ONE", "T0TWO"):
        assert new_only.find_bot(enterprise_id=None, team_id=team).bot_token == TOKEN
    with pytest.raises(TokenKeyError):
        TokenCipher([OLD]).unseal(_stored(store.engine)[0])
    assert rotate(store.engine, both) == 0  # nothing left to change


def test_a_shared_database_in_oauth_mode_needs_a_key_and_keys_must_be_fernet_keys():
    oauth = {"slack_client_id": "111.222", "slack_client_secret": "secret-value"}
    with pytest.raises(SettingsError, match="TOKEN_ENCRYPTION_KEYS must be set"):
        load_settings(_env_file=None, database_url="postgresql://u@h/db", **oauth)
    with pytest.raises(SettingsError, match="TOKEN_ENCRYPTION_KEYS: must be Fernet keys"):
        load_settings(_env_file=None, token_encryption_keys="not-a-key")
    keys = f"{NEW.decode()}, {OLD.decode()}"
    settings = load_settings(
        _env_file=None, database_url="postgresql://u@h/db", token_encryption_keys=keys, **oauth
    )
    assert "not-a-key" not in repr(settings) and NEW.decode() not in repr(settings)
