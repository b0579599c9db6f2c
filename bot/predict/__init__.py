"""``mpbot predict``: the mixed-precision ratio of a model on a named GPU, without the GPU.

One training step (forward, backward, AdamW) is traced on the CPU with fake
tensors (:mod:`trace`, the only module that needs torch), every operator is
timed on the GPU's published peaks by a calibrated roofline (:mod:`roofline`,
:mod:`calibration`), and the report says what limits the gain (:mod:`report`).
Like ``mpbot experiment``, only the torch-free modules load without PyTorch.
"""
