"""A job on a CPU (rule cpu_device): read as the device where the sentence puts
the job on it, and answered from CPU reports, never from the GPU fit."""

from __future__ import annotations

import pytest

from bot.conversation import answer, carried_over, to_json
from bot.models import CPU_DEVICE, Channel
from bot.understanding import understand


@pytest.mark.parametrize(
    "text",
    [
        "training on CPU takes 10 hours, how much faster with amp?",
        "we train on the cpu, 3 days in fp32, would bf16 help?",
        "using my Xeon: 20h per run, what would autocast give?",
        "cpu-only box, 12 hours fp32",
        "CPU only, 12 hours",
        "التدريب على المعالج ياخذ ١٠ ساعات، كم بيصير مع الـ bf16؟",
        "عالـ CPU ياخذ ١٠ ساعات",
        "بدرّب باستخدام المعالج فقط، ١٢ ساعة",
    ],
)
def test_a_job_put_on_a_cpu_names_the_cpu_as_its_device(text):
    assert understand(text, Channel.DM).gpu == CPU_DEVICE


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("data loading is CPU-bound on my T4, 10h", "T4"),
        ("cpu offload with zero on an a100, 10 hours", "A100"),
        ("preprocessing on the CPU, training on an A100 takes 10 hours", "A100"),
        ("moving from cpu to a T4: 10 hours", "T4"),
        ("the cpu workers are slow, 10 hours in fp32", None),
        ("on CPU RAM we keep the optimizer, 10 hours", None),
        ("التدريب على معالج الرسوميات ياخذ ١٠ ساعات", None),
    ],
)
def test_cpu_as_part_of_a_gpu_job_is_not_the_device(text, gpu):
    assert understand(text, Channel.DM).gpu == gpu


def test_the_cpu_answer_is_no_gain_to_count_on_with_the_check_that_tells():
    got = to_json(answer("training on CPU takes 10 hours, how much faster with amp?", Channel.DM))
    assert (got["gpu"], got["ratio"], got["ratio_low"], got["ratio_high"]) == ("CPU", 1, 0.5, 1.7)
    assert got["basis"] == "reported" and got["precision"] == "bf16"
    assert got["projects"] == {"ratio": 1.0, "low": 0.5, "high": 1.7}
    lead = got["text"].split("\n")[1]
    assert "avx512_bf16" in lead and "1.4–1.6×" in lead
    assert "Tensor Core" not in got["text"] and "nvidia-smi" not in got["text"]


def test_the_cpu_answer_in_arabic():
    got = to_json(answer("التدريب على المعالج ياخذ ١٠ ساعات، كم بيصير مع الـ bf16؟", Channel.DM))
    assert (got["lang"], got["ratio"]) == ("ar", 1)
    assert "تعليمات" in got["text"] and "avx512_bf16" in got["text"]


def test_a_speed_question_about_a_model_on_a_cpu_gets_the_cpu_figure():
    got = to_json(answer("what speedup for resnet50 on cpu with bf16?", Channel.DM))
    assert (got["model"], got["gpu"], got["ratio"]) == ("ResNet-50", "CPU", 1)


def test_a_gpu_named_in_a_follow_up_replaces_the_cpu():
    hours, memory, turns = None, {}, []
    for text in ("training on CPU takes 10 hours, how much faster with amp?", "and on a T4?"):
        turn = answer(text, Channel.MENTION, thread_fp32_hours=hours, thread_setup=memory)
        turns.append(to_json(turn))
        if (carried := carried_over(turn, hours)) is not None:
            hours, memory = carried
    assert turns[-1]["gpu"] == "T4" and turns[-1]["ratio"] > 1
    assert turns[-1]["fp32_hours"] == 10
