"""``mpbot experiment``: measure the real FP32-vs-mixed-precision ratio.

The guide ends with "do a small experiment to verify the factor you chose";
this package is that experiment as one command. Only :mod:`options` and
:mod:`report` are importable without PyTorch, so ``mpbot --help`` and the bot
itself never load torch; the measuring modules import it when a run starts.
"""
