"""Memory questions as people fine-tune today (issue 19, item 8): "full fine-tune" and
«تدريب كامل» name a method as LoRA does; a size said in words ("7 billion", «١٣ مليار»)
is a size; a card known by its size only ("a 16GB card", «كرت ٨ جيجا») stands for the
GPU; models sized from the catalog without a count in their name (Phi-2, DistilBERT,
GPT-J, Whisper); millions said of a model ("a 350m model", "gpt2 small (124M)") are
its size, not minutes; "8x7b" is a mixture of experts (rule experts_times_size)."""

from __future__ import annotations

import pytest

from bot.models import Channel, Intent
from bot.understanding.parse import understand


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("full finetune bert-large on a T4?", 340e6),
        ("gpt2-medium full-finetune on a 3090?", 355e6),
        ("fully fine-tune t5-base on an A10", 220e6),
        ("full parameter fine-tuning of roberta-large on an A100", 355e6),
        ("full ft distilbert on a 1060", 66e6),
        ("فاين تيون كامل لـ t5-large على A100", 770e6),
        ("تدريب كامل لموديل gpt2-medium على 3090", 355e6),
        ("بدي اعمل تدريب للنموذج بالكامل لـ bert-base على T4", 110e6),
        ("التدريب الكامل لـ bert-large على A10؟", 340e6),
    ],
)
def test_full_training_is_a_method_word(text, params):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY
    assert query.memory_method == "full"
    assert query.params == pytest.approx(params)


@pytest.mark.parametrize(
    "text",
    [
        "full precision training of bert-base on a t4?",  # FP32, no method
        "تدريب bert بالدقة الكاملة على T4؟",
        "full fine-tuning of bert on a T4, how much faster with amp?",  # speed
        "تدريب كامل لـ bert على T4، كم التسريع؟",
        "full training takes 20h on a v100",  # a time
        "التدريب الكامل ياخذ ١٠ ساعات على A100",
    ],
)
def test_full_words_do_not_take_over_speed_time_or_precision(text):
    assert understand(text, Channel.DM).intent is not Intent.MEMORY


@pytest.mark.parametrize(
    "method", ["and a full fine-tune?", "what about full finetuning?", "وتدريب كامل؟"]
)
def test_a_full_fine_tune_after_lora_switches_the_method(method):
    query = understand(method, Channel.DM, follows_memory="lora")
    assert query.intent is Intent.MEMORY and query.memory_method == "full"


@pytest.mark.parametrize(
    ("text", "params", "method"),
    [
        ("lora on a 7 billion model?", 7e9, "lora"),
        ("qlora of a 350 million param model", 350e6, "qlora"),
        ("serve a 13 billion model in int4", 13e9, "inference"),
        ("لورا لنموذج ٧ مليار على A100", 7e9, "lora"),
        ("LoRA على موديل ٣٥٠ مليون معامل على T4", 350e6, "lora"),
        ("عايز أعمل QLoRA لموديل ٧٠ مليار على H100", 70e9, "qlora"),
        ("استدلال نموذج ١٣ مليار بـ int4 على 3060", 13e9, "inference"),
    ],
)
def test_a_size_said_in_words_with_a_method_asks_about_memory(text, params, method):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY
    assert query.params == pytest.approx(params) and query.memory_method == method


@pytest.mark.parametrize(
    "text",
    [
        "7 billion params, 10h fp32 on a100",
        "inference of a 7 billion model takes 2 hours in fp32, fp16?",
        "تدريب نموذج ٧ مليار ياخذ ٢٠ ساعة بـ fp32 على A100",
    ],
)
def test_a_size_in_words_leaves_a_timed_job_an_estimate(text):
    assert understand(text, Channel.DM).intent is Intent.ESTIMATE


@pytest.mark.parametrize(
    ("text", "params", "memory"),
    [
        ("will bert fit on a 12gb card?", 110e6, 12),
        ("can I fine-tune gpt2-medium on an 8gb gpu?", 355e6, 8),
        ("هل يكفي كرت ٨ جيجا لـ gpt2؟", 124e6, 8),
        ("أقدر أدرب bert-large على كرت ١٦ جيجا؟", 340e6, 16),
        ("بطاقة ٢٤ جيجا تكفي لتدريب roberta-large؟", 355e6, 24),
        ("LoRA على نموذج ١٣ مليار على كرت ٢٤ جيجا، ينفع؟", 13e9, 24),  # «ينفع» here: does it work
        ("qlora a 13 billion model on a 24 gb card, does it work?", 13e9, 24),
    ],
)
def test_a_card_known_by_its_size_stands_for_the_gpu(text, params, memory):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY
    assert query.params == pytest.approx(params) and query.gpu_memory_gb == memory


@pytest.mark.parametrize(
    "text",
    [
        "training with 8 gb of data on a 16gb card takes 5 hours",
        "بدي درب bert على كرت ١٦ جيجا، قديش بياخد وقت؟",
        "is it worth amp on a 16gb card?",
        "هل ينفع bf16 على A100؟",  # «ينفع» alone: is it worth it
    ],
)
def test_a_card_size_leaves_time_and_worth_questions_alone(text):
    assert understand(text, Channel.DM).intent is not Intent.MEMORY


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("will phi-2 fit on a T4 for lora?", 2.7e9),
        ("phi 2 on a t4, enough?", 2.7e9),
        ("فاين تيون كامل لـ phi-2 على A100، يكفي؟", 2.7e9),
        ("can I run gpt-j on a 4090?", 6.05e9),
        ("هل يكفي T4 لتدريب distilbert؟", 66e6),
        ("phi-3-mini qlora on a 3060, fits?", 3.8e9),
    ],
)
def test_models_without_a_count_in_their_name_are_sized_from_the_catalog(text, params):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.params == pytest.approx(params)


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("can i train a 350m model from scratch on a t4?", 350e6),
        ("could we fine-tune a 125M LLM on a 1060?", 125e6),
        ("gpt2 small (124M) on a 3060, can i train it?", 124e6),
        ("can i train gpt2 (124m) on a t4?", 124e6),
        ("bert-large, 340M, on a t4 - can I train it?", 340e6),
        ("هل يكفي T4 لتدريب موديل 350m من الصفر؟", 350e6),
    ],
)
def test_millions_of_a_model_are_its_size_not_minutes(text, params):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.params == pytest.approx(params)


def test_millions_before_model_leave_a_timed_job_an_estimate():
    query = understand("the 125m model takes 3h on a v100, amp?", Channel.DM)
    assert query.intent is Intent.ESTIMATE and query.fp32.hours == 3


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("mixtral 8x7b fp16 inference on a single h100?", 46.7e9),  # the catalog's count
        ("mixtral-8x7b qlora on an a100 80gb", 46.7e9),
        ("هل يكفي H100 لاستدلال mixtral 8x7b بـ fp16؟", 46.7e9),
        ("mixtral 8x22b in int4 on 2 h100s for inference", 141e9),
        ("qlora on an 8x7b moe on a 4090?", 56e9),  # unknown: experts x size bounds it
    ],
)
def test_experts_times_size(text, params):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.params == pytest.approx(params)


@pytest.mark.parametrize(
    ("text", "gpus"),
    [("7b on 8x a100 80gb fits?", 8), ("8x a100 for a 7b full finetune, fits?", 8)],
)
def test_a_count_times_a_gpu_stays_a_gpu_count(text, gpus):
    query = understand(text, Channel.DM)
    assert query.params == pytest.approx(7e9) and query.num_gpus == gpus


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("whisper large inference on a t4?", 1.55e9),
        ("can i fine-tune whisper-medium on a 12gb card?", 769e6),
        ("هل يكفي T4 لتدريب whisper small؟", 244e6),
    ],
)
def test_whisper_is_sized_from_the_catalog(text, params):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.params == pytest.approx(params)


@pytest.mark.parametrize(
    ("text", "method", "weights"),
    [
        ("13b in 8-bit on a 3090?", "inference", "int8"),  # nothing trained: served
        ("70B in 4-bit on a 4090?", "inference", "int4"),
        ("a single 80gb card for llama 70b in int8?", "inference", "int8"),
        ("load_in_8bit llama 13b on a t4?", "inference", "int8"),  # the bitsandbytes flag
        ("load_in_4bit mistral 7b on a 3060 ti 8gb", "inference", "int4"),
        ("موديل ١٣ مليار بـ ٨ بت على 3090 يكفي؟", "inference", "int8"),
        ("fine-tune 13B in 8-bit on a 3090", "lora", "int8"),  # trained: a frozen INT8 base
        ("fine-tune 13B in 4-bit on a 4090", "qlora", "nf4"),
        ("أدرب موديل ١٣ مليار بـ ٤ بت على 4090، يكفي؟", "qlora", "nf4"),
        ("بدي درّب نموذج ٧ مليار بـ int8 على كرت ٢٤ جيجا", "lora", "int8"),
    ],
)
def test_quantised_weights_are_served_unless_something_trains(text, method, weights):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY
    assert (query.memory_method, query.weight_precision) == (method, weights)


@pytest.mark.parametrize(("follows", "method"), [("full", "qlora"), ("inference", None)])
def test_in_a_thread_4_bit_follows_the_method_asked(follows, method):
    query = understand("and in 4-bit?", Channel.DM, follows_memory=follows)
    assert query.intent is Intent.MEMORY and query.memory_method == method
    assert query.weight_precision in ("nf4", "int4")


@pytest.mark.parametrize(
    "text",
    [
        "A10 بتوسع t5-large؟",  # Levantine: does it fit
        "كرت 3060 بيوسع roberta-large؟",
        "هل T4 حيكفي لـ gpt2-medium؟",  # Egyptian future
        "RTX 3090 يكفيني لـ bert-large؟",
        "will bert-large oom on a t4?",
        "gpt2-xl on a 3090, will it oom?",
        "الميموري بتاعة T4 تكفي لـ roberta-large؟",
    ],
)
def test_dialect_fit_words_and_oom_ask_about_memory(text):
    assert understand(text, Channel.DM).intent is Intent.MEMORY


@pytest.mark.parametrize(
    ("text", "sharding"),
    [
        ("deepspeed zero-3 offload 13b full finetune on one 24gb 3090?", "zero3_offload"),
        ("fsdp with cpu offload, full finetune llama 7b on 2x 4090?", "zero3_offload"),
        ("full fine-tune 13b with offload_param on an a100 40gb", "zero3_offload"),
        ("zero-infinity for a 30b full finetune on one a100, fits?", "zero3_offload"),
        ("zero-offload 13b full finetune on a 3090?", "zero2_offload"),
        ("deepspeed zero 2 with cpu offload, 7b full finetune on a 4090, fits?", "zero2_offload"),
        ("تدريب كامل لموديل ١٣ مليار بـ deepspeed zero-3 offload على 3090، يكفي؟", "zero3_offload"),
        ("فاين تيون كامل لـ ٧ مليار مع اوفلود للـ optimizer على 4090، يكفي؟", "zero2_offload"),
        ("full finetune 7b with zero-3 on 4 a100s", "zero3"),  # no offload said
    ],
)
def test_cpu_offload_words_pick_the_offloading_sharding(text, sharding):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.sharding == sharding


@pytest.mark.parametrize(
    ("text", "method"),
    [
        ("q-lora on llama 13b on a t4?", "qlora"),
        ("infrence of llama 13b in fp16 on an a100 40gb?", "inference"),  # a dropped letter
        ("will a 7b fit on a t4 for inferecne?", "inference"),  # two letters swapped
        ("inferance of a 13b on a 3090, enough?", "inference"),
        ("full fine tunning of bert-large on a t4?", "full"),
        ("full fine tuning of bert-large on a t4?", "full"),
    ],
)
def test_slack_typos_of_method_words(text, method):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.memory_method == method


@pytest.mark.parametrize(
    "text",
    ["bert-large on a t4, enogh?", "roberta-large on a t4 enuf?", "t5-large on an a10, enought?"],
)
def test_slack_typos_of_fit_words(text):
    assert understand(text, Channel.DM).intent is Intent.MEMORY


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("كم كرت A100 ٤٠ أحتاج لتدريب كامل لـ ١٣ مليار؟", 40),
        ("full finetune 7b on a100 40, fits?", 40),
        ("7b lora on v100 16?", 16),
        ("13b on 4 a100 40 with fsdp, fits?", 40),
        ("7b lora on v100 32?", 32),
    ],
)
def test_a_bare_variant_size_after_the_gpu_is_its_memory(text, memory):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.gpu_memory_gb == memory


def test_a_bare_number_after_the_gpu_stays_a_time_outside_memory_questions():
    query = understand("a100 40 hours, amp 2x?", Channel.DM)
    assert query.intent is Intent.ESTIMATE and query.fp32.hours == 40


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("يا ترى الـ 4090 تشيل موديل ٣٠ مليار بـ ٤ بت؟", "RTX 4090"),  # «تشيل»: can it hold
        ("هل الـ T4 يتحمل تدريب bert-large؟", "T4"),
        ("الـ 3090 بتستحمل gpt2-xl؟", "RTX 3090"),
    ],
)
def test_hold_verbs_and_the_arabic_article_before_a_card_number(text, gpu):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.gpu == gpu
