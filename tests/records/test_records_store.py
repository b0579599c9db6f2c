"""Team records in the database: CRUD, pages, the delete rule, parallel writers, restarts.

Runs on SQLite always and on PostgreSQL when ``TEST_DATABASE_URL`` is set
(each test uses its own workspace id, so a shared database is fine).
"""

import os
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import inspect

from bot.records import RecordDraft, StepTime, validate
from bot.store import connect
from bot.store.records import (
    DeleteOutcome,
    add_record,
    delete_record,
    get_record,
    list_records,
    records_for_team,
)
from bot.understanding import read_command

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=pytest.mark.skipif(
                not POSTGRES_URL, reason="set TEST_DATABASE_URL to run against PostgreSQL"
            ),
        ),
    ]
)
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'bot.db'}"
    return POSTGRES_URL


@pytest.fixture
def store(db_url):
    opened = connect(db_url)
    yield opened
    opened.engine.dispose()


@pytest.fixture
def team():
    return f"T{uuid.uuid4().hex[:10].upper()}"


def record(store, team, text="record A100 BERT 8 GPUs bf16 fp32 420ms amp 190ms", user="U1"):
    draft = read_command(text).draft
    return add_record(store.engine, team, user, draft, validate(draft))


def test_the_migration_creates_the_table(store):
    assert "team_records" in inspect(store.engine).get_table_names()


def test_add_then_get_keeps_every_field(store, team):
    added = record(store, team, "record A100 BERT 8 GPUs bf16 fp32 0.42 s amp 190 ms", user="U9")
    got = get_record(store.engine, team, added.id)
    assert got == added
    assert (got.gpu, got.model, got.family, got.num_gpus, got.precision, got.baseline) == (
        "A100",
        "BERT",
        "language_model",
        8,
        "bf16",
        "fp32",
    )
    assert got.ratio == pytest.approx(420 / 190)
    # Both sides in the FP32 side's unit, as history shows them.
    assert (got.fp32_value, got.mixed_value, got.unit) == (0.42, pytest.approx(0.19), "s")
    assert got.user_id == "U9" and got.created_at.tzinfo is not None


def test_records_are_scoped_to_their_workspace(store, team):
    added = record(store, team)
    assert get_record(store.engine, "TOTHER", added.id) is None
    assert list_records(store.engine, "TOTHER").total == 0
    outcome = delete_record(store.engine, "TOTHER", added.id, "U1", is_admin=True)
    assert outcome is DeleteOutcome.NOT_FOUND
    assert get_record(store.engine, team, added.id) is not None


def test_pages_are_newest_first(store, team):
    added = [record(store, team, f"record T4 ratio {1 + i / 10}") for i in range(23)]
    first = list_records(store.engine, team, page=1)
    assert (first.total, first.pages, first.page) == (23, 3, 1)
    assert [r.id for r in first.records] == [r.id for r in reversed(added)][:10]
    last = list_records(store.engine, team, page=3)
    assert [r.id for r in last.records] == [added[2].id, added[1].id, added[0].id]
    assert list_records(store.engine, team, page=4).records == []
    assert list_records(store.engine, team, page=0).page == 1


def test_empty_workspace_has_one_empty_page(store, team):
    page = list_records(store.engine, team)
    assert (page.total, page.pages, page.records) == (0, 1, [])


def test_only_the_recorder_or_an_admin_may_delete(store, team):
    mine = record(store, team, user="U1")
    theirs = record(store, team, user="U1")
    engine = store.engine
    assert delete_record(engine, team, mine.id, "U2", is_admin=False) is DeleteOutcome.FORBIDDEN
    assert get_record(engine, team, mine.id) is not None
    assert delete_record(engine, team, mine.id, "U1", is_admin=False) is DeleteOutcome.DELETED
    assert delete_record(engine, team, mine.id, "U1", is_admin=False) is DeleteOutcome.NOT_FOUND
    assert delete_record(engine, team, theirs.id, "UADMIN", is_admin=True) is DeleteOutcome.DELETED
    assert list_records(engine, team).total == 0


def test_records_for_team_feed_matching_newest_first(store, team):
    older = record(store, team, "record A100 BERT ratio 2.1")
    newer = record(store, team, "record V100 BERT ratio 3.0")
    assert [r.id for r in records_for_team(store.engine, team)] == [newer.id, older.id]


def test_invalid_drafts_are_never_stored(store, team):
    draft = RecordDraft(gpu="A100", fp32_step=StepTime(value=420))
    with pytest.raises(ValueError):
        add_record(store.engine, team, "U1", draft, validate(draft))


def test_parallel_records_from_many_users_are_all_kept(store, team):
    users, each = 16, 8

    def write(user: int) -> list[int]:
        return [
            record(store, team, f"record A100 BERT ratio {1.5 + n / 100}", user=f"U{user}").id
            for n in range(each)
        ]

    with ThreadPoolExecutor(max_workers=users) as pool:
        ids = [i for batch in pool.map(write, range(users)) for i in batch]
    assert len(set(ids)) == users * each
    kept = records_for_team(store.engine, team)
    assert sorted(r.id for r in kept) == sorted(ids)
    assert {r.user_id for r in kept} == {f"U{u}" for u in range(users)}


def test_nothing_is_lost_across_a_restart(db_url, team):
    first = connect(db_url)
    added = [record(first, team, f"record T4 ratio {1.2 + i / 10}") for i in range(3)]
    first.engine.dispose()

    second = connect(db_url)  # a new process would do the same: new engine, migrate, read
    try:
        assert [r.id for r in records_for_team(second.engine, team)] == [
            r.id for r in reversed(added)
        ]
        assert record(second, team).id > max(r.id for r in added)
    finally:
        second.engine.dispose()
