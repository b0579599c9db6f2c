"""More real-style phrasings, written fresh (not paraphrases of the dev corpus).

Different verbs, word orders, units and dialects (MSA, Gulf, Egyptian,
Levantine, Maghrebi), ratio phrasings, and traps (dates, clock times, counts,
versions, deadlines, links, emoji). Every expectation follows the data README
conventions, worked out by hand from the conventions, not from the code.

Each case: (text, channel, expected answer fields), compared the way the
corpus test compares them.
"""

from __future__ import annotations

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel


def est(hours: float, ratio: float, lang: str = "en") -> dict:
    return {"kind": "estimate", "fp32_hours": hours, "ratio": ratio, "lang": lang}


def rng(hours: float, lang: str = "en") -> dict:
    return {"kind": "range", "fp32_hours": hours, "lang": lang}


def preset(hours: float, gpu: str | None, model: str | None, lang: str = "en") -> dict:
    return {"kind": "preset", "fp32_hours": hours, "gpu": gpu, "model": model, "lang": lang}


def err(reason: str, lang: str = "en") -> dict:
    return {"kind": "error", "reason": reason, "lang": lang}


def helps(lang: str = "en") -> dict:
    return {"kind": "help", "lang": lang}


def precision(lang: str = "en") -> dict:
    return {"kind": "precision", "lang": lang}


CASES = [
    # ---------------------------------------------------------------- English, ratios
    ("fp32 baseline clocks in at 14 hr; amp speed-up of 1.8x", "dm", est(14, 1.8)),
    ("Our FP32 job runs 2 days and a half. AMP is 1.8× faster.", "dm", est(60, 1.8)),
    ("AMP cuts training time in half; the fp32 run is 26 hours", "dm", est(26, 2)),
    ("mixed precision takes a third less time. FP32: 9h", "dm", est(9, 1.5)),
    ("AMP reduces the wall-clock by 30%, FP32 is 70 hours", "dm", est(70, 1 / 0.7)),
    ("amp saves 25% of the time on a 16h fp32 job", "dm", est(16, 4 / 3)),
    ("throughput up 60% with AMP, fp32 run takes 3 days", "dm", est(72, 1.6)),
    ("fp32 run 50h, and the AMP run takes 40% of the FP32 time", "dm", est(50, 2.5)),
    ("mixed precision divides the time by 3, fp32 = 18h", "dm", est(18, 3)),
    ("fp32 is 12 hours and AMP makes it 3 times faster", "dm", est(12, 3)),
    ("fp32 45 min and amp 1.5x faster", "dm", est(0.75, 1.5)),
    ("A 36-hour fp32 job, 2-fold speedup", "dm", est(36, 2)),
    ("fp32 ~ 1,500 mins, speedup 2", "dm", est(25, 2)),
    ("We got a 70% speedup from AMP; the fp32 run took 34 hours", "dm", est(34, 1.7)),
    ("FP32: 1h 45m. AMP: 1.4x", "dm", est(1.75, 1.4)),
    ("fp32 run ≈ 2.5 days; amp speedup ~1.4", "dm", est(60, 1.4)),
    ("mixed precision gave a 2.3x speed up over fp32 (which took 23 hours)", "dm", est(23, 2.3)),
    ("FP32 takes 10 hours; with AMP it takes 6 hours", "dm", est(10, 10 / 6)),
    ("fp32: 3 hrs 20 mins, amp: 1.25x", "dm", est(10 / 3, 1.25)),
    ("fp32 three quarters of an hour, ratio 1.5", "dm", est(0.75, 1.5)),
    ("fp32 12h and with AMP it takes two thirds of the time", "dm", est(12, 1.5)),
    ("training would take forty-eight hours in fp32, amp gives 1.5x", "dm", est(48, 1.5)),
    ("fp32 takes 6 hrs; with AMP the same job needs half the time", "dm", est(6, 2)),
    ("amp is 2.5 times as fast, fp32 10 hours", "dm", est(10, 2.5)),
    ("AMP trains 80% faster than FP32 (FP32 run: 20 hours)", "dm", est(20, 1.8)),
    ("fp32 run: 20 hrs; mixed precision cuts that by a quarter", "dm", est(20, 4 / 3)),
    ("fp32 run: 20 hrs; amp brings it down to 12 hrs", "dm", est(20, 20 / 12)),
    ("fp32: 2d12h, amp 1.5x", "dm", est(60, 1.5)),
    ("fp32: 1d 6h 30m, amp 1.5x", "dm", est(30.5, 1.5)),
    ("fp32 for a week and a half, 2x", "dm", est(252, 2)),
    ("fp32 5400 seconds, ratio 1.5", "dm", est(1.5, 1.5)),
    ("x2 speedup with amp, fp32 = 10h", "dm", est(10, 2)),
    ("fp32 10h; with amp the step time drops by 40%", "dm", est(10, 1 / 0.6)),
    ("fp32 10h; amp brings the step time down to 70%", "dm", est(10, 1 / 0.7)),
    ("fp32 12h, throughput increases by 30% with amp", "dm", est(12, 1.3)),
    ("fp32 10h, mixed precision is 0% faster", "dm", est(10, 1)),
    # ---------------------------------------------------------------- English, traps
    (
        "<@U0ABC12> Started the FP32 run on 2024-05-01 at 10:30, it needs 40 hours; AMP speedup 2",
        "mention",
        est(40, 2),
    ),
    ("8xA100 node, fp32 takes 12 hours, with AMP 1.6x", "dm", est(12, 1.6)),
    (
        "4 nodes x 8 GPUs, lr 3e-4, seq len 512, bs=64: fp32 needs 30 hours. estimate with AMP?",
        "dm",
        rng(30),
    ),
    ("PyTorch v1.13 with CUDA 11.8: fp32 run is 5h, amp ratio 1.7", "dm", est(5, 1.7)),
    ("at step 5000, epoch 3 of 90; the full FP32 run is 100 hours; AMP 2x", "dm", est(100, 2)),
    (
        "I need results by Friday, within 48 hours. FP32 takes 60 hours, AMP 1.5x",
        "dm",
        est(60, 1.5),
    ),
    ("see <https://x.y/z|link 12> — fp32 20h, speedup 2.2", "dm", est(20, 2.2)),
    (":100: fp32 8h ratio 1.5 :tada:", "dm", est(8, 1.5)),
    ("FP32 time: 8h\nAMP speedup: 1.9\n(on CUDA 12.2, driver 535)", "dm", est(8, 1.9)),
    ("Deadline in 3 days. FP32 run: 4 days. AMP 2x, will we make it?", "dm", est(96, 2)),
    ("kicked off 01/05/2024 at 09:15:30; fp32 needs 10h, ratio 2", "dm", est(10, 2)),
    ("the last FP32 run, 5-6 days ago, took 30 hours; speedup 1.5", "dm", est(30, 1.5)),
    ("fp32 ~10h (±10%), amp 2x", "dm", est(10, 2)),
    ("fp32 takes 10h ±1h, amp gives 1.5x", "dm", est(10, 1.5)),
    ("fp32 needs 10 hours and we have 6 hours of budget, ratio 2", "dm", est(10, 2)),
    ("fp32 takes 10h; amp 1.5x on 2 x A100, v2.0 of our code", "dm", est(10, 1.5)),
    ("fp32 takes 2 or 3 days, amp 2x", "dm", err("ambiguous")),
    ("speedup somewhere between 1.5 and 2, fp32 is 30 hours", "dm", err("ambiguous")),
    ("72 2 3", "command", err("ambiguous")),
    ("<!here> fp32 6h ratio 2", "dm", est(6, 2)),
    ("<#C012AB|ml-team> fp32 6h, ratio 2", "dm", est(6, 2)),
    ("```fp32 6h\nratio 2```", "dm", est(6, 2)),
    ("fp32 10 hours, checkpoint every 30 min, ratio 2", "dm", est(10, 2)),
    ("we run 8×A100, fp32 takes 10h, amp 2x", "dm", est(10, 2)),
    ("fp32 10h, amp 2x ... or maybe 3x", "dm", err("ambiguous")),
    # rule time_range: both ends answered (fp32_hours is the low end)
    ("fp32 10 to 12 hours, amp 2x", "dm", {**est(10, 2), "fp32_hours_high": 12}),
    # ---------------------------------------------------------------- English, commands
    ("2 days 2", "command", est(48, 2)),
    ("90m 1.3", "command", est(1.5, 1.3)),
    ("1.5 days", "command", rng(36)),
    ("half a day 2x", "command", est(12, 2)),
    ("10h L40S", "command", preset(10, "L40S", None)),
    # ---------------------------------------------------------------- English, presets / range
    (
        "<@U0ABC12> BERT-large fine-tuning on an A100-80GB, 7 hrs in fp32",
        "mention",
        preset(7, "A100", "BERT"),
    ),
    (
        "ResNet50 on a Tesla T4 takes 20 hrs fp32, AMP estimate?",
        "dm",
        preset(20, "T4", "ResNet-50"),
    ),
    ("fp32 on H200 for 6 hrs, what would AMP do?", "dm", preset(6, "H200", None)),
    ("A10 box, SSD model, 3h in fp32", "dm", preset(3, "A10", "SSD")),
    ("fp32 is 20 hours on my gpus, estimate?", "dm", rng(20)),
    ("The FP32 baseline is 1 day 4 hrs", "dm", rng(28)),
    # ---------------------------------------------------------------- English, errors / help
    ("fp32 12 hours, AMP is 25% slower on this card", "dm", err("ratio_below_one")),
    ("fp32 10h but amp is 2x slower on our old K80", "dm", err("ratio_below_one")),
    ("fp32 8h; the amp run took 1.5x as long", "dm", err("ratio_below_one")),
    ("fp32 time 0.0 hours ratio 2", "dm", err("time_not_positive")),
    ("fp32 1e9 hours, ratio 2", "dm", err("too_large")),
    ("how long will mixed precision take for my GPT-2 run on 8 H100s?", "dm", err("no_numbers")),
    ("estimate please, speedup 1.7x", "dm", err("no_numbers")),
    ("hey there", "dm", helps()),
    ("<@U0ABC12> what do you do?", "mention", helps()),
    ("is bf16 better than fp16?", "dm", precision()),  # answered from the facts (issue 21)
    ("thanks!", "dm", helps()),
    # ---------------------------------------------------------------- Arabic, durations
    ("التدريب بياخد يوم ونص، والـAMP أسرع ٣ مرات", "dm", est(36, 3, "ar")),
    ("المدة اسبوع ونص بالـFP32 والتسريع ٢", "dm", est(252, 2, "ar")),
    ("التدريب نص ساعة بس والنسبة ١٫٥", "dm", est(0.5, 1.5, "ar")),
    ("ربع ساعة تدريب بـFP32، والتسريع ٢", "dm", est(0.25, 2, "ar")),
    ("التدريب ساعة وربع والنسبة ٢", "dm", est(1.25, 2, "ar")),
    ("التدريب ٣ ساعات و٢٠ دقيقة والنسبة ٢", "dm", est(10 / 3, 2, "ar")),
    ("التدريب ثلاث ارباع الساعة والنسبة ٢", "dm", est(0.75, 2, "ar")),
    ("ساعتين وربع بـFP32، والـAMP ضعف السرعة", "dm", est(2.25, 2, "ar")),
    ("التدريب ١٬٥٠٠ دقيقة والنسبة ٢", "dm", est(25, 2, "ar")),
    ("٢٠ ساعة ×١٫٥", "command", est(20, 1.5, "ar")),
    # ---------------------------------------------------------------- Arabic, ratio phrasings
    ("الـmixed precision بينقص الوقت للنص، والتدريب ٤٠ ساعة", "dm", est(40, 2, "ar")),
    ("الـAMP بيختصر ٣٠٪ من الوقت، والتدريب ٢٠ ساعة", "dm", est(20, 1 / 0.7, "ar")),
    ("الدقة المختلطة تضاعف السرعة، وزمن التدريب ١٢ ساعة", "dm", est(12, 2, "ar")),
    ("ياخذ التدريب ٥ ساعات، والـAMP يسرّعه مرتين", "dm", est(5, 2, "ar")),
    ("الـAMP بيضاعف السرعة، والتدريب عندنا ١٠ ساعات", "dm", est(10, 2, "ar")),
    (
        "التدريب ١٠ ساعات، بس الـAMP يضاعف الوقت على الكرت القديم",
        "dm",
        err("ratio_below_one", "ar"),
    ),
    ("التدريب ٢٠ ساعة، والدقة المختلطة تخلي الوقت ٦٠٪ من الأصلي", "dm", est(20, 100 / 60, "ar")),
    ("FP32 ياخذ ٤٨ ساعة، ومع AMP ياخذ ٣٠ ساعة", "dm", est(48, 1.6, "ar")),
    ("*التدريب:* ١٨ ساعة\n*التسريع:* ٢×", "dm", est(18, 2, "ar")),
    (
        "<@U0ABC12> وقت التدريب ٦ ساعات بـ FP32، وقديش بيصير إذا الـspeedup ١٫٧؟",
        "mention",
        est(6, 1.7, "ar"),
    ),
    ("التدريب ساعه ونصف بدقة FP32 والتسريع ٢", "dm", est(1.5, 2, "ar")),
    ("التدريب أسبوعين ونص والتسريع ٢", "dm", est(420, 2, "ar")),
    ("التدريب ١٠ ساعات إلا ربع والتسريع ٢", "dm", est(9.75, 2, "ar")),
    ("التدريب ١٢ ساعة، والـAMP بيوفر ربع الوقت", "dm", est(12, 4 / 3, "ar")),
    ("التدريب ١٢ ساعة، والـAMP بيقلل الوقت للثلث", "dm", est(12, 1.5, "ar")),
    ("التدريب ١٢ ساعة، والـAMP بيخلي الوقت النص", "dm", est(12, 2, "ar")),
    ("التدريب ١٢ ساعة والسرعة بتزيد ٥٠٪ مع AMP", "dm", est(12, 1.5, "ar")),
    ("التدريب ١٢ ساعة والـthroughput بيزيد ٣٠٪", "dm", est(12, 1.3, "ar")),
    ("التدريب ١٠ ساعات والوقت ينخفض بنسبة ٤٠٪ مع AMP", "dm", est(10, 1 / 0.6, "ar")),
    ("التدريب ١٠ ساعات والوقت ينخفض إلى ٤٠٪ مع AMP", "dm", est(10, 2.5, "ar")),
    ("التدريب ١٢ ساعة والـAMP أسرع بمرتين ونص", "dm", est(12, 2.5, "ar")),
    ("التدريب ١٢ ساعة والتسريع x٢", "dm", est(12, 2, "ar")),
    ("التدريب اتناشر ساعة والنسبة اتنين", "dm", est(12, 2, "ar")),
    ("التدريب كيدوز ١٢ ساعة والـAMP كيزيد السرعة ب ٤٠٪", "dm", est(12, 1.4, "ar")),
    # ---------------------------------------------------------------- Arabic, traps
    ("التدريب ١٠ ساعات على ٨ كروت، عدد الحقب ٩٠، والنسبة ١٫٨", "dm", est(10, 1.8, "ar")),
    ("حجم الدفعة ٦٤ ومعدل التعلم ٠٫٠٠٣، والتدريب ١٥ ساعة بدقة FP32", "dm", rng(15, "ar")),
    ("لازم نخلص خلال ٤٨ ساعة، والتدريب ٦٠ ساعة بـFP32 والنسبة ٢", "dm", est(60, 2, "ar")),
    ("التدريب بدأ الساعة ١٠:٣٠ ويستغرق ٨ ساعات، والتسريع ١٫٥", "dm", est(8, 1.5, "ar")),
    ("بتاريخ 2024-05-01 التدريب ياخذ ٣٠ ساعة والنسبة ٢", "dm", est(30, 2, "ar")),
    ("التدريب ٢٠ ساعة والتسريع ١٫٥ أو ٢ تقريباً", "dm", err("ambiguous", "ar")),
    ("التدريب يومين أو ثلاثة، والنسبة ٢", "dm", err("ambiguous", "ar")),
    ("التدريب على ٤ عقد × ٨ كروت بياخد ١٢ ساعة، والنسبة ٢", "dm", est(12, 2, "ar")),
    ("لازم يخلص قبل ٥ أيام، والتدريب ٤ أيام والنسبة ٢", "dm", est(96, 2, "ar")),
    ("٢٠٢٤/٠٥/٠١ التدريب ١٢ ساعة والنسبة ٢", "dm", est(12, 2, "ar")),
    ("الساعة ٣ العصر بدأ التدريب، وهو ياخذ ١٢ ساعة، والنسبة ٢", "dm", est(12, 2, "ar")),
    ("التدريب من ١٢ إلى ١٤ ساعة والنسبة ٢", "dm", {**est(12, 2, "ar"), "fp32_hours_high": 14}),
    ("التدريب يستغرق يوم أو يومين والنسبة ٢", "dm", err("ambiguous", "ar")),
    ("الـAMP بياخد ضعف الوقت عندي، والتدريب ١٢ ساعة", "dm", err("ratio_below_one", "ar")),
    ("التدريب ١٢ ساعة والـAMP بيزود الوقت ٢٠٪", "dm", err("ratio_below_one", "ar")),
    ("التدريب ١٢ ساعة والنسبة صفر فاصلة خمسة", "dm", err("ratio_below_one", "ar")),
    # ---------------------------------------------------------------- Arabic, Maghrebi
    ("بغيت نعرف شحال غادي ياخد التدريب، دابا كياخد ١٢ ساعة والنسبة ٢", "dm", est(12, 2, "ar")),
    ("التدريب كياخد ٣ أيام، والـAMP أسرع بـ٥٠٪", "dm", est(72, 1.5, "ar")),
    ("واش الدقة المختلطة كتسرع التدريب؟", "dm", helps("ar")),
    # ---------------------------------------------------------------- Arabic, presets / errors / help
    ("عندي A100 والتدريب ياخذ ٢٠ ساعه", "dm", preset(20, "A100", None, "ar")),
    ("تدريب نموذج GPT-2 على H100 ياخد يوم كامل", "dm", preset(24, "H100", "GPT-2", "ar")),
    ("كم بياخذ تدريب BERT بالدقة المختلطة؟", "dm", err("no_numbers", "ar")),
    ("الـAMP أبطأ بـ١٠٪ عندي، والتدريب ١٠ ساعات", "dm", err("ratio_below_one", "ar")),
    ("مدة التدريب صفر ساعة، والتسريع ٢", "dm", err("time_not_positive", "ar")),
    ("١٢ ٠٫٩", "command", err("ratio_below_one")),
    ("تدريب ResNet50 على كرت V100 بياخد يومين", "dm", preset(48, "V100", "ResNet-50", "ar")),
    ("وش الفرق بين FP16 و BF16؟", "dm", precision("ar")),
    ("يعطيك العافية", "dm", helps("ar")),
    ("what's the typical AMP speedup on A100?", "dm", helps()),
    ("مرحبا، كيف حالك؟", "dm", helps("ar")),
    ("ممكن تساعدني؟", "dm", helps("ar")),
    ("شنو تقدر تسوي؟", "dm", helps("ar")),
]


@pytest.mark.parametrize(("text", "channel", "expect"), CASES, ids=[c[0][:40] for c in CASES])
def test_more_phrasings(text: str, channel: str, expect: dict) -> None:
    got = to_json(answer(text, Channel(channel)))
    for key, want in expect.items():
        if key in ("fp32_hours", "ratio"):
            assert got[key] == pytest.approx(want, abs=1e-3), (text, key, got[key])
        else:
            assert got[key] == want, (text, key, got[key])
