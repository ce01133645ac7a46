"""Golden fixtures: knapsack calls captured from real ``torch.compile`` runs.

Modules: :mod:`.models` (the small and the real-scale zoo), :mod:`.capture`
(compile and record every solver call), :mod:`.fixtures` (the stored format;
the files are package data in ``data/``), :mod:`.replay` (judge solvers on
the fixtures, expected findings), :mod:`.findings` (upstream's exact
overruns and shortfalls per call), :mod:`.drift` (``golden check``),
:mod:`.cli` (``main(argv)``). tests/golden/README.md describes the fixtures
and how to regenerate them.
"""
