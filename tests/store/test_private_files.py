"""Nothing the bot writes under its data folder is readable by other users, whatever the umask.

Run with the usual umask 022 (files 0644, folders 0755 by default): a day of
use in small (the database migrated and written, its WAL in use, jobs
spooled, answers journaled, a token key generated), then every path under
the data folder is checked for group and other bits.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.files import private_folder
from bot.jobs.sent_journal import SentEntry, SentJournal
from bot.jobs.spool import Spool
from bot.settings import Settings
from bot.slack.pacing import ChannelPacer
from bot.store import open_store
from bot.store.tokens import KEY_FILE, cipher_for


@pytest.fixture
def umask_022():
    previous = os.umask(0o022)
    yield
    os.umask(previous)


@pytest.fixture
def data_home(tmp_path, monkeypatch) -> Path:
    """platformdirs' data folder for the bot, under ``tmp_path`` (XDG_DATA_HOME)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "mpestimate"


def _readable_by_others(root: Path) -> list[str]:
    paths = [root, *root.rglob("*")]
    return [f"{p} {stat.filemode(p.stat().st_mode)}" for p in paths if p.stat().st_mode & 0o077]


def _a_day_of_use(settings: Settings, check: Path | None = None) -> list[str]:
    """Use, then what of ``check`` is readable by others (while the WAL is open)."""
    store = open_store(settings)
    assert store.ping()  # migrated
    for n in range(50):
        store.first_delivery(f"Ev{n}")
        store.remember_thread("T0", "C0", f"{n}.0", 10.0)
    spool = Spool(settings.job_spool_dir)
    kept = [spool.keep("command", {"response_url": "https://hooks.slack.com/x"}) for _ in range(3)]
    spool.drop(kept[0].key)
    journal = SentJournal(settings.job_spool_dir, "worker-1")
    journal.append(SentEntry(1, 0, "api", datetime.now(UTC), {"ok": True}))
    cipher_for(settings).seal("xoxb-1-2-3")  # the local key, generated on first use
    ChannelPacer(settings.job_spool_dir).reserve("C0", "U0", "1:0")  # posts paced per channel
    with store.engine.connect() as connection:  # the WAL and its index are in use
        assert connection.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
        names = {p.name for p in check.rglob("*")} if check else set()
        assert not check or {"bot.db-wal", "bot.db-shm"} & names or "mpbot.db-wal" in names
        found = _readable_by_others(check) if check else []
    store.engine.dispose()
    return found


def test_after_a_day_of_use_with_umask_022_nothing_is_readable_by_others(umask_022, data_home):
    settings = Settings(_env_file=None)
    assert str(data_home) in settings.database_url.get_secret_value()
    assert _a_day_of_use(settings, data_home) == []
    names = {p.name for p in data_home.rglob("*")}
    assert {"mpbot.db", KEY_FILE, "spool"} <= names
    assert any(name.endswith(".job") for name in names)
    assert _readable_by_others(data_home) == []


def test_files_an_older_version_left_readable_are_made_private(umask_022, data_home):
    spool = data_home / "spool"
    spool.mkdir(parents=True)
    data_home.chmod(0o755)
    for name in ("mpbot.db", "mpbot.db-wal", "mpbot.db-shm"):
        (data_home / name).touch(mode=0o644)
    (data_home / "mpbot.db").unlink()  # an empty file is no database: SQLite makes its own
    (data_home / "mpbot.db-wal").unlink()
    (data_home / "mpbot.db-shm").unlink()
    old = sqlite3.connect(data_home / "mpbot.db")
    old.execute("PRAGMA journal_mode=WAL")
    old.execute("CREATE TABLE t (x)")
    old.commit()
    for path in data_home.iterdir():
        path.chmod(0o644 if path.is_file() else 0o755)
    assert _readable_by_others(data_home)
    assert _a_day_of_use(Settings(_env_file=None), data_home) == []
    old.close()
    assert _readable_by_others(data_home) == []


def test_a_database_and_spool_elsewhere_are_private_too(umask_022, tmp_path):
    settings = Settings(
        _env_file=None,
        database_url=f"sqlite:///{tmp_path / 'new' / 'db' / 'bot.db'}",
        job_spool_dir=tmp_path / "new" / "spool",
        token_encryption_keys="ZmDfcTF7_60GrrY167zsiPd67pEvs0aGOv2oasOM1Pg=",
    )
    assert _a_day_of_use(settings, tmp_path / "new") == []


def test_a_shared_parent_folder_is_left_alone(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    private_folder(shared / "mine")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o755  # only what the bot made is 0700
    assert stat.S_IMODE((shared / "mine").stat().st_mode) == 0o700
