"""Records built directly, for matching and rendering tests."""

from datetime import UTC, datetime, timedelta

import pytest

from bot.records.models import Measure, Record

START = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def make_record():
    counter = iter(range(1, 10_000))

    def make(**values) -> Record:
        record_id = next(counter)
        fields = {
            "id": record_id,
            "team_id": "T1",
            "user_id": "U1",
            "created_at": START + timedelta(minutes=record_id),
            "ratio": 2.0,
            "measure": Measure.RATIO,
        }
        fields.update(values)
        return Record(**fields)

    return make
