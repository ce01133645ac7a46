"""Golden fixtures: knapsack calls captured from real ``torch.compile`` runs (issue #6).

Modules: :mod:`.models` (the zoo), :mod:`.capture` (compile and record every
solver call), :mod:`.fixtures` (the stored format), :mod:`.replay` (judge
solvers on the fixtures, expected findings), :mod:`.cli` (``main(argv)``).
tests/golden/README.md describes the fixtures and how to regenerate them.
"""
