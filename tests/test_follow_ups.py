"""Follow-ups in a thread (or the console), and commands typed as messages."""

from __future__ import annotations

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel

BERT_ON_A100 = {"gpu": "A100", "model": "BERT"}


def _follow_up(text: str) -> dict:
    return to_json(answer(text, Channel.MENTION, thread_fp32_hours=36.0, thread_setup=BERT_ON_A100))


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("and with bf16?", "precision", "bf16"),
        ("what about 8 GPUs?", "num_gpus", 8),
        ("وبالـ bf16؟", "precision", "bf16"),
        ("ولو ٨ كروت؟", "num_gpus", 8),
    ],
)
def test_a_setup_detail_alone_re_estimates_the_thread(text, field, value):
    got = _follow_up(text)
    assert (got["kind"], got["model"], got["gpu"], got["fp32_hours"]) == (
        "preset",
        "BERT",
        "A100",
        36.0,
    )
    assert got[field] == value


def test_a_price_alone_prices_the_thread():
    got = _follow_up("and at $3 per GPU-hour?")
    assert got["kind"] == "preset" and got["cost"]["fp32_cost"] == pytest.approx(108.0)


def test_a_memory_question_in_a_thread_stays_a_memory_question():
    got = _follow_up("memory 7B adam on A100 80GB")
    assert got["kind"] == "memory" and got["fp32_hours"] is None


def test_the_users_own_ratio_is_not_replaced_by_a_suggestion():
    got = to_json(answer("BERT on A100 ratio 2", Channel.DM))
    assert (got["kind"], got["reason"], got["ratio"]) == ("error", "no_numbers", None)


def test_a_model_the_data_lacks_is_named_by_its_task():
    got = to_json(answer("YOLOv8 on A100, 36 hours in fp32", Channel.DM))
    assert got["text"].startswith("Object detection models on A100: 36 hours in FP32")
    arabic = to_json(answer("كم التسريع لنموذج تصنيف الصور على V100؟", Channel.DM))
    assert arabic["text"].startswith("نماذج تصنيف الصور على")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("12.5 hours ratio 2", "12 hours and 30 minutes in FP32"),
        ("10h45m ratio 2", "10 hours and 45 minutes in FP32"),
        ("36.5 hours ratio 2", "36 hours and 30 minutes in FP32"),
        ("25.5h ratio 2", "25 hours and 30 minutes in FP32"),
        ("100 2", "100 hours in FP32"),
    ],
)
def test_the_fp32_time_is_repeated_as_given(text, shown):
    assert to_json(answer(text, Channel.DM))["text"].startswith(shown)


@pytest.mark.parametrize(
    ("text", "kind", "hours", "ratio"),
    [
        # Slash commands do not run in threads, so people type them as messages.
        ("/mpestimate 100 2", "estimate", 100.0, 2.0),
        ("/MPESTIMATE 100 2", "estimate", 100.0, 2.0),
        ("  /mpestimate ٤٨ ساعة ٢", "estimate", 48.0, 2.0),
        ("/mpestimate A100 ٣٦ ٢", "estimate", 36.0, 2.0),
        ("/mpestimatefoo 100 2", "help", None, None),
    ],
)
def test_a_typed_slash_command_reads_as_the_command(text, kind, hours, ratio):
    for channel in (Channel.DM, Channel.MENTION):
        got = to_json(answer(text, channel))
        assert (got["kind"], got["fp32_hours"], got["ratio"]) == (kind, hours, ratio)


def _thread(*messages: str) -> list[dict]:
    """Each message answered in one thread, carrying what the thread remembers."""
    from bot.conversation import carried_over

    hours, memory, answers = None, {}, []
    for text in messages:
        turn = answer(text, Channel.MENTION, thread_fp32_hours=hours, thread_setup=memory)
        answers.append(to_json(turn))
        if (carried := carried_over(turn, hours)) is not None:
            hours, memory = carried
    return answers


@pytest.mark.parametrize(
    "follow_up",
    ["and at $2/GPU-hour on 4 GPUs?", "3 GPUs", "oh wait, it's 2.5 days", "what if batch 256?"],
)
def test_the_ratio_the_user_gave_carries_to_follow_ups_about_time_price_and_count(follow_up):
    got = _thread("36h fp32, ratio 2", follow_up)[-1]
    assert got["ratio"] == 2 and got["kind"] == "estimate"


def test_the_ratio_the_user_gave_carries_in_arabic():
    got = _thread("التدريب ياخذ ٣٠ ساعة بالـ FP32 والنسبة ٢", "وش لو صار ٥٠ ساعة؟")[-1]
    assert (got["fp32_hours"], got["ratio"]) == (50.0, 2.0)


def test_naming_a_new_gpu_asks_for_a_new_ratio():
    got = _thread("36h fp32, ratio 2", "and on H100?")[-1]
    assert got["gpu"] == "H100" and got["ratio"] != 2 and got["kind"] == "preset"


def test_the_price_carries_to_later_follow_ups():
    got = _thread("40h fp32 on V100", "and at $3 per GPU-hour on 8 GPUs?", "and with 4 GPUs?")[-1]
    assert got["num_gpus"] == 4 and got["cost"]["fp32_cost"] == pytest.approx(480.0)


@pytest.mark.parametrize("small_talk", ["thanks!", "شكرا", "lol"])
def test_small_talk_leaves_the_thread_as_it_was(small_talk):
    got = _thread("BERT on A100, 36 hours in fp32", small_talk, "and on V100?")[-1]
    assert (got["model"], got["gpu"]) == ("BERT", "V100")
    assert got["basis"] in ("measured", "measured_realistic")  # published rows of it


@pytest.mark.parametrize(
    "text", ["and at 2.5?", "what about 2.5?", "و٢٫٥؟", "2.5?", "thanks, and at 2.5?"]
)
def test_a_lone_number_in_a_thread_with_a_time_is_the_ratio_to_try(text):
    got = _thread("100h fp32 on A100, ratio 2", text)[-1]
    assert (got["kind"], got["fp32_hours"], got["ratio"]) == ("estimate", 100.0, 2.5)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [("and at 8 GPUs?", "num_gpus", 8), ("what about 30 hours?", "fp32_hours", 30.0)],
)
def test_a_number_with_its_noun_in_a_thread_keeps_its_meaning(text, field, value):
    got = _thread("100h fp32 on A100", text)[-1]
    assert got[field] == value and got["ratio"] != 8


def test_outside_a_thread_a_lone_number_is_still_the_time():
    assert to_json(answer("2.5", Channel.DM))["fp32_hours"] == 2.5


@pytest.mark.parametrize("text", ["20", "16", "ResNet-50 v1.5", "Tacotron 2"])
def test_a_number_that_is_no_realistic_ratio_or_belongs_to_a_name_is_not_taken_for_one(text):
    got = to_json(answer(text, Channel.MENTION, thread_fp32_hours=30.0, thread_setup={}))
    assert got["ratio"] is None or got["basis"] != "given"


# -- what a follow-up inherits, and what starts afresh (issue 21) ------------

SAR_ON_4_GPUS = "BERT على A100 التدريب ياخذ ٣٠ ساعة على ٤ بطاقات بسعر ١٢ ريال للساعة"


def _turns(*messages: str):
    """Each message answered in one thread; the turns, as the console keeps them."""
    from bot.conversation import carried_over

    hours, memory, turns = None, {}, []
    for text in messages:
        turn = answer(text, Channel.MENTION, thread_fp32_hours=hours, thread_setup=memory)
        turns.append(turn)
        if (carried := carried_over(turn, hours)) is not None:
            hours, memory = carried
    return turns


def test_a_question_that_states_its_own_setup_and_time_starts_afresh():
    turns = _turns(
        SAR_ON_4_GPUS,
        "GPT-2 on RTX 3090, training takes 2 days. what would bf16 give?",
        "ResNet-50 on V100 takes 20 hours",
    )
    assert to_json(turns[0])["cost"]["currency"] == "SAR"
    for turn in turns[1:]:
        got = to_json(turn)
        assert got["cost"] is None and got["num_gpus"] is None, turn.reply.text
        assert turn.query.carried == [] and "Carried over" not in turn.reply.text
    assert (to_json(turns[1])["model"], to_json(turns[2])["model"]) == ("GPT-2", "ResNet-50")


@pytest.mark.parametrize(
    "new_question",
    [
        "كم يوفر لي التدريب المختلط لو التدريب ٣ أيام على A100 بتكلفة ٣٠ ريال بالساعة على ٤ كروت؟",
        "training takes 50 hours on 8 H100 at $3/h, how much would AMP save?",
        "we train for 2 days on 4 A100s in bf16, how long with mixed precision?",
        "التدريب ياخذ ٤٠ ساعة على بطاقتين H100 بدقة bf16",
    ],
)
def test_a_new_time_with_two_more_facts_after_a_timed_question_carries_nothing(new_question):
    """The thread had its time: a new time with its own GPU, count, price or
    precision is a new question, so the old model (and its BF16) stay behind."""
    first, turn = _turns("ResNet-50 on RTX 3090 takes 20 hours, with bf16?", new_question)
    assert to_json(first)["model"] == "ResNet-50"
    got = to_json(turn)
    assert got["model"] is None and turn.query.carried == [], turn.reply.text


@pytest.mark.parametrize(
    ("follow_up", "gpu"),
    [("it takes 36 hours on 4 A100", "A100"), ("التدريب ٣٦ ساعة على ٤ بطاقات H100", "H100")],
)
def test_a_time_with_more_facts_still_completes_a_question_that_had_none(follow_up, gpu):
    """Before the thread had a time, the time and setup that follow are its answer."""
    _, turn = _turns("how much faster is BERT with AMP?", follow_up)
    got = to_json(turn)
    assert (got["model"], got["gpu"], got["num_gpus"]) == ("BERT", gpu, 4), turn.reply.text
    assert "model" in turn.query.carried


def test_an_elliptical_follow_up_inherits_the_latest_question_not_an_older_one():
    *_, t4 = _turns(SAR_ON_4_GPUS, "ResNet-50 on V100 takes 20 hours", "كم يستغرق على T4")
    got = to_json(t4)
    assert (got["model"], got["gpu"], got["fp32_hours"]) == ("ResNet-50", "T4", 20.0)
    assert got["cost"] is None  # the SAR price belonged to the BERT question


@pytest.mark.parametrize(
    ("follow_up", "said"),
    [
        ("and with bf16?", "Carried over from earlier: BERT, A100, 4 GPUs, 30 hours in FP32, "),
        ("وبالـ bf16؟", "أخذتُ من الرسائل السابقة: BERT وA100 و4 بطاقات و30 ساعةً بدقة FP32 و"),
    ],
)
def test_a_follow_up_says_what_it_carried_over(follow_up, said):
    import re

    _, turn = _turns(SAR_ON_4_GPUS, follow_up)
    got = to_json(turn)
    assert (got["num_gpus"], got["cost"]["currency"], got["precision"]) == (4, "SAR", "bf16")
    shown = re.sub("[\u2066-\u2069\u200e\u200f\u061c]", "", turn.reply.text).splitlines()
    assert shown[1].startswith(said), shown[1]  # right under the answer, not behind Details
    assert "12" in shown[1] and set(turn.query.carried) >= {"num_gpus", "price", "fp32"}


@pytest.mark.parametrize("opener", ["and on H100, 20 hours?", "what about H100, 20 hours?"])
def test_a_follow_up_opener_keeps_the_thread_even_with_a_setup_and_time(opener):
    _, turn = _turns("BERT on A100 on 8 GPUs, 36 hours", opener)
    got = to_json(turn)
    assert (got["model"], got["gpu"], got["num_gpus"], got["fp32_hours"]) == (
        "BERT",
        "H100",
        8,
        20.0,
    )


MEMORY_QUESTION = "how much memory for llama 7B with adam on A100 80GB?"


@pytest.mark.parametrize(
    ("follow_up", "gpu", "gpus"),
    [
        ("and on H100?", "H100", None),
        ("and on 8 of them?", "A100", 8),
        ("وعلى H100؟", "H100", None),
        ("وعلى ٤ منها؟", "A100", 4),
    ],
)
def test_a_follow_up_keeps_the_kind_of_the_question_it_follows(follow_up, gpu, gpus):
    _, turn = _turns(MEMORY_QUESTION, follow_up)
    got = to_json(turn)
    assert got["kind"] == "memory" and got["fp32_hours"] is None, turn.reply.text
    assert (got["gpu"], got["num_gpus"]) == (gpu, gpus)
    assert turn.query.params == 7e9 and turn.query.optimizer == "adam"


def test_memory_follow_ups_chain():
    *_, last = _turns(MEMORY_QUESTION, "and on H100?", "and on 2 of them?")
    got = to_json(last)
    assert (got["kind"], got["gpu"], got["num_gpus"]) == ("memory", "H100", 2)


def test_a_time_after_a_memory_question_is_an_estimate_on_the_same_setup():
    _, turn = _turns(MEMORY_QUESTION, "it takes 30 hours in fp32")
    got = to_json(turn)
    assert (got["kind"], got["gpu"], got["fp32_hours"]) == ("preset", "A100", 30.0)


def test_a_new_memory_question_does_not_inherit_the_old_setup():
    _, turn = _turns(MEMORY_QUESTION, "memory for 13B with sgd")
    got = to_json(turn)
    assert got["kind"] == "memory" and got["gpu"] is None and turn.query.params == 13e9


@pytest.mark.parametrize(
    ("text", "fresh"),
    [
        ("resnet50, 20 hours", True),  # a job with a time
        ("what speedup for ResNet-50 on V100?", True),  # a job with a GPU
        ("30 hours, ratio 2", True),  # a whole estimate
        ("it takes 36 hours on A100", False),  # the time the bot asked for
        ("on H100 with ratio 2", False),
        ("and resnet50 on V100, 20 hours?", False),  # opens as a follow-up
        ("وعلى V100 مع ResNet-50؟", False),
        ("ResNet-50 على V100 ياخذ ٢٠ ساعة", True),
    ],
)
def test_what_asks_its_own_question(text, fresh):
    turn = answer(text, Channel.MENTION, thread_fp32_hours=36.0, thread_setup=SAR_SETUP)
    assert (turn.query.carried == []) is fresh, turn.query.carried
    assert (to_json(turn)["cost"] is None) is fresh


SAR_SETUP = {
    "gpu": "A100",
    "model": "BERT",
    "num_gpus": 4,
    "time_unit": "hours",
    "price": {"amount": 12.0, "currency": "SAR", "period_hours": 1.0},
}


# -- memory follow-ups: the method, size, GPU, count or precision alone (issues 19, 21) --

FULL_7B = "can I full fine-tune llama 7b on one A100 80GB?"
FULL_13B_AR = "هل يتسع llama 13b على ٤ بطاقات A100 بسعة ٤٠ جيجا؟"
SERVED_70B = "serve llama 70b in int8 on 2 A100 80GB"


@pytest.mark.parametrize(
    ("question", "follow_up", "method", "optimizer"),
    [
        (FULL_7B, "and with LoRA?", "lora", "adam"),
        (FULL_7B, "what about QLoRA?", "qlora", "adam"),
        (FULL_7B, "and for inference?", "inference", "adam"),
        (FULL_7B, "and with an 8-bit optimizer?", "full", "adam8bit"),
        (FULL_7B, "ok and in 4-bit?", "qlora", "adam"),
        (FULL_13B_AR, "وبـ QLoRA؟", "qlora", "adam"),
        (FULL_13B_AR, "وللاستدلال؟", "inference", "adam"),
        (FULL_13B_AR, "طيب لو LoRA؟", "lora", "adam"),
        (FULL_13B_AR, "وبمحسن ٨ بت؟", "full", "adam8bit"),
        (SERVED_70B, "and with LoRA?", "lora", "adam"),
    ],
)
def test_a_method_alone_changes_the_method_and_keeps_the_model_and_gpus(
    question, follow_up, method, optimizer
):
    first, turn = _turns(question, follow_up)
    got, before = to_json(turn), to_json(first)
    assert got["kind"] == "memory", turn.reply.text
    memory = got["memory"]
    assert (memory["method"], memory["optimizer"]) == (method, optimizer), turn.reply.text
    assert (memory["params"], memory["gpu"], memory["num_gpus"], memory["gpu_memory_gb"]) == (
        before["memory"]["params"],
        before["memory"]["gpu"],
        before["memory"]["num_gpus"],
        before["memory"]["gpu_memory_gb"],
    )
    carried = "Carried over from earlier" if got["lang"] == "en" else "أخذتُ من الرسائل السابقة"
    assert carried in turn.reply.text and {"gpu", "params"} <= set(got["carried"])


@pytest.mark.parametrize(
    ("question", "follow_up", "said"),
    [
        ("QLoRA 13B on a 24GB 4090?", "and on H100?", "QLoRA"),
        (SERVED_70B, "and on H100?", "INT8 weights"),
        ("LoRA for llama 7b on 4 A100 80GB with zero-2", "and on 8 of them?", "ZeRO-2"),
        ("الذاكرة لنموذج 13B مع QLoRA على RTX 4090", "وعلى H100؟", "QLoRA"),
        ("تشغيل llama 70b للاستدلال بدقة int8 على بطاقتين A100", "وعلى ٤ بطاقات؟", "الاستدلال"),
    ],
)
def test_a_gpu_or_count_follow_up_keeps_the_method_and_says_so(question, follow_up, said):
    first, turn = _turns(question, follow_up)
    got, before = to_json(turn), to_json(first)
    assert got["memory"]["method"] == before["memory"]["method"], turn.reply.text
    note = turn.reply.text.split("\n")[1]
    assert said in note.replace("\u2068", "").replace("\u2069", ""), turn.reply.text


@pytest.mark.parametrize(
    ("question", "follow_up", "params", "gpu", "gpus"),
    [
        (FULL_7B, "and for 13B?", 13e9, "A100", 1),
        (FULL_7B, "what about a 70B model?", 70e9, "A100", 1),
        (FULL_7B, "and on H100?", 7e9, "H100", 1),
        (FULL_7B, "and on 8 of them?", 7e9, "A100", 8),
        (FULL_13B_AR, "وللنموذج 70B؟", 70e9, "A100", 4),
        (FULL_13B_AR, "طب و13 مليار؟", 13e9, "A100", 4),
        (FULL_13B_AR, "وعلى H100؟", 13e9, "H100", 4),
        (FULL_13B_AR, "وعلى ٨ بطاقات؟", 13e9, "A100", 8),
    ],
)
def test_a_size_gpu_or_count_alone_keeps_the_rest(question, follow_up, params, gpu, gpus):
    _, turn = _turns(question, follow_up)
    memory = to_json(turn)["memory"]
    assert (memory["params"], memory["gpu"], memory["num_gpus"]) == (params, gpu, gpus)
    assert memory["method"] == "full"


@pytest.mark.parametrize(
    ("question", "follow_up", "recipe", "weights"),
    [
        ("memory 7B in fp32 on A100 80GB", "and in bf16?", "amp", None),
        (FULL_7B, "and in fp32?", "fp32", None),
        (FULL_7B, "and in pure bf16?", "bf16", None),
        (SERVED_70B, "and in 4-bit?", None, "int4"),
        (SERVED_70B, "وبدقة fp16؟", None, "fp16"),
    ],
)
def test_a_precision_alone_changes_how_the_states_or_weights_are_held(
    question, follow_up, recipe, weights
):
    first, turn = _turns(question, follow_up)
    got = to_json(turn)
    memory = got["memory"]
    assert memory["method"] == to_json(first)["memory"]["method"], turn.reply.text
    if recipe is not None:
        assert memory["recipe"] == recipe, turn.reply.text
    if weights is not None:
        assert memory["asked"]["setup"]["weight_precision"] == weights, turn.reply.text


@pytest.mark.parametrize("question", [FULL_7B, FULL_13B_AR, "QLoRA 13B on a 24GB 4090?"])
@pytest.mark.parametrize(
    "new",
    [
        "100 hours ratio 2",
        "BERT on T4 speedup?",
        "what speedup for ResNet-50 on V100?",
        "٤٨ ساعة ٢",
        "كم التسريع لـ BERT على A100؟",
        "is bf16 better than fp16?",
    ],
)
def test_a_new_question_after_a_memory_question_inherits_nothing(question, new):
    _, turn = _turns(question, new)
    got = to_json(turn)
    assert got["kind"] != "memory" and got["carried"] == [], turn.reply.text
    assert got["num_gpus"] is None and turn.query.params is None, turn.reply.text
