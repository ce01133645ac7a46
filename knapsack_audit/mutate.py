"""Mutation testing of a solver: how many plausible one-line bugs does ``verify`` catch?

:func:`mutants` makes first-order mutants of a solver's source with Python's
:mod:`ast` (no mutation library: mutmut and cosmic-ray mutate whole projects
and run a test command per mutant, whereas here each mutant is one function
audited in an isolated worker, and the operators below are the plausible
one-line bugs of a DP solver). The mutated function is the solver and every top-level
function of its module it calls, transitively. The operators (:data:`OPERATORS`):

============  ==============================================================
operator      change
============  ==============================================================
compare       ``<`` <-> ``<=``, ``>`` <-> ``>=``, ``==`` <-> ``!=``
constant      an integer constant ``k`` -> ``k + 1`` and ``k - 1``
slice         a slice bound or an index ``e`` -> ``e + 1`` and ``e - 1``
arithmetic    ``+`` <-> ``-``, and the operands of ``-``, ``/``, ``//`` swapped
minmax        a call of ``max`` <-> ``min`` (also ``torch.maximum``/``minimum``,
              ``argmax``/``argmin``)
statement     a statement (assignment, expression, augmented assignment)
              replaced by ``pass``
else          an ``else`` branch removed
============  ==============================================================

Each mutant is written as a whole-module file (relative imports made
absolute) and audited like ``verify FILE:FUNC`` (:func:`knapsack_audit.verify.verify_in`,
one worker loading the mutants in turn),
stopping at its first finding. A mutant is **killed** when the audit finds a
property failing that the unmutated solver passes, **timed out** when its only
new failure is a call timeout, and **survived** otherwise; a survivor is shown
as a diff so a person can judge whether it is equivalent, with the verdict of
:func:`probe`: the survivor and the original called side by side on
:data:`PROBE_CASES` random instances, in the worker. "No difference" makes
equivalence likely (not proved); a difference whose answers all pass every
one-call property is equivalent under the contract (another optimal
selection, another order); a difference where the mutant's answer fails a
property is a miss of ``verify``, with the input that shows it.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import difflib
import importlib.util
import random
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from knapsack_audit import properties as props
from knapsack_audit.cases import Case
from knapsack_audit.isolation import IsolatedSolver
from knapsack_audit.properties import Judge, Outcome
from knapsack_audit.reference.validation import SCALE, quantize
from knapsack_audit.targets import Target, TargetError, parse_target
from knapsack_audit.verify import AuditOptions, TargetReport, verify_in

PROBE_CASES = 3000
"""Random instances on which :func:`probe` compares a survivor with the original."""
PROBE_BATCH = 250
"""Probe calls per message to the worker."""

OPERATORS = ("compare", "constant", "slice", "arithmetic", "minmax", "statement", "else")

_COMPARE_FLIPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
}
_MINMAX = {
    "max": "min",
    "min": "max",
    "maximum": "minimum",
    "minimum": "maximum",
    "argmax": "argmin",
    "argmin": "argmax",
}


@dataclass(frozen=True)
class Mutant:
    """One first-order mutant: which operator changed which line, and the new source."""

    index: int
    operator: str
    line: int
    description: str
    source: str
    diff: str


@dataclass(frozen=True)
class MutantResult:
    """A mutant's verdict: ``killed``, ``timed out`` or ``survived`` (or ``error``)."""

    mutant: Mutant
    outcome: str
    properties: tuple[str, ...]
    seconds: float
    probe: str = ""
    """For a survivor: what :func:`probe` saw (empty for the others)."""


def source_file(target: Target) -> Path:
    """The file that defines the target's module, found without importing it
    (only its parent packages are imported for a module target)."""
    if target.path is not None:
        return Path(target.path)
    assert target.module is not None
    try:
        spec = importlib.util.find_spec(target.module)
    except ModuleNotFoundError as error:
        raise TargetError(f"module not found: {target.module} ({error})") from None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        raise TargetError(f"target {target.label}: no Python source for {target.module}")
    return Path(spec.origin)


def mutation_scope(tree: ast.Module, function: str) -> list[ast.FunctionDef]:
    """``function`` and the module's top-level functions it calls, transitively."""
    defined = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    if function not in defined:
        raise TargetError(f"no top-level function {function!r} in the source")
    chosen: list[str] = []
    pending = [function]
    while pending:
        name = pending.pop()
        if name in chosen:
            continue
        chosen.append(name)
        for node in ast.walk(defined[name]):
            called = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            if called and node.func.id in defined:  # type: ignore[attr-defined]
                pending.append(node.func.id)  # type: ignore[attr-defined]
    return [defined[name] for name in defined if name in chosen]


def module_scope(tree: ast.Module) -> list[ast.FunctionDef]:
    """Every function of a module: its top-level functions and the methods of
    its top-level classes (nested functions are part of their enclosing one)."""
    scope = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            scope.append(node)
        elif isinstance(node, ast.ClassDef):
            scope.extend(item for item in node.body if isinstance(item, ast.FunctionDef))
    return scope


def _functions(tree: ast.AST) -> list[ast.FunctionDef]:
    """Every function definition of ``tree`` in :func:`ast.walk` order (the
    same order in a deep copy, so an index names the same function there)."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]


def _points(node: ast.AST) -> Iterator[tuple[str, str, Callable[[ast.AST], ast.AST | None]]]:
    """The mutations of one node: (operator, description, apply)."""
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            if type(op) in _COMPARE_FLIPS:
                new = _COMPARE_FLIPS[type(op)]

                def flip(n: ast.AST, k: int = k, new: type[ast.cmpop] = new) -> ast.AST:
                    assert isinstance(n, ast.Compare)
                    n.ops[k] = new()
                    return n

                yield "compare", f"{type(op).__name__} -> {new.__name__}", flip
    if isinstance(node, ast.Constant) and type(node.value) is int:
        value: int = node.value
        for delta in (1, -1):

            def shift(n: ast.AST, new: int = value + delta) -> ast.AST:
                return ast.Constant(new)

            yield "constant", f"{value} -> {value + delta}", shift
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Add | ast.Sub):
            swapped: type[ast.operator] = ast.Sub if isinstance(node.op, ast.Add) else ast.Add

            def arith(n: ast.AST, swapped: type[ast.operator] = swapped) -> ast.AST:
                assert isinstance(n, ast.BinOp)
                n.op = swapped()
                return n

            yield "arithmetic", f"{type(node.op).__name__} -> {swapped.__name__}", arith
        if isinstance(node.op, ast.Sub | ast.Div | ast.FloorDiv):

            def operands(n: ast.AST) -> ast.AST:
                assert isinstance(n, ast.BinOp)
                n.left, n.right = n.right, n.left
                return n

            yield "arithmetic", "operands swapped", operands
    if isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if isinstance(node.func, ast.Attribute):
            name = node.func.attr
        if name in _MINMAX:
            other = _MINMAX[name]

            def minmax(n: ast.AST, other: str = other) -> ast.AST:
                assert isinstance(n, ast.Call)
                if isinstance(n.func, ast.Name):
                    n.func.id = other
                elif isinstance(n.func, ast.Attribute):
                    n.func.attr = other
                return n

            yield "minmax", f"{name} -> {other}", minmax
    if isinstance(node, ast.Slice | ast.Subscript):
        yield from _bound_points(node)
    docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Expr) and not docstring:
        yield "statement", "statement -> pass", lambda n: ast.Pass()
    if isinstance(node, ast.If | ast.For | ast.While) and node.orelse:

        def drop_else(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.If | ast.For | ast.While)
            n.orelse = []
            return n

        yield "else", "else branch removed", drop_else


def _bound_points(
    node: ast.Slice | ast.Subscript,
) -> Iterator[tuple[str, str, Callable[[ast.AST], ast.AST | None]]]:
    fields = ("lower", "upper") if isinstance(node, ast.Slice) else ("slice",)
    for name in fields:
        bound = getattr(node, name)
        if bound is None or isinstance(bound, ast.Slice | ast.Tuple | ast.Constant):
            continue
        for op, sign in ((ast.Add, "+"), (ast.Sub, "-")):

            def nudge(n: ast.AST, name: str = name, op: type[ast.operator] = op) -> ast.AST:
                setattr(n, name, ast.BinOp(getattr(n, name), op(), ast.Constant(1)))
                return n

            yield "slice", f"{ast.unparse(bound)} -> {ast.unparse(bound)} {sign} 1", nudge


class _Absolute(ast.NodeTransformer):
    """Relative imports made absolute, so the mutant file loads outside its package."""

    def __init__(self, package: str) -> None:
        self.package = package

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.ImportFrom:
        if node.level == 0:
            return node
        parts = self.package.split(".")
        base = parts[: len(parts) - node.level + 1]
        module = ".".join(base + ([node.module] if node.module else []))
        return ast.ImportFrom(module=module, names=node.names, level=0)


def mutants(source: str, function: str | None, package: str = "") -> tuple[str, list[Mutant]]:
    """The unmutated module source (as unparsed) and every first-order mutant of it:
    of ``function`` and its callees (:func:`mutation_scope`), or of every
    function of the module when ``function`` is ``None`` (:func:`module_scope`)."""
    tree = ast.parse(source)
    if package:
        tree = ast.fix_missing_locations(_Absolute(package).visit(tree))
    baseline = ast.unparse(tree)
    chosen = module_scope(tree) if function is None else mutation_scope(tree, function)
    scope = {id(node) for node in chosen}
    positions = [
        (i, j, node)
        for i, top in enumerate(_functions(tree))
        if id(top) in scope
        for j, node in enumerate(_body_nodes(top))
    ]
    found: list[Mutant] = []
    for i, j, node in positions:
        for k, (operator, description, _) in enumerate(_points(node)):
            mutated = copy.deepcopy(tree)
            top = _functions(mutated)[i]
            target = _body_nodes(top)[j]
            _, _, apply = list(_points(target))[k]
            replacement = apply(target)
            if replacement is not target:
                _replace(top, target, replacement)
            ast.fix_missing_locations(mutated)
            try:
                text = ast.unparse(mutated)
            except Exception:  # an unprintable mutant (say a constant where a name must be)
                continue
            diff = "".join(
                difflib.unified_diff(
                    baseline.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    "original",
                    "mutant",
                    n=1,
                )
            )
            line = getattr(node, "lineno", 0)
            found.append(Mutant(len(found), operator, line, description, text, diff))
    return baseline, found


def _body_nodes(function: ast.stmt) -> list[ast.AST]:
    """Every node of a function's body (not its signature's annotations), in order."""
    assert isinstance(function, ast.FunctionDef)
    nodes = [node for statement in function.body for node in ast.walk(statement)]
    annotations = {
        id(inner)
        for node in nodes
        if isinstance(node, ast.AnnAssign)
        for inner in ast.walk(node.annotation)
    }
    return [node for node in nodes if id(node) not in annotations]


def _replace(root: ast.AST, old: ast.AST, new: ast.AST | None) -> None:
    for parent in ast.walk(root):
        for name, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, name, new)
                return
            if isinstance(value, list) and any(item is old for item in value):
                setattr(parent, name, [new if item is old else item for item in value])
                return


_SHIM = """\
\"\"\"{label}, audited through {target}: written by knapsack-audit mutate.

Imports {target_module} afresh with {module} read from {source}: the
modules of {package} loaded before (by an earlier mutant) are dropped, so
every name imported from {module} is the mutant's.\"\"\"
import importlib
import importlib.abc
import importlib.util
import sys


class KnapsackAuditMutantFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            return importlib.util.spec_from_file_location(name, {source!r})
        return None


sys.meta_path[:] = [
    finder for finder in sys.meta_path if type(finder).__name__ != "KnapsackAuditMutantFinder"
]
for _name in [n for n in sys.modules if n in {stale!r} or n.startswith({prefix!r})]:
    del sys.modules[_name]
sys.meta_path.insert(0, KnapsackAuditMutantFinder())
{function} = getattr(importlib.import_module({target_module!r}), {function!r})
"""


def _module_source(target: Target, module: str) -> Path:
    """The file of ``module``, a module of the target's top-level package (a module target)."""
    if target.module is None:
        raise TargetError(
            f"--module needs a module target (package.module:function), got {target.label}"
        )
    root = target.module.split(".")[0]
    if not module.startswith(root + "."):
        raise TargetError(
            f"--module {module}: not a module of {root}, the package of {target.label}"
        )
    return source_file(Target(module, module, None, ""))


def _write_shims(
    folder: Path, target: Target, module: str, named_sources: Sequence[tuple[str, str]]
) -> list[Path]:
    """One module file and one loader ("shim") per (name, source); the shims are the targets."""
    assert target.module is not None
    package = module.rpartition(".")[0]
    shims = []
    for name, source in named_sources:
        module_file = folder / f"{name}_module.py"
        module_file.write_text(source, encoding="utf-8")
        shims.append(folder / f"{name}.py")
        shims[-1].write_text(
            _SHIM.format(
                label=f"{name} of {module}",
                target=target.label,
                target_module=target.module,
                module=module,
                source=str(module_file),
                package=package,
                stale=(package, target.module),
                prefix=package + ".",
                function=target.function,
            ),
            encoding="utf-8",
        )
    return shims


def run_mutation(
    target_text: str,
    options: AuditOptions,
    jobs: int = 1,
    limit: int | None = None,
    on_done: Callable[[TargetReport], None] | None = None,
    module: str | None = None,
    operators: Sequence[str] | None = None,
    lines: Sequence[int] | None = None,
) -> tuple[TargetReport, list[MutantResult]]:
    """Audit the unmutated solver and each mutant; classify the mutants.

    Without ``module`` the mutants are of the target's function and the
    functions of its module it calls; with ``module`` (a module of the
    target's package, say ``knapsack_audit.optimized.bounded``) they are of
    every function and method of that module, and each is audited through the
    target, imported afresh with the mutated module in place (a loader file
    per mutant, :data:`_SHIM`). The mutants are judged as the original would
    be (ours exactly on the extended domain, others with tolerance), whatever
    file they sit in. ``operators`` and ``lines`` (of the original source)
    keep only the mutants they name, numbered as in the whole run.
    """
    (target,) = parse_target(target_text)
    if module is None:
        path = source_file(target)
        package = (target.module or "").rpartition(".")[0]
        baseline_source, found = mutants(path.read_text(encoding="utf-8"), target.function, package)
    else:
        path = _module_source(target, module)
        baseline_source, found = mutants(path.read_text(encoding="utf-8"), None)
    unknown = sorted(set(operators or ()) - set(OPERATORS))
    if unknown:
        raise TargetError(
            f"unknown mutation operator(s) {', '.join(unknown)}; known: {', '.join(OPERATORS)}"
        )
    found = [
        mutant
        for mutant in found
        if (operators is None or mutant.operator in operators)
        and (lines is None or mutant.line in lines)
    ]
    if limit is not None:
        found = found[:limit]
    judged = dataclasses.replace(
        options,
        exact=target.is_ours if options.exact is None else options.exact,
        domain=options.domain or ("extended" if target.is_ours else "partitioner"),
    )
    with tempfile.TemporaryDirectory(prefix="knapsack-audit-mutants-") as folder:
        named = [("original", baseline_source)]
        named += [(f"mutant_{mutant.index:04d}", mutant.source) for mutant in found]
        if module is not None:
            files = _write_shims(Path(folder), target, module, named)
        else:
            files = [Path(folder) / f"{name}.py" for name, _ in named]
            for file, (_, source) in zip(files, named, strict=True):
                file.write_text(source, encoding="utf-8")
        (baseline,) = audit_in_one_worker(_targets(files[:1], target.function), judged)
        first_only = dataclasses.replace(
            judged,
            stop_at_first=True,
            skip=tuple(finding.property for finding in baseline.findings),
        )
        mutant_targets = _targets(files[1:], target.function)
        reports = audit_mutants(mutant_targets, first_only, jobs, on_done)
        results = [_classify(mutant, report) for mutant, report in zip(found, reports, strict=True)]
        survivors = [k for k, result in enumerate(results) if result.outcome == "survived"]
        if survivors:
            cases = probe_cases(PROBE_CASES, options.seed or 0, judged.domain or "partitioner")
            judge = Judge(exact=bool(judged.exact))
            original = _targets(files[:1], target.function)[0]
            with IsolatedSolver(original, options.call_timeout, options.memory_limit) as solver:
                for k in survivors:
                    seen = probe(solver, original, mutant_targets[k], judge, cases, first_only.skip)
                    results[k] = dataclasses.replace(results[k], probe=seen)
    return baseline, results


def probe_cases(count: int, seed: int, domain: str) -> list[Case]:
    """``count`` random instances where a survivor's change could show: mostly 1
    to 12 items, some up to 40, of 0 to 8 units or a rounding edge, runtimes tied,
    distinct, zero, float32-absorbed (``1e8``) or flop-sized (negative too in
    the extended domain), budgets anywhere from 0 to the total + 1 units."""
    rng = random.Random(seed)
    memories = [units / SCALE for units in range(9)] + [0.00015, 0.00025, 0.00035]
    runtimes = [0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 1e8] + ([-1.0] if domain == "extended" else [])
    instances = []
    for _ in range(count):
        n = rng.randint(1, 12) if rng.random() < 0.9 else rng.randint(13, 40)
        memory = tuple(rng.choice(memories) for _ in range(n))
        runtime = tuple(
            rng.choice(runtimes) if rng.random() < 0.8 else float(rng.randint(1, 10**9))
            for _ in range(n)
        )
        total = sum(quantize(m) for m in memory)
        instances.append(Case(memory, runtime, rng.randint(0, total + 1) / SCALE))
    return instances


def probe(
    solver: IsolatedSolver,
    original: Target,
    mutant: Target,
    judge: Judge,
    cases: Sequence[Case],
    skip: Sequence[str] = (),
) -> str:
    """Call the original and a surviving mutant on ``cases`` (in ``solver``'s
    worker) and say how their answers (value, saved set) differ.

    A differing answer of the mutant is judged by the one-call properties
    but ``determinism`` and ``skip`` (those the original fails): one failing
    is a miss of ``verify``; if none fails, the mutant is equivalent under
    the contract.
    """
    solver.retarget(original)
    expected = _probe_outcomes(solver, cases)
    solver.retarget(mutant)
    actual = _probe_outcomes(solver, cases)
    differing = [
        (case, outcome)
        for case, before, outcome in zip(cases, expected, actual, strict=True)
        if _answer(before) != _answer(outcome)
    ]
    if not differing:
        return f"no difference from the original on {len(cases)} random inputs: likely equivalent"
    wanted = [name for name in props.CALL_PROPERTIES if name not in (*skip, "determinism")]
    for case, outcome in differing:
        found = props.judge_outcome(solver, case, judge, outcome, wanted)
        if found:
            return (
                f"MISSED by verify: differs from the original on {case.as_call()}, "
                f"where it fails {found[0].property}: {found[0].message}"
            )
    unjudged = f" but {', '.join(skip)} (which the original fails)" if skip else ""
    return (
        f"differs from the original on {len(differing)} of {len(cases)} random inputs "
        f"(first: {differing[0][0].as_call()}), every answer passing the one-call "
        f"properties{unjudged}: equivalent under the contract"
    )


def _probe_outcomes(solver: IsolatedSolver, cases: Sequence[Case]) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for start in range(0, len(cases), PROBE_BATCH):
        batch = cases[start : start + PROBE_BATCH]
        try:
            outcomes += props.call_many(solver.call_many, batch)
        except Exception as error:  # a timeout or a dead worker: the whole batch failed
            outcomes += [Outcome(error=error)] * len(batch)
    return outcomes


def _answer(outcome: Outcome) -> object:
    """What a probe compares: the value and the saved set, or the error's type."""
    if outcome.error is not None:
        return type(outcome.error).__name__
    try:
        value, saved, _ = outcome.result
        return float(value), sorted(saved)
    except Exception:  # a malformed answer: compared as it is printed
        return repr(outcome.result)


def audit_in_one_worker(
    targets: Sequence[Target],
    options: AuditOptions,
    on_done: Callable[[TargetReport], None] | None = None,
) -> list[TargetReport]:
    """Audit the targets one after the other in one worker, which loads each in
    turn (a mutant loads in milliseconds where a new worker imports torch anew)."""
    reports = []
    with IsolatedSolver(targets[0], options.call_timeout, options.memory_limit) as solver:
        for target in targets:
            reports.append(verify_in(solver, target, options))
            if on_done is not None:
                on_done(reports[-1])
    return reports


def audit_mutants(
    targets: Sequence[Target],
    options: AuditOptions,
    jobs: int,
    on_done: Callable[[TargetReport], None] | None = None,
) -> list[TargetReport]:
    """:func:`audit_in_one_worker` over ``jobs`` interleaved shares, in parallel processes."""
    if jobs <= 1 or len(targets) <= 1:
        return audit_in_one_worker(targets, options, on_done)
    shares = [list(targets[k::jobs]) for k in range(jobs)]
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        parts = list(pool.map(audit_in_one_worker, shares, [options] * jobs))
    reports: list[TargetReport] = [None] * len(targets)  # type: ignore[list-item]
    for k, part in enumerate(parts):
        reports[k::jobs] = part
        for report in part:
            if on_done is not None:
                on_done(report)
    return reports


def _targets(files: Sequence[Path], function: str) -> list[Target]:
    return [Target(f"{file.name}:{function}", None, str(file), function) for file in files]


def verdict_of(report: TargetReport) -> tuple[str, tuple[str, ...]]:
    """A mutant's outcome from its audit, and the properties behind it:
    ``killed`` with ``("load",)`` when it does not load (a mutant that does
    not compile, say a deleted binding of a ``nonlocal`` name), ``timed out``
    when its only failures are call timeouts, ``killed`` when it fails
    another property the original passes, ``survived`` otherwise."""
    new = tuple(finding.property for finding in report.findings)
    if report.error is not None:
        return "killed", ("load",)
    if not new:
        return "survived", new
    if all(props.is_call_timeout(finding.actual) for finding in report.findings):
        return "timed out", new
    return "killed", new


def _classify(mutant: Mutant, report: TargetReport) -> MutantResult:
    outcome, new = verdict_of(report)
    return MutantResult(mutant, outcome, new, round(report.seconds, 1))


def summary_markdown(
    target_text: str, command: str, baseline: TargetReport, results: Sequence[MutantResult]
) -> str:
    """The mutation report: counts by outcome and operator, then every survivor's diff."""
    counts = {
        name: sum(r.outcome == name for r in results)
        for name in ("killed", "timed out", "survived")
    }
    total = len(results)
    detected = counts["killed"] + counts["timed out"]
    lines = [
        f"# Mutation testing: `{target_text}`",
        "",
        f"Command: `{command}`",
        "",
        f"Unmutated solver: {baseline.status} (failing: "
        f"{', '.join(f.property for f in baseline.findings) or 'none'}); a mutant is killed by a "
        "property the unmutated solver passes.",
        "",
        f"{total} mutants: {counts['killed']} killed, {counts['timed out']} timed out, "
        f"{counts['survived']} survived; score {detected}/{total}"
        + (f" = {100 * detected / total:.1f} %" if total else "")
        + " (before judging survivors equivalent).",
        "",
        f"Survivors probed against the original on {PROBE_CASES} random inputs: "
        f"{sum(r.probe.startswith('no difference') for r in results)} show no difference, "
        f"{sum(r.probe.startswith('differs') for r in results)} differ with correct answers "
        f"only, {sum(r.probe.startswith('MISSED') for r in results)} differ with a failing "
        "answer (missed by verify).",
        "",
        "| operator | mutants | killed | timed out | survived |",
        "|---|---|---|---|---|",
    ]
    for operator in OPERATORS:
        mine = [r for r in results if r.mutant.operator == operator]
        if mine:
            lines.append(
                f"| {operator} | {len(mine)} | "
                + " | ".join(
                    str(sum(r.outcome == o for r in mine))
                    for o in ("killed", "timed out", "survived")
                )
                + " |"
            )
    lines += ["", "## Survivors", ""]
    for result in results:
        if result.outcome != "survived":
            continue
        mutant = result.mutant
        lines += [
            f"### mutant {mutant.index}: {mutant.operator}, line {mutant.line}: "
            f"{mutant.description}",
            "",
            f"Probe: {result.probe}",
            "",
            "```diff",
            mutant.diff.rstrip(),
            "```",
            "",
        ]
    return "\n".join(lines) + "\n"
