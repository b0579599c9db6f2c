"""A 3D U-Net is predicted from the 3D U-Net rows, not pooled with the 2D U-Nets."""

from __future__ import annotations

from bot.advice.prediction import Factor, Setup, predict


def measured(prediction) -> dict:
    return next(f.params for f in prediction.factors if f.code == Factor.MEASURED_MATCH)


def test_3d_unet_on_v100_matches_the_published_3d_rows():
    p = predict(Setup(gpu="V100", model="UNet", dimensions=3))
    assert measured(p)["models"] == "3D U-Net"
    # The shipped 3D U-Net V100 rows run 3.23-3.98x: the lead (a GPU-busy run), with what
    # projects report beside it, lower.
    assert 3.2 <= p.ratio == p.tuned <= 4.0 and p.low <= p.ratio <= p.high
    assert p.projects is not None and p.projects.ratio < p.ratio


def test_2d_unet_leaves_the_3d_rows_out_and_unsaid_pools_them():
    two_d = predict(Setup(gpu="V100", model="UNet", dimensions=2))
    assert "3D" not in measured(two_d)["models"]
    pooled = predict(Setup(gpu="V100", model="UNet"))
    assert "3D U-Net" in measured(pooled)["models"]
    # Each table counts once (measured._per_source): the 3D table is one of four.
    assert (
        two_d.tuned <= pooled.tuned < predict(Setup(gpu="V100", model="UNet", dimensions=3)).tuned
    )


def test_a_dimension_with_no_rows_of_its_own_keeps_the_models_rows():
    assert predict(Setup(model="ResNet-50", dimensions=3)) == predict(Setup(model="ResNet-50"))


def test_a_message_saying_3d_reaches_the_3d_rows():
    from bot.conversation import answer, to_json
    from bot.models import Channel

    for text in ("3d unet on v100, 100h fp32", "التدريب ١٠٠ ساعة لـ 3D U-Net على V100"):
        got = to_json(answer(text, Channel.DM))
        assert got["model"] == "UNet" and 3.2 <= got["ratio"] <= 4.0, text
        assert got["projects"]["ratio"] < got["ratio"], text
