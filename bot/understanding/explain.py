"""``mpbot ask --explain TEXT``: what the reader saw, and what it chose.

Lists every number with the role a rule gave it ("unused" when none did),
the candidates the candidate passes offered (chosen or not by the resolver),
the rate candidates of rule ``step_rate``, and the values the query kept with
the rule that read each (``Query.read_by``). Pure text, for the console.
"""

from __future__ import annotations

from bot.models import Channel, Lang
from bot.understanding.parse import understand
from bot.understanding.resolving.candidates import Candidate
from bot.understanding.rules.rate.rates import step_rate
from bot.understanding.text.tokens import NUM, Token

_SHOWN = ("gpu", "model", "num_gpus", "params", "precision", "small_talk")


def explain(text: str, channel: Channel = Channel.DM, lang: Lang | None = None) -> str:
    """Candidates and the choice, one per line."""
    tokens: list[Token] = []
    offered: list[tuple[Candidate, bool]] = []
    query = understand(text, channel, preferred_lang=lang, seen=tokens, offered=offered)
    lines = ["candidates:"]
    lines += [f"  {c.describe()}: {'chosen' if ok else 'overlapped'}" for c, ok in offered]
    lines += [f"  {t.written} -> {_role(t)}" for t in tokens if t.kind == NUM]
    lines += [f"  {c.describe()}" for c in step_rate(tokens)]
    lines.append(f"chosen: intent={query.intent.value} reason={query.reason or '-'}")
    if query.fp32 is not None:
        lines.append(f"  fp32 = {query.fp32.hours:g} h {_rule(query.read_by.get('fp32'))}")
    if query.fp32_high is not None:  # rule time_range: the range's high end
        lines.append(f"  fp32_high = {query.fp32_high.hours:g} h")
    if query.ratio is not None:
        lines.append(f"  ratio = {query.ratio:g} {_rule(query.read_by.get('ratio'))}")
    lines += [f"  {f} = {getattr(query, f)}" for f in _SHOWN if getattr(query, f) is not None]
    if query.candidates:
        lines.append(f"  ambiguous between: {', '.join(query.candidates)}")
    return "\n".join(lines)


def _role(tok: Token) -> str:
    """ "gpus (rule gpu_times_count)", "unused": a number's role and the rule that gave it."""
    rule = tok.extra.get("rule")
    return f"{tok.role} (rule {rule})" if tok.role and rule else tok.role or "unused"


def _rule(read: list[str] | None) -> str:
    return f"(rule {read[0]}, from {read[1]!r})" if read else ""
