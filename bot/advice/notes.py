"""Stable codes for the notes an answer carries.

The advice room decides *which* notes apply (pure logic on the numbers);
the rendering room words each code in the user's language. The codes are
part of the JSON/Slack contract, so they never change meaning.
"""

from __future__ import annotations

from enum import StrEnum


class Note(StrEnum):
    # Every estimate: the arithmetic is a rule of thumb, not a measurement.
    THEORETICAL = "theoretical"
    # Activations roughly halve (larger batch, more speedup); model states do not.
    MEMORY = "activation_memory"
    # FP16 needs loss (gradient) scaling; BF16 usually does not.
    LOSS_SCALING = "loss_scaling"
    # FP8 needs per-tensor scaling (Transformer Engine) and Hopper/Ada or newer; replaces LOSS_SCALING.
    FP8_SCALING = "fp8_scaling"
    # How to measure the real ratio with a small experiment.
    VALIDATE = "validate"
    # A ratio above the typical 2.5 is possible but worth verifying.
    DOUBLE_CHECK = "double_check"
    # The ~2.1 rule of thumb vs NVIDIA's published 2.9-3.6x (bigger AMP batch, channels-last).
    RESNET50_V100 = "resnet50_v100"
    # Something was named but no published measurement matched it.
    NO_MEASUREMENT = "no_measurement"
    # Nothing known: how to pick a ratio inside 1.2-2.5.
    RATIO_GUIDE = "ratio_guide"
    # A ratio below one: what usually makes mixed precision slower.
    SLOWDOWN = "slowdown"
    # A suggested ratio below one: mixed precision is expected to be slower here.
    EXPECTED_SLOWDOWN = "expected_slowdown"
    # Several candidate numbers: ask which one is meant.
    WHICH_NUMBER = "which_number"
    # "lang ar|en" stored a language preference.
    LANG_SET = "lang_set"
    # A ratio asked for alone: give the FP32 time to turn it into hours.
    ADD_FP32_TIME = "add_fp32_time"
    # A cost asked with no FP32 time ("how much would bf16 save at $2/h?"): the share
    # of the bill is said; the FP32 time turns it into money.
    ADD_TIME_FOR_MONEY = "add_time_for_money"
    # "thanks!", "شكرا", "lol": small talk gets a short "you're welcome", not the usage list.
    SMALL_TALK = "small_talk"
    # A price came with the question but no cost can be made of it (unknown currency).
    PRICE_UNREADABLE = "price_unreadable"


# Ratios above this are outside the guide's typical range and get DOUBLE_CHECK.
TYPICAL_CEILING = 2.5
