"""`lang ar` / `lang en` in the console lasts the session, as Slack stores it per user."""

from __future__ import annotations


def _answers(stdout: str) -> list[str]:
    return [block for block in stdout.split("\n\n") if block.strip()]


def test_lang_ar_makes_later_bare_numbers_arabic_and_lang_en_switches_back(mpbot) -> None:
    run = mpbot("console", stdin="lang ar\n100 2\nlang en\n100 2\n")
    assert run.returncode == 0, run.stderr
    chosen_ar, arabic, chosen_en, english = _answers(run.stdout)
    assert "بالعربية" in chosen_ar
    assert "بالدقة المختلطة" in arabic and "mixed precision" not in arabic
    assert "English" in chosen_en
    assert "with mixed precision" in english
