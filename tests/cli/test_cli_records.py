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


def _experiment_paste_line() -> str:
    """The line ``mpbot experiment`` prints for pasting, rendered by the report's own code."""
    from bot.experiment.report import (
        Environment,
        Report,
        Run,
        StepCounts,
        loss_agreement,
        ratio_stats,
        record_line,
        record_problem,
        render_text,
        time_stats,
    )

    env = Environment(
        device="cuda",
        device_name="NVIDIA H100 80GB HBM3",
        capability="9.0",
        torch_version="2.13.0",
        memory_measure="cuda_max_memory_allocated",
    )

    def run(precision: str, seconds: float) -> Run:
        steps = StepCounts(warmup=1, timed=2, repeats=1)
        time = time_stats([seconds])
        return Run(
            precision=precision,
            batch=32,
            steps=steps,
            time=time,
            samples_per_s=32 / seconds,
            peak_memory_bytes=None,
            losses=[1.0],
        )

    base, mixed = run("fp32", 0.1234), run("bf16", 0.0602)
    line = record_line("ResNet-50", env, mixed, base, 8)
    assert record_problem(line, env.device, 0.1234 / 0.0602) is None
    report = Report(
        model="ResNet-50",
        size="full",
        parameters=1,
        environment=env,
        baseline=base,
        mixed=mixed,
        ratio=ratio_stats(base.time, mixed.time),
        loss=loss_agreement(base.losses, mixed.losses),
        record_line=line,
    )
    lines = render_text(report).splitlines()
    return lines[lines.index("paste into Slack to record it for your team:") + 1]


def test_the_experiments_paste_line_is_recorded_by_ask_and_the_console(mpbot) -> None:
    """Exactly as printed, ``/mpestimate`` included (issue 21)."""
    line = _experiment_paste_line()
    assert line.startswith("/mpestimate record H100 ResNet-50 8 GPUs")
    stored = ask_json(mpbot, line)
    assert stored["kind"] == "record", stored
    assert stored["ratio"] == pytest.approx(0.1234 / 0.0602)
    assert (stored["gpu"], stored["model"]) == ("H100", "ResNet-50")

    console = mpbot("console", stdin=f"{line}\nhistory\n").stdout
    assert console.count("H100") >= 2 and "ResNet-50" in console
    assert ask_json(mpbot, "history")["total"] == 2  # one from ask, one from the console
    plain = mpbot("ask", line).stdout
    assert "2.05" in plain and ask_json(mpbot, "history")["total"] == 3
