"""What kind of question a message is, beyond its numbers (rules with names).

* ``memory_by_setup``: billions of parameters (or millions of a model: after its
  name, "GPT-2 124M", or before the word, "a 350m model") with a GPU or a training
  verb ask about memory ("13B on 4 A100 40GB?", "أقدر أدرب 7B على 4090؟"), unless
  the message asks how much faster.
* ``fit_question``: asking whether a job fits a named GPU ("can I train GPT-2 on
  a T4?") is a memory question without a parameter count too (the reply asks it).
* ``off_topic_question``: a question about training quality gets one line
  saying what the bot does ("best lr for bf16?", "هل bf16 يغير الدقة النهائية؟").
* ``name_unused_numbers``: an answered estimate names the numbers no rule took.
* ``precision_question`` (``precision_question.py``): "is bf16 better than fp16?" and
  "do I need loss scaling with bf16?" are answered from the facts, never as help.
* ``asks_estimate``: a message without numbers that asks for an estimate ("how
  long on A100?", "كم سيستغرق؟") is answered ``no_numbers``; other messages get help.
"""

from __future__ import annotations

from bot.models import Intent, Query, Reason
from bot.understanding.precision_question import precision_topic
from bot.understanding.rules.names.name_rules import GIGABYTE_WORDS
from bot.understanding.rules.setup.setup_numbers import classify
from bot.understanding.rules.talk.first_questions import first_question
from bot.understanding.rules.time.durations import unit_of
from bot.understanding.text.tokens import ARABIC, NUM, WORD, Token, word_in
from bot.understanding.values.lexicon import (
    DURATION_VERBS,
    ESTIMATE_CUES,
    FIT_WORDS,
    HOW_WORDS,
    MEMORY_WORDS,
    RATIO_LABELS,
    SPEED_CUES,
)
from bot.understanding.words import phrases, table

UNUSED_SHOWN = 3  # the reply names at most this many unused numbers
_HOW_WINDOW = 2  # "how much time", "كم راح ياخذ": a word may sit between
_NAME_SIZE_JOINERS = ("(", "[", "-", ",")  # "gpt2 (124M)", "bert-large, 340M"


def sized_on_gpu(tokens: list[Token], gpu_named: bool) -> bool:
    """Rule ``memory_by_setup``: "13B on 4 A100 40GB?", "can I train a 3B on a 24GB
    3090?", "أقدر أدرب 7B على 4090؟": billions of parameters with a GPU or a
    training verb ask whether it fits, as "fit" does, unless the message asks about
    speed ("how much faster is bf16 for a 7b finetune on a 4090?", "كم تسريع ..."):
    then the size is the model's, and the reply is the ratio; nor when it asks which
    16-bit format to train in (rule ``precision_question``: "fp16 or bf16 for a 1b
    pretrain on h100s?", «fp16 ولا bf16 لتدريب موديل 7B على A100؟»), unless a memory
    size is said ("... on a 24gb card?" is still whether it fits)."""
    billions = any(
        t.kind == NUM
        and (t.suffix == "b" or (k + 1 < len(tokens) and word_in(tokens[k + 1], table("BILLIONS"))))
        for k, t in enumerate(tokens)
    ) or any(_millions_of_a_model(tokens, k) for k in range(len(tokens)))
    trains = any(t.kind == WORD and word_in(t, table("TRAIN_VERBS")) for t in tokens)
    asks_speed = any(word_in(t, SPEED_CUES) for t in tokens)
    return billions and (gpu_named or trains) and not asks_speed and not _asks_format(tokens)


def _asks_format(tokens: list[Token]) -> bool:
    """Which 16-bit format to train in, asked with no memory size said."""
    sized = any(t.kind == NUM and t.suffix in GIGABYTE_WORDS for t in tokens) or any(
        word_in(t, GIGABYTE_WORDS) for t in tokens
    )
    return precision_topic(tokens) is not None and not sized


def _millions_of_a_model(tokens: list[Token], k: int) -> bool:
    """ "GPT-2 124M", "BERT 340M", "gpt2 small (124M)", "a 350m model": millions said
    right after a model's name (a size word or a bracket may sit between) or right
    before the word "model" are its size, never minutes."""
    if tokens[k].kind != NUM or tokens[k].suffix != "m":
        return False
    if k + 1 < len(tokens) and word_in(tokens[k + 1], table("MODEL_NOUNS")):
        return True
    j = k - 1
    while j >= max(0, k - 3) and _between_name_and_size(tokens[j]):
        j -= 1
    return j >= 0 and tokens[j].role == "model"


def _between_name_and_size(tok: Token) -> bool:
    """A bracket or a size word of the name ("small", "base") between a model and its count."""
    return not tok.role and (
        tok.text in _NAME_SIZE_JOINERS or tok.text in table("MODEL_SUFFIX_WORDS")
    )


def asks_if_it_fits(tokens: list[Token], gpu_named: bool) -> bool:
    """Rule ``fit_question``: "will ResNet-50 fit on a GTX 1060?", "can I train GPT-2
    on a T4?", "أقدر أدرب BERT على T4؟": whether a job fits a GPU is a memory
    question even when no parameter count is given (the reply asks for it). Only
    with a GPU named, no speed word and no number outside the names: "is 2x enough
    on a T4?" is about the ratio, and a time makes it an estimate."""
    if not gpu_named or any(word_in(t, SPEED_CUES) for t in tokens):
        return False
    if any(_loose_number(tokens, k) for k in range(len(tokens))):
        return False
    return any(word_in(t, FIT_WORDS) for t in tokens) or _may_i_train(tokens)


def _loose_number(tokens: list[Token], k: int) -> bool:
    """A number that is not part of a name, a GPU count ("2 A100s"), a memory size
    ("24GB", «٢٤ جيجا») or the shape of the data: a labelled setting ("batch 32",
    "seq 128", «طول التسلسل ١٢٨») or a count of batches or sequences ("32 seqs")."""
    tok = tokens[k]
    if tok.kind != NUM or tok.role or tok.suffix == "gb":
        return False
    nxt = tokens[k + 1] if k + 1 < len(tokens) else None
    if nxt is not None and (nxt.role == "gpu" or nxt.text in GIGABYTE_WORDS):
        return False
    return not _shape_number(tokens, k)


def _shape_number(tokens: list[Token], k: int) -> bool:
    """ "batch 32 seq 128", "batch ٢ و seq ٥١٢", "bs 8": the batch or sequence length,
    which changes the activations, never what the question asks."""
    role, rule, _ = classify(tokens, k)
    nxt = tokens[k + 1] if k + 1 < len(tokens) else None
    shape_noun = nxt is not None and (
        word_in(nxt, table("BATCH_WORDS")) or word_in(nxt, table("SEQUENCE_WORDS"))
    )
    return role == "setting" or (rule == "count_noun_after" and shape_noun)


def _may_i_train(tokens: list[Token]) -> bool:
    """ "can I train", "could we fine-tune", "أقدر أدرب": a training verb at most one
    word after a phrase asking whether one may."""
    texts = [t.text for t in tokens]
    for phrase in phrases("CAN_I_PHRASES"):
        for k in range(len(texts) - len(phrase) + 1):
            if tuple(texts[k : k + len(phrase)]) != phrase:
                continue
            after = tokens[k + len(phrase) : k + len(phrase) + 2]
            if any(t.kind == WORD and word_in(t, table("TRAIN_VERBS")) for t in after):
                return True
    return False


def _about_quality(words: list[Token]) -> bool:
    texts = [t.text for t in words]
    return any(word_in(t, table("OFF_TOPIC_WORDS")) for t in words) or any(
        texts[k : k + len(p)] == list(p)
        for p in phrases("OFF_TOPIC_PHRASES")
        for k in range(len(texts))
    )


def _topical(tok: Token) -> bool:
    """A word of what the bot answers: time, speed, memory, cost, the bot itself."""
    return any(
        word_in(tok, t)
        for t in (table("TOPIC_WORDS"), SPEED_CUES, MEMORY_WORDS, FIT_WORDS, ESTIMATE_CUES)
    ) or _is_unit_word(tok)


def off_topic(tokens: list[Token], words: list[Token]) -> bool:
    """Rule ``off_topic_question``: a question about training quality (OFF_TOPIC_*)
    with no number and no word of what the bot answers ("will bf16 change my
    final accuracy?", "best lr for bf16?", "هل bf16 يغير الدقة النهائية؟") gets one
    line saying what the bot does; "what can you do?" still gets the usage."""
    if not words or any(t.kind == NUM for t in tokens) or not _about_quality(words):
        return False
    asked = any(t.text == "?" for t in tokens) or word_in(words[0], table("QUESTION_LEADS"))
    return asked and not any(_topical(t) for t in words)


def with_unused(query: Query, tokens: list[Token]) -> Query:
    """Rule ``name_unused_numbers``: an answered estimate names the numbers no rule
    took ("36h, at 2.5?": 2.5), so none is dropped silently. Ambiguous readings
    list their candidates instead."""
    if query.intent != Intent.ESTIMATE or query.reason in (Reason.AMBIGUOUS, Reason.TOO_LONG):
        return query
    unused = [t.written for t in tokens if t.kind == NUM and not t.role]
    if not unused:
        return query
    return query.model_copy(update={"unused": unused[:UNUSED_SHOWN]})


def without_numbers(tokens: list[Token], common: dict, follow_up: bool) -> Query:
    """Rule ``asks_estimate``: help for greetings and general questions; no_numbers
    when an estimate was asked.

    Either way a named setup (GPU, model, task) rides along, so the answer
    can still say which ratio to expect.
    """
    if topic := precision_topic(tokens):  # "is bf16 better than fp16?", "loss scaling?"
        return Query(intent=Intent.PRECISION, precision_topic=topic, **common)
    words = [t for t in tokens if t.kind == WORD]
    asks_estimate = any(
        word_in(t, ESTIMATE_CUES) and not _said_of_ratio(words, k) for k, t in enumerate(words)
    ) or _asks_how_long(words)
    if asks_estimate or _pasted_log(tokens):
        return Query(intent=Intent.ESTIMATE, reason=Reason.NO_NUMBERS, **common)
    named = common["gpu"] or common["model"] or common["family"] or common.get("framework")
    if named or follow_up:  # in a thread "and with bf16?" asks about the job: never off-topic
        return Query(intent=Intent.HELP, **common)
    if off_topic(tokens, words):
        return Query(intent=Intent.HELP, small_talk="off_topic", **common)
    asked = first_question(words)
    if asked == "saving_question":  # "how much will it save?": the estimate lacks its time
        return Query(intent=Intent.ESTIMATE, reason=Reason.NO_NUMBERS, **common)
    # "how much faster is amp?", "how much will it cost?": a short answer, not the usage
    return Query(intent=Intent.HELP, small_talk=asked, **common)


def _pasted_log(tokens: list[Token]) -> bool:
    """Rule ``pasted_log``: a progress line pasted alone ("Epoch 3/10: 100%|...|
    500/500 [12:34<00:00, 1.51s/it]") shows a run, so the reply asks for the FP32
    time it lacks rather than listing the usage (a step time alone stays help)."""
    return any(t.role == "progress" for t in tokens)


def _asks_how_long(words: list[Token]) -> bool:
    """A question about a duration: "how long", "how much time", "how many hours",
    "كم سيستغرق", "كم راح ياخذ", "كم ساعة", "كم المدة", "هياخد قد إيه".

    A duration verb or a time unit up to two words after the how-word (so
    "how many GPUs does it take" is not one), or an Arabic duration verb
    just before it.
    """
    for i, word in enumerate(words):
        if not word_in(word, HOW_WORDS):
            continue
        after = words[i + 1 : i + 1 + _HOW_WINDOW]
        if any(word_in(t, DURATION_VERBS) or _is_unit_word(t) for t in after):
            return True
        if i and words[i - 1].script == ARABIC and word_in(words[i - 1], DURATION_VERBS):
            return True
    return False


RATIO_AFTER_ESTIMATE = 4  # "estimate of the bf16 speedup": of, the, bf16, speedup


def _said_of_ratio(words: list[Token], k: int) -> bool:
    """ "التسريع المتوقع", "estimated speedup", "speedup estimate", "an estimate of the
    bf16 speedup", «تقدير لمقدار تسريع bf16»: the estimate asked for is the ratio (a
    help answer gives it), not a time that needs an FP32 time. What the estimate is
    of may come up to RATIO_AFTER_ESTIMATE words after it."""
    near = words[max(0, k - 1) : k] + words[k + 1 : k + 1 + RATIO_AFTER_ESTIMATE]
    return any(word_in(t, SPEED_CUES) or word_in(t, RATIO_LABELS) for t in near)


def _is_unit_word(tok: Token) -> bool:
    """ "hours", "ساعة", "days": a time unit written out (not a one-letter "h")."""
    return len(tok.text) > 1 and unit_of(tok, allow_article=True) is not None
