"""A framework whose projects report broken runs often gets a low end that reaches them."""

from __future__ import annotations

import math

from bot.advice import calibration
from bot.advice.calibration import ALPHA, broken_tails
from bot.advice.features import Job
from bot.advice.prediction import Factor, Setup, predict
from bot.advice.ratio_model import Evidence, Row
from bot.conversation import answer, to_json
from bot.models import Channel


def run(framework: str, source: str, ratio: float) -> Row:
    job = Job(spec=None, framework=framework, level="practice")
    return Row(job, math.log(ratio), source, None)  # type: ignore[arg-type]


def evidence_of(sources: dict[str, tuple[str, list[float], list[float]]]) -> Evidence:
    """source -> (framework, ordinary ratios, broken ratios)."""
    ordinary = [run(fw, s, r) for s, (fw, ok, _) in sources.items() for r in ok]
    broken = [run(fw, s, r) for s, (fw, _, bad) in sources.items() for r in bad]
    return Evidence(rows=(), no_tensor_cores=(), unplaced=tuple(ordinary), broken=tuple(broken))


def test_a_framework_broken_in_many_sources_reaches_its_broken_runs():
    sources = {f"tf{k}": ("tensorflow", [1.5], []) for k in range(6)}
    sources |= {f"tfbad{k}": ("tensorflow", [], [r]) for k, r in enumerate((0.01, 0.05, 0.1, 0.2))}
    sources |= {f"pt{k}": ("pytorch", [1.3, 1.1], []) for k in range(30)}
    tails = broken_tails(evidence_of(sources))
    assert set(tails) == {"tensorflow"}
    # 4 of 10 sources broken, shrunk towards the pooled 10% (4 of 40): 0.3. The low end
    # leaves ALPHA / 2 of the framework's projects below: a third of its broken runs.
    pooled = 4 / 40
    shrunk = (4 + 5 * pooled) / (10 + 5)
    assert (ALPHA / 2) / shrunk < 0.5
    assert tails["tensorflow"] == math.log(0.05)


def test_one_thread_is_not_its_framework():
    sources = {"jax-bad": ("jax", [], [0.05, 0.1, 0.02])}
    sources |= {f"jax{k}": ("jax", [1.5], []) for k in range(2)}
    sources |= {f"pt{k}": ("pytorch", [1.2], []) for k in range(20)}
    assert broken_tails(evidence_of(sources)) == {}


def test_a_rate_the_pooled_one_explains_gets_no_tail():
    sources = {f"pt{k}": ("pytorch", [1.2], []) for k in range(38)}
    sources |= {f"ptbad{k}": ("pytorch", [1.2], [0.1]) for k in range(2)}
    assert broken_tails(evidence_of(sources)) == {}


def test_shipped_tensorflow_projects_reach_their_broken_runs_pytorch_ones_do_not():
    tails = calibration.fitted().broken_tails
    assert "tensorflow" in tails and tails["tensorflow"] < math.log(0.2)
    assert "pytorch" not in tails


def test_the_tail_widens_only_what_projects_report_and_says_why():
    tail = math.exp(calibration.fitted().broken_tails["tensorflow"])
    for gpu in (None, "RTX 2060", "A100"):
        tf = predict(Setup(gpu=gpu, family="detection", framework="TensorFlow"))
        torch = predict(Setup(gpu=gpu, family="detection", framework="PyTorch"))
        assert tf.projects.low <= tail + 0.01 < torch.projects.low, gpu
        assert Factor.BROKEN_SETUPS in [f.code for f in tf.factors]
        assert Factor.BROKEN_SETUPS not in [f.code for f in torch.factors]
        # The lead is a run that keeps the GPU busy: no project's broken run reaches it.
        assert tf.low > 1.0 > tail, gpu


def test_the_reply_says_why_in_both_languages():
    english = to_json(answer("EfficientDet with Keras, 100 hours in FP32, with AMP?", Channel.DM))
    assert "TensorFlow projects often report broken setups" in english["text"]
    arabic = to_json(answer("EfficientDet مع Keras، ١٠٠ ساعة في FP32، كم مع AMP؟", Channel.DM))
    assert "إعدادات معطوبة" in arabic["text"]


def test_a_framework_named_alone_gets_the_range_real_projects_see():
    tail = math.exp(calibration.fitted().broken_tails["tensorflow"])
    keras = predict(Setup(framework="TensorFlow"))
    assert keras.basis != "typical" and keras.projects.low <= tail + 0.01
    assert Factor.BROKEN_SETUPS in [f.code for f in keras.factors]
    # PyTorch projects rarely broke: the realistic range of an unnamed setup, below the
    # rule's low end (projects often see 1.0x or less), without the broken tail.
    torch = predict(Setup(framework="PyTorch"))
    assert torch.basis == "modelled" and tail + 0.01 < torch.projects.low < 1.0
    assert 1.0 < torch.projects.ratio < 1.5 < torch.ratio
    assert Factor.BROKEN_SETUPS not in [f.code for f in torch.factors]
    # An unknown GPU beside a framework is still said to be unknown.
    unknown = predict(Setup(gpu="Radeon 8060S", framework="TensorFlow"))
    assert Factor.UNKNOWN_GPU in [f.code for f in unknown.factors]
    assert unknown.projects.low <= tail + 0.01
    # Nothing named at all is still the rule's range.
    nothing = predict(Setup())
    assert nothing.basis == "typical" and (nothing.low, nothing.high) == (1.2, 2.5)
