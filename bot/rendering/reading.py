"""What the reader read, worded for the reply (issue 9: readings explain themselves).

Two pieces, added to a rendered reply by :func:`with_reading`:

* a note naming each number the reader saw but did not use ("I did not use
  2.5: nothing said whether it is a time or a ratio."), so none is dropped
  silently;
* one Details line saying what was read as what ("Read: 36h as the FP32 time
  (rule duration), 2x as the ratio (rule ratio_marker).").
"""

from __future__ import annotations

from bot.models import Lang, Query, Reply
from bot.rendering.i18n import translations
from bot.rendering.numbers import isolate_latin
from bot.rendering.reply import escape


def _words(lang: Lang, text: str) -> str:
    return isolate_latin(text) if lang is Lang.AR else text


def unused_note(query: Query, lang: Lang) -> str | None:
    if not query.unused:
        return None
    _ = translations(lang).gettext
    numbers = {"numbers": _words(lang, ", ".join(query.unused))}
    # At most three numbers are named (Query.unused), so one and "some" are the two forms.
    if len(query.unused) == 1:
        return (
            _("I did not use %(numbers)s: nothing said whether it is a time or a ratio.") % numbers
        )
    return _("I did not use %(numbers)s: nothing said whether they are times or ratios.") % numbers


def reading_line(query: Query, lang: Lang) -> str | None:
    _ = translations(lang).gettext
    parts = []
    if "fp32" in query.read_by:
        rule, text = query.read_by["fp32"]
        parts.append(
            _("%(text)s as the FP32 time (rule %(rule)s)")
            % {"text": _words(lang, text or "?"), "rule": _words(lang, rule)}
        )
    if "ratio" in query.read_by:
        rule, text = query.read_by["ratio"]
        parts.append(
            _("%(text)s as the ratio (rule %(rule)s)")
            % {"text": _words(lang, text or "?"), "rule": _words(lang, rule)}
        )
    if not parts:
        return None
    return _("Read: %(parts)s.") % {"parts": _("; ").join(parts)}


def with_reading(reply: Reply, query: Query) -> Reply:
    """``reply`` with the unused-numbers note and the what-was-read Details line."""
    note = unused_note(query, reply.lang)
    line = reading_line(query, reply.lang) if reply.details else None
    if note is None and line is None:
        return reply
    lines = reply.text.split("\n")
    at = min(len(lines), 1 + len(reply.notes))
    if note is not None:
        lines.insert(at, note)
    if line is not None:
        lines.append(line)
    return reply.model_copy(
        update={
            "notes": reply.notes + ([escape(note)] if note else []),
            "details": reply.details + ([escape(line)] if line else []),
            "text": "\n".join(lines),
        }
    )
