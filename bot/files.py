"""Private files: what the bot writes on disk is its user's alone, whatever the umask.

The database holds bot tokens and users' measurements, and the spool holds
each job's ``response_url`` (anyone holding one may post into the channel) and
the request's verification token; with the usual umask 022 they were
created 0644 in 0755 folders, readable by every user of the machine. So the
folders the bot creates are 0700 and its files 0600, set by the calls that
create them (``os.open``'s mode, never the process-wide umask: other threads
create files too), and put right on files an older version left behind.
SQLite creates a database's ``-wal`` and ``-shm`` files with the database
file's own mode, so a database file made 0600 first keeps them private too.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600
# SQLite's companions of a database file, created with its mode.
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def private_folder(folder: Path) -> Path:
    """``folder`` and its missing parents created 0700; an existing ``folder`` made 0700.

    Only a folder this user owns is changed: a shared parent named by a
    setting (``/tmp``) is left alone.
    """
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    for each in reversed(missing):  # every folder the bot makes is 0700, parents too
        each.mkdir(mode=FOLDER_MODE, exist_ok=True)
    _restrict(folder, FOLDER_MODE)
    return folder


def private_file(path: Path) -> Path:
    """``path`` created empty 0600 if missing, else made 0600 (its folder created 0700).

    A folder at ``path`` raises ``IsADirectoryError`` rather than being made 0600
    (``DATABASE_URL=sqlite:////tmp`` must not lock everyone out of ``/tmp``).
    """
    if not path.parent.exists():
        private_folder(path.parent)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    _restrict(path, FILE_MODE)
    return path


def open_private(path: Path, flags: int = os.O_WRONLY | os.O_CREAT | os.O_TRUNC):
    """``open(path, "w")`` for a new file that is 0600 from its first byte."""
    return os.fdopen(os.open(path, flags, FILE_MODE), "w", encoding="utf-8")


def private_sqlite(database: Path) -> None:
    """A SQLite database file and its companions 0600 before SQLite opens them."""
    private_file(database)
    for suffix in SQLITE_COMPANIONS:
        companion = database.with_name(database.name + suffix)
        if companion.exists():
            _restrict(companion, FILE_MODE)


def _restrict(path: Path, mode: int) -> None:
    if os.name != "posix":  # Windows: no such modes (a user's profile folder is private)
        return
    try:
        if path.stat().st_uid == os.getuid() and path.stat().st_mode & 0o777 != mode:
            path.chmod(mode)
    except FileNotFoundError:
        pass
