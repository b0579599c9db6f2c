"""Well-known models with no published rows still say their task family."""

from __future__ import annotations

import pytest

from bot.advice.catalog import family_of_model
from bot.models import Channel
from bot.understanding import understand
from bot.understanding.values.lexicon import model_word_family


@pytest.mark.parametrize(
    ("word", "family"),
    [
        ("yolov8", "detection"),
        ("resnet-101", "image_classification"),
        ("resnext101", "image_classification"),
        ("swin-base", "image_classification"),
        ("vit-b", "image_classification"),
        ("efficientdet-d0", "detection"),
        ("nnu-net", "segmentation"),
        ("deeplabv3", "segmentation"),
        ("llama-2-7b", "language_model"),
        ("gpt4", "language_model"),
        ("t5-large", "language_model"),
        ("whisper", "speech_recognition"),
        ("hifi-gan", "tts"),
        ("vits", "tts"),
        ("deepfm", "recommender"),
        ("tft", "time_series"),
        ("schnet", "graph"),
        ("convnext-t", "image_classification"),
        ("megatron-lm", "language_model"),
        ("moflow", "graph"),
        ("nanogpt", "language_model"),
        ("gpt-neox-20b", "language_model"),
        ("bloom-560m", "language_model"),
        ("xlm-r", "language_model"),
        ("yolox-s", "detection"),
        ("centernet", "detection"),
        ("mask2former", "segmentation"),
        ("wavenet", "tts"),
        # More letters after a stem are another word, not a version.
        ("swing", None),
        ("vitamin", None),
        ("gptq", None),
        ("whispered", None),
        ("", None),
    ],
)
def test_model_word_family(word, family):
    assert model_word_family(word) == family


@pytest.mark.parametrize(
    ("text", "family", "hours"),
    [
        ("yolov8 on a100, fp32 takes 20 hours", "detection", 20.0),
        ("resnet 101 on v100 fp32 10h", "image_classification", 10.0),
        ("wav2vec 2.0 on V100 fp32 10 hours", "speech_recognition", 10.0),
        # A task word wins over the model's usual task.
        ("fine-tuning llama for translation on A100, fp32 8h", "translation", 8.0),
        # "3D" beside a model is a dimension, not three days.
        ("nnU-Net 3D on V100, fp32 takes 30 hours", "segmentation", 30.0),
        ("3D U-Net on 8 A100, fp32 takes 3d", "segmentation", 72.0),
    ],
)
def test_model_words_in_messages(text, family, hours):
    query = understand(text, Channel.DM)
    # A canonical model (UNet) carries its family through the catalog.
    assert (query.family or family_of_model(query.model)) == family
    assert query.fp32 is not None and query.fp32.hours == hours


@pytest.mark.parametrize(
    ("text", "model", "family"),
    [
        # "Transformer" with another task is the architecture, not NVIDIA's translation model.
        ("the vision transformer takes 2 days on 8xA100 in fp32", None, "image_classification"),
        ("transformer language model on A100, 10h", None, "language_model"),
        ("Transformer on V100, 10h", "Transformer", None),
        ("transformer translation on V100 10h", "Transformer", "translation"),
        ("our LSTM seq2seq takes 15 hours on V100", None, "translation"),
    ],
)
def test_transformer_is_a_model_only_for_translation(text, model, family):
    query = understand(text, Channel.DM)
    assert (query.model, query.family) == (model, family)


def test_three_days_alone_is_still_three_days():
    query = understand("3d 1.5", Channel.COMMAND)
    assert query.fp32 is not None and query.fp32.hours == 72.0 and query.ratio == 1.5
