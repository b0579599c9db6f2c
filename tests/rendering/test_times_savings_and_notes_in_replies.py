"""Replies end to end in both languages: times echoed to the minute,
savings that add up, no "saves 0 hours", memory that fits with a margin, unknown
optimizers refused, Arabic counts and words, the slowdown, ResNet-50 and FP8 notes."""

import re

import pytest

from bot.conversation import answer
from bot.models import Channel, Kind, Lang, Reason
from bot.records.models import Measure, Record
from bot.rendering.records import RecordWords
from bot.rendering.reply import render

FSI, PDI = "\u2068", "\u2069"


def plain(text: str) -> str:
    return text.replace(FSI, "").replace(PDI, "")


def command(text: str):
    return answer(text, Channel.COMMAND)


def mention(text: str):
    return answer(text, Channel.MENTION)


# -- 5: the user's FP32 time is repeated to the minute --------------------------
@pytest.mark.parametrize(
    ("text", "fp32", "mp"),
    [
        ("16h40m 2", "16 hours and 40 minutes in FP32", "8 hours and 20 minutes"),
        ("10h40m 2", "10 hours and 40 minutes in FP32", "5 hours and 20 minutes"),
        ("12h20m 2", "12 hours and 20 minutes in FP32", "6 hours and 10 minutes"),
    ],
)
def test_fp32_time_is_echoed_to_the_minute(text, fp32, mp):
    turn = command(text)
    assert turn.reply.summary.replace("*", "").startswith(fp32)
    assert f"about *{mp}*" in turn.reply.summary


def test_fp32_time_from_epochs_is_echoed_to_the_minute_in_both_languages():
    en = mention("25 min per epoch, 40 epochs")
    assert en.advice.fp32_hours == pytest.approx(50 / 3)
    assert en.reply.text.startswith("16 hours and 40 minutes in FP32")
    ar = plain(mention("٢٥ دقيقة لكل حقبة و٤٠ حقبة").reply.text)
    assert "16 ساعةً و40 دقيقةً" in ar and "45 دقيقة" not in ar
    arabic = plain(command("١٦ ساعة و٤٠ دقيقة ٢").reply.text)
    assert arabic.startswith("بدقة FP32: 16 ساعةً و40 دقيقةً")


def test_long_given_times_keep_their_hours():
    """Hours are answered in hours (issue 12), with the days after the estimate."""
    text = command("250.5h 2").reply.text
    assert text.startswith(
        "250.5 hours in FP32 → about 125.25 hours (about 5 days) with mixed precision "
        "(ratio 2, saves 125.25 hours, 50%)"
    )


# -- 21: the saving and the estimate add up to what is shown; ratio 1 saves nothing --
def test_saving_adds_up_with_the_rounded_estimate():
    """12.5 and 7.5 hours: not "13, saves 7" (one rounded up, the other down), but
    both to the minute, where they add up to the 20 hours."""
    text = mention("fp32 takes 20h on 8 gpus, ratio 1.6").reply.text
    assert (
        "about 12 hours and 30 minutes with mixed precision (ratio 1.6, "
        "saves 7 hours and 30 minutes," in text
    )
    ar = plain(mention("تدريب fp32 ياخذ ٢٠ ساعة على ٨ بطاقات، والمعامل ١٫٦").reply.text)
    assert "12 ساعةً و30 دقيقةً تقريبًا" in ar and "والتوفير 7 ساعات و30 دقيقةً" in ar


@pytest.mark.parametrize("text", ["1 minute 1", "2h 1"])
def test_ratio_one_says_no_saving(text):
    summary = command(text).reply.summary
    assert "no saving" in summary and "saves" not in summary


def test_ratio_one_says_no_saving_in_arabic():
    text = plain(command("٢ ساعة ١").reply.text)
    assert "بلا توفير" in text and "والتوفير" not in text and "0 ساعة" not in text


# -- 12: unknown optimizers are refused, naming the supported ones -----------------
@pytest.mark.parametrize("optimizer", ["lion", "adafactor"])
def test_unknown_optimizer_refusal(optimizer):
    turn = command(f"memory 7B {optimizer} on A100")
    assert turn.advice.reason is Reason.UNKNOWN_OPTIMIZER
    assert "Adam" not in turn.reply.summary.split(":")[0]
    assert f"“{optimizer}”" in turn.reply.summary and "Adam/AdamW" in turn.reply.summary
    assert "16 bytes" not in turn.reply.text
    ar = command(f"الذاكرة لنموذج 7B مع {optimizer} على A100")
    assert ar.advice.reason is Reason.UNKNOWN_OPTIMIZER
    assert "لا أعرف" in ar.reply.summary and f"{FSI}{optimizer}{PDI}" in ar.reply.summary


# -- 13: fits with a margin; the named GPU count is used for sharding ---------------
def test_states_filling_the_card_do_not_fit_and_sharding_is_given():
    # ZeRO-style mixed Adam (DeepSpeed): 1.5B x 16 = 24 GB, on a 24 GB L4.
    one = command("memory 1.5B params adam with deepspeed on L4").reply.notes[0]
    assert one.startswith("Does not fit on one L4 (24 GB): it needs 24 GB")
    assert "20% is kept for activations and 1 GB for the CUDA context" in one
    assert "at least 2 GPUs" in one
    two = command("memory 1.5B params adam with deepspeed on 2x L4").reply.notes[0]
    assert two.startswith("Fits on your 2 × L4 (24 GB each) with ZeRO-3/FSDP: 12 GB per GPU")
    ar = plain(command("الذاكرة لنموذج 1.5B مع adam و deepspeed على L4").reply.notes[0])
    assert ar.startswith("لا تتسع على بطاقة L4 واحدة") and "بطاقتين على الأقل" in ar


def test_fitting_model_on_named_gpus_needs_no_shard():
    note = command("memory 340M adam on 4x A100").reply.notes[0]
    assert note.startswith("Fits on each of your 4 × A100 (80 GB each), a full copy per GPU")


def test_readme_memory_example_is_unchanged():
    turn = command("memory 7B adam on A100 80GB")
    headline = (
        "7B parameters, full fine-tune with Adam: with torch.amp the model states take 18 "
        "bytes per parameter (126 GB): FP32 weights and gradients, Adam's two FP32 states and "
        "a 16-bit copy of the weights. That is 2 more than plain FP32's 16: mixed precision "
        "does not shrink the model states; activations roughly halve."
    )
    fit = (
        "Does not fit on one A100 (80 GB): it needs 126 GB, and 63 GB are usable once 20% is "
        "kept for activations and 1 GB for the CUDA context. Sharded with ZeRO-3/FSDP it needs "
        "at least 2 GPUs. LoRA (BF16 base) would fit: 14.4 GB per GPU."
    )
    assert turn.reply.text.splitlines()[:2] == [headline, fit]


# -- 20: Arabic counts take their plural forms; parameters are not the ratio --------
@pytest.mark.parametrize(
    ("count", "words"),
    [
        ("3B", "3 مليارات معلمة"),
        ("7B", "7 مليارات معلمة"),
        ("2B", "ملياران من المعلمات"),
        ("1.5B", "1.5 مليار معلمة"),
        ("12B", "12 مليار معلمة"),
        ("340M", "340 مليون معلمة"),
        ("5M", "5 ملايين معلمة"),
    ],
)
def test_arabic_parameter_counts(count, words):
    summary = plain(command(f"الذاكرة لنموذج {count} مع adam").reply.summary)
    assert summary.startswith(f"*{words}، ضبط دقيق كامل مع المُحسِّن")
    assert "معامل" not in summary  # that word is the ratio's


def test_english_parameter_counts_stay_compact():
    start = "*1.5B parameters, full fine-tune with Adam*"
    assert command("memory 1.5B adam").reply.summary.startswith(start)
    start = "*340M parameters, full fine-tune with Adam*"
    assert command("memory 340M adam").reply.summary.startswith(start)


def test_arabic_memory_note_in_estimates_says_parameter_not_ratio():
    text = plain(mention("٢٠ ساعة fp32 والمعامل ٢").reply.text)
    assert "16 بايتًا لكل معلمة" in text and "لكل معامل" not in text


def test_arabic_record_confirmation_joins_the_family_name():
    record = Record(
        id=3,
        team_id="T1",
        user_id="U1",
        created_at="2026-01-01T00:00:00Z",
        ratio=1.6,
        measure=Measure.RATIO,
        family="language_model",
    )
    text = plain(RecordWords(Lang.AR).recorded(record))
    assert "لـ النماذج" not in text and "في النماذج اللغوية" in text
    assert "for language models" in RecordWords(Lang.EN).recorded(record)


# -- 15: a predicted slowdown is not shown as a normal estimate ---------------------
def test_predicted_slowdown_is_flagged_in_both_languages():
    # A GPU without Tensor Cores: a Tensor Core GPU's realistic figure stays >= 1x.
    turn = mention("Tacotron2 on a GTX 1080 Ti, 2 days fp32")
    assert turn.advice.kind is Kind.PRESET and turn.advice.ratio < 1
    assert turn.reply.notes[0].startswith("Mixed precision is expected to be slower here")
    assert re.search(r"takes \d+% longer", turn.reply.text) and "saves -" not in turn.reply.text
    ar = render(turn.advice, Lang.AR)
    assert ar.notes[0].startswith("يُتوقَّع أن تكون الدقة المختلطة أبطأ هنا")
    assert "أطول بنسبة" in ar.text


# -- 16: the ResNet-50/V100 note only when both are named ----------------------------
@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("V100, 50h, ratio 2", False),
        ("what if I switch from fp32 to fp16 on V100 for a 50h job with a 3x speedup?", False),
        ("ResNet-50 on 8x A100 40GB, 20h fp32", False),
        ("ResNet-50 on V100, 20h fp32", True),
        ("على V100، ٥٠ ساعة، المعامل ٢", False),
        ("ResNet-50 على 8 بطاقات A100، ٢٠ ساعة fp32", False),
        ("ResNet-50 على V100، ٢٠ ساعة fp32", True),
    ],
)
def test_resnet50_v100_note_trigger(text, shown):
    reply = mention(text).reply.text
    assert ("channels-last" in reply) is shown
    # The lead is NVIDIA's figure already: the note adds no second headline number.
    assert "2.9–3.6" not in reply and "rule of thumb is about" not in reply


def test_resnet50_v100_note_beside_a_users_own_ratio_says_the_published_span():
    reply = mention("ResNet-50 on V100, 20h fp32, ratio 2").reply.text
    assert "2.1" in reply and "2.9–3.6" in reply


# -- 22: FP8 gets its own note --------------------------------------------------------
def test_fp8_note_in_both_languages():
    en = mention("llama on H100, fp8, 30h fp32").reply.text
    assert (
        "FP8 (8-bit floating point) needs per-tensor scaling" in en and "Transformer Engine" in en
    )
    assert "FP16 needs loss" not in en
    ar = plain(mention("٣٠ ساعة fp32 بدقة fp8 والمعامل ١٫٥").reply.text)
    assert "تحتاج FP8" in ar and "8 بتات" in ar and "تحجيم لكل موتر" in ar and "Hopper" in ar
