"""Each promise in docs/operations.md's fault table names the tests that would catch it broken."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OPERATIONS = REPO / "docs" / "operations.md"


def fault_rows() -> list[str]:
    text = OPERATIONS.read_text(encoding="utf-8")
    table = text.split("## What a user sees during each fault", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ")]
    return rows[2:]  # past the header and its rule


def test_every_fault_row_names_test_files_that_exist():
    rows = fault_rows()
    assert len(rows) >= 20
    for row in rows:
        named = re.findall(r"`(tests/[\w/]+\.py)`", row.rsplit("|", 2)[-2])
        assert named, f"no test named for: {row[:80]}"
        for path in named:
            assert (REPO / path).is_file(), path


def test_the_docs_no_longer_say_waitress_keeps_slow_clients_away():
    text = OPERATIONS.read_text(encoding="utf-8")
    assert "keeps idle and slow clients away" not in text
    assert "HTTP_REQUEST_DEADLINE_S" in text and "TOKEN_ENCRYPTION_KEYS" in text
