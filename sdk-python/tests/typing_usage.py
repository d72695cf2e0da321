"""Checked by `mypy --strict` against the installed package (make test): the
public API is typed (py.typed) for users. Not collected by pytest."""

from __future__ import annotations

import datetime as dt

import celwasm


def check(rt: celwasm.Runtime) -> bool:
    env: celwasm.Env = rt.env({"self": "map(string, dyn)"}, compatibility_version="1.34", extensions=[])
    prg: celwasm.Program = env.compile("self.a == 1", timeout=1.0)
    res: celwasm.Result = prg.eval({"self": {"a": 1}}, cost_limit=1000, timeout=0.5)
    body: bytes = res.json
    cost: int = res.cost
    est: celwasm.CostEstimate | None = prg.cost_estimate
    ts = celwasm.Timestamp(2026, 1, 1, tzinfo=dt.timezone.utc, nanosecond=5)
    ns: int = ts.nanosecond + celwasm.Duration.from_nanoseconds(7).total_nanoseconds
    opt = celwasm.OptionalValue.of(celwasm.UInt(3))
    v: celwasm.VersionInfo = rt.version()
    try:
        prg.evaluate(typed_activation={"x": opt})
    except celwasm.CompileError as e:
        line: int = e.issues[0].line if e.issues else e.line
        _ = line
    except celwasm.CelError as e:
        code: str = e.code
        _ = code
    flt: celwasm.Program = env.compile_filter({"exact": {"type": "a"}}, timeout=1.0)
    when: celwasm.Program = env.compile_when(["$(params.x) == 'y'"])
    cel: str = flt.expression + when.expression
    one: celwasm.Result = flt.eval_event(b'{"specversion":"1.0"}', cost_limit=10)
    results: list[celwasm.Result | celwasm.CelError] = flt.eval_batch([{"specversion": "1.0"}, "{}"], celwasm.CLOUD_EVENTS, timeout=2.0)
    matched = sum(1 for r in results if isinstance(r, celwasm.Result) and r.value is True)
    acts = when.eval_batch(["{}"], celwasm.ACTIVATIONS)
    crd: celwasm.CRD = rt.crd("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n")
    val: celwasm.CRDValidation = crd.validate([{"apiVersion": "example.com/v1"}, celwasm.CRDObject("{}", old_object=b"{}")], version="v1", timeout=1.0)
    for r in val.results:
        if isinstance(r, celwasm.ObjectResult):
            errs: tuple[celwasm.FieldError, ...] = r.errors
            spent: int = r.cost + r.cost_budget
            _ = (errs, spent, r.describe())
    rep: celwasm.CRDCostReport = celwasm.CRD({"kind": "CustomResourceDefinition"}, runtime=rt).cost(version="v1")
    total: int = sum(s.total_cost for s in rep.schemas)
    fixes = [f.value for s in rep.schemas for rc in s.rules if rc.explanation for f in rc.explanation.fixes]
    try:
        crd.cost()
    except celwasm.InvalidCRDError as e:
        fes: tuple[celwasm.FieldError, ...] = e.field_errors
        _ = fes
    _ = (body, cost, est, ns, v, cel, one, matched, acts, total, fixes)
    return bool(res.value)
