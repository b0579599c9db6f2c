"""Understanding: raw message text (as Slack delivers it) -> a typed Query.

The folder shows the stages a message goes through, as a reader of Duckling
finds a dimension's rules beside its examples:

1. ``text/``: normalise, tokens, the language written in;
2. ``values/``: number words, the unit and word tables, rate units;
3. ``rules/<dimension>/``: the rules of each dimension (time, ratio, rate, names,
   setup, record, talk), each emitting typed candidates;
4. ``resolving/``: the candidates and the one resolver that chooses;
5. ``parse.py``: the passes in order and the query (``context.py`` reads the
   setup, ``questions.py`` what a message without numbers asks, ``limits.py`` the
   refusals, ``explain.py`` what was read as what).

The words are data, in ``words/*.toml``. What the rest of the bot uses is
re-exported here.
"""

from bot.understanding.parse import understand
from bot.understanding.rules.record.record_command import (
    DeleteCommand,
    HistoryCommand,
    RecordCommand,
    read_command,
    read_fields,
    read_record,
)
from bot.understanding.text.language import language_of

__all__ = [
    "DeleteCommand",
    "HistoryCommand",
    "RecordCommand",
    "language_of",
    "read_command",
    "read_fields",
    "read_record",
    "understand",
]
