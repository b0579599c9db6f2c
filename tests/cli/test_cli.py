"""The command-line interfaces, run as a user runs them (real subprocesses)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def test_ask_json_answers_one_message(mpbot) -> None:
    run = mpbot("ask", "--json", "--channel", "command", "100 2")
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    for key in (
        "kind",
        "lang",
        "fp32_hours",
        "ratio",
        "ratio_low",
        "ratio_high",
        "projects",
        "mp_hours",
        "mp_hours_low",
        "mp_hours_high",
        "gpu",
        "model",
        "reason",
        "text",
    ):
        assert key in got
    assert got["kind"] == "estimate"
    assert got["mp_hours"] == pytest.approx(50.0)


def test_ask_reads_json_lines_in_order_one_line_each(mpbot) -> None:
    lines = [
        json.dumps("100 2"),
        json.dumps({"text": "٤٨ ساعة", "channel": "command"}),
        '{"text": "not closed',
        json.dumps({"no_text": 1}),
        json.dumps({"text": "help"}),
    ]
    run = mpbot("ask", "--json", stdin="\n".join(lines) + "\n")
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0]["kind"] == "estimate"
    assert out[1]["lang"] == "ar" and out[1]["fp32_hours"] == pytest.approx(48.0)
    assert out[2]["kind"] == "error" and out[3]["kind"] == "error"
    assert out[4]["kind"] == "help"
    assert run.returncode == 1  # malformed lines are reported, not hidden


def test_ask_reads_plain_text_lines_one_question_each(mpbot) -> None:
    """`echo "100 2" | mpbot ask`: a plain line is the question itself, in either language."""
    run = mpbot("ask", "--json", "--channel", "command", stdin="100 2\n٤٨ ساعة ٢\n3d 1.5\n")
    assert run.returncode == 0, run.stderr
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert [o["mp_hours"] for o in out] == pytest.approx([50.0, 24.0, 48.0])
    assert [o["lang"] for o in out] == ["en", "ar", "en"]


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_every_input_line_gets_exactly_one_output_line(mpbot, as_json) -> None:
    """Empty lines too, and a multi-line plain answer is one line: outputs zip with inputs."""
    lines = ["100 2", "", json.dumps("3d 2"), "   ", "{broken", "help"]
    args = ["ask", "--json"] if as_json else ["ask"]
    run = mpbot(*args, stdin="\n".join(lines) + "\n")
    out = run.stdout.splitlines()
    assert len(out) == len(lines), out
    assert "50 hours" in out[0] and "1.5 days" in out[2]
    assert "error" in out[4]
    if as_json:
        assert json.loads(out[1])["kind"] == "help"  # an empty message is answered with usage


def test_ask_plain_text_from_stdin(mpbot) -> None:
    run = mpbot("ask", stdin="100 2\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("\n") == 1 and "FP32" in run.stdout


def test_ask_lang_option_decides_bare_numbers(mpbot) -> None:
    run = mpbot("ask", "--json", "--lang", "ar", "--channel", "command", "100 2")
    assert json.loads(run.stdout)["lang"] == "ar"


def test_console_with_piped_stdin_answers_each_line(mpbot) -> None:
    run = mpbot("console", stdin="100 2\nمساعدة\n")
    assert run.returncode == 0, run.stderr
    answers = [block for block in run.stdout.split("\n\n") if block.strip()]
    assert len(answers) == 2
    assert "50" in answers[0]


def test_console_is_one_conversation_like_a_thread(mpbot) -> None:
    """The ratio for BERT on A100, then only the time, then only a ratio: each builds on the last."""
    lines = "what speedup for BERT on A100?\nit takes 36 hours in fp32\nand with ratio 2.5?\n"
    run = mpbot("console", stdin=lines)
    assert run.returncode == 0, run.stderr
    first, second, third = [block for block in run.stdout.split("\n\n") if block.strip()]
    assert first.startswith(f"BERT on A100: mixed precision should run about {_bert_a100()}×")
    assert second.startswith("BERT on A100: 36 hours in FP32")
    assert third.startswith("BERT on A100: 36 hours in FP32 → about 14 hours")  # setup kept


def test_no_arguments_without_tokens_starts_the_console(mpbot) -> None:
    run = mpbot(stdin="100 2\n")
    assert run.returncode == 0
    assert "console" in run.stderr.lower()
    assert "50" in run.stdout


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path) -> None:
    """``mpbot ask ... | head -1``: the closed pipe ends the command quietly (status 141)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'cli.db'}"
    read, write = os.pipe()
    os.close(read)  # nobody will read: the first write hits a broken pipe
    try:
        run = subprocess.run(
            [sys.executable, "-m", "bot", "ask", "ResNet-50 on V100, 30h"],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            env=env,
            cwd=tmp_path,
            check=False,
        )
    finally:
        os.close(write)
    assert "Traceback" not in run.stderr and "BrokenPipe" not in run.stderr, run.stderr
    assert run.returncode == 141


def _bert_a100() -> str:
    """The realistic BERT-on-A100 ratio the prediction gives (the old 1.84 was the table's)."""
    from bot.advice.prediction import Setup, predict

    return f"{predict(Setup(gpu='A100', model='BERT')).ratio:.2f}"


def test_ask_explain_explains_each_stdin_line(mpbot) -> None:
    """``--explain`` names the reader's rules for each stdin line too (it used to be ignored)."""
    done = mpbot("ask", "--explain", stdin='36h 2x\n{"text": "٣٦ ساعة ٢"}\n')
    assert done.returncode == 0, done.stderr
    first, second, *_ = done.stdout.split("\n\n")
    assert "fp32 = 36 h (rule duration, from '36h')" in first
    assert "ratio = 2 (rule ratio_marker, from '2x')" in first
    assert "fp32 = 36 h (rule duration" in second and "ratio = 2" in second
    # The answer itself never names rules: that is what --explain is for.
    plain = mpbot("ask", "36h 2x").stdout
    assert "(rule " not in plain and "I read “36h” as the FP32 time" in plain
