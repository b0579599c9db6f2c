"""Team measurements from the terminal: record, history, an estimate that uses them, delete.

Real subprocesses on a temporary SQLite file (``DATABASE_URL``), so every
call opens and migrates the database as a user's would, and records persist
between calls exactly as they do between Slack requests.
"""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def mpbot(mpbot):
    """The shared runner, failing loudly when the command does."""

    def run(*args: str, stdin: str = ""):
        done = mpbot(*args, stdin=stdin)
        assert done.returncode == 0, done.stderr
        return done

    return run


def ask_json(mpbot, text: str) -> dict:
    return json.loads(mpbot("ask", "--json", text).stdout)


@pytest.mark.parametrize(
    ("record", "history", "estimate", "delete", "lang"),
    [
        ("record A100 BERT fp32 420ms amp 190ms", "history", "36h A100 BERT", "delete", "en"),
        (
            "سجل A100 BERT fp32 ٤٢٠ مللي ثانية amp ١٩٠ مللي ثانية",
            "سجل القياسات",
            "٣٦ ساعة على A100 مع BERT",
            "احذف",
            "ar",
        ),
    ],
)
def test_record_history_estimate_delete(mpbot, record, history, estimate, delete, lang) -> None:
    stored = ask_json(mpbot, record)
    assert stored["kind"] == "record" and stored["lang"] == lang
    assert stored["ratio"] == pytest.approx(420 / 190)
    assert stored["gpu"] == "A100" and stored["model"] == "BERT"
    assert "18" not in stored["text"]  # never read as an 18-day estimate

    listed = ask_json(mpbot, history)
    assert listed["kind"] == "history" and listed["total"] == 1 and listed["page"] == 1
    assert [r["id"] for r in listed["records"]] == [stored["id"]]
    assert "<@" not in listed["text"] and "<!date" not in listed["text"]

    estimated = ask_json(mpbot, estimate)
    assert estimated["basis"] == "team"
    assert estimated["ratio"] == pytest.approx(420 / 190, abs=0.01)  # shown to 2 decimals
    assert estimated["mp_hours"] == pytest.approx(36 / estimated["ratio"], rel=0.01)

    deleted = ask_json(mpbot, f"{delete} {stored['id']}")
    assert deleted == {**deleted, "kind": "record", "action": "deleted", "id": stored["id"]}
    assert ask_json(mpbot, history)["total"] == 0
    assert ask_json(mpbot, estimate)["basis"] != "team"
    gone = ask_json(mpbot, f"{delete} {stored['id']}")
    assert gone["kind"] == "error" and gone["reason"] == "not_found" and gone["lang"] == lang


def test_plain_answers_in_english_say_your_team(mpbot) -> None:
    assert "Recorded #1" in mpbot("ask", "record A100 BERT fp32 420ms amp 190ms").stdout
    assert "your team's measurements" in mpbot("ask", "36h A100 BERT").stdout
    assert "@console" in mpbot("ask", "history").stdout


def test_a_refused_record_says_what_to_type(mpbot) -> None:
    refused = ask_json(mpbot, "record A100 BERT fp32 420")
    assert refused["kind"] == "error" and refused["reason"] == "refused"
    assert refused["reasons"] and "record T4 ratio 1.9" in refused["text"]
    assert ask_json(mpbot, "history")["total"] == 0


def test_console_records_then_estimates_with_them(mpbot) -> None:
    lines = "record V100 resnet50 ratio 3\n100h V100 resnet50\nhistory\ndelete 1\n"
    answers = [b for b in mpbot("console", stdin=lines).stdout.split("\n\n") if b.strip()]
    assert len(answers) == 4
    assert answers[0].startswith("Recorded #1")
    assert "your team's measurements" in answers[1] and "33" in answers[1]
    assert "#1" in answers[2]
    assert answers[3].strip() == "Deleted record #1."


def test_json_lines_keep_one_line_per_input(mpbot) -> None:
    lines = [json.dumps(t) for t in ("record T4 ratio 1.9", "history", "delete 99", "100 2")]
    out = mpbot("ask", "--json", stdin="\n".join(lines) + "\n").stdout.splitlines()
    kinds = [json.loads(line)["kind"] for line in out]
    assert kinds == ["record", "history", "error", "estimate"]
