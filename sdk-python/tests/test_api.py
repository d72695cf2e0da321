"""The API in the Go host's shape: Env → compile → Program.eval/evaluate."""

from __future__ import annotations

import datetime as dt
import gc
import json
import os
import threading
import time
from pathlib import Path

import pytest

import celwasm
from celwasm import (
    ClosedError,
    CompileError,
    CostEstimate,
    CostLimitExceededError,
    DeadlineExceededError,
    EvaluationError,
    InvalidEnvError,
    Object,
    UInt,
)

from conftest import TESTDATA


def test_imported_package_is_the_installed_wheel() -> None:
    # make test installs the wheel into .venv and runs the tests against it.
    if os.environ.get("CELWASM_TEST_INSTALLED") != "1":
        pytest.skip("not run by make test")
    assert "site-packages" in celwasm.__file__, celwasm.__file__
    assert (Path(celwasm.__file__).parent / "celwasm.wasm").stat().st_size > 10_000_000


def test_reference_expressions(rt: celwasm.Runtime) -> None:
    # The core issue's reference set (a)-(d).
    event = json.loads((TESTDATA / "cloudevents" / "github-pull-request.json").read_text())
    a = rt.env({"ce": "map(string, dyn)"}).compile(
        'ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")'
    )
    assert a.output_type == "bool"
    assert a.evaluate({"ce": event}) is True
    assert a.evaluate({"ce": dict(event, source="https://gitlab.com/x")}) is False

    b = rt.env({"self": "dyn"}).compile("self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas")
    r = b.eval({"self": {"minReplicas": 1, "replicas": 3, "maxReplicas": 5}})
    assert (r.json, r.value) == (b"true", True)
    assert r.cost > 0
    assert b.evaluate({"self": {"minReplicas": 1, "replicas": 9, "maxReplicas": 5}}) is False

    import yaml

    docs = [d for d in yaml.safe_load_all((TESTDATA / "k8s" / "webapp.yaml").read_text()) if d]
    spec = next(d["spec"] for d in docs if len(d.get("spec", {}).get("items", [])) == 100)
    c = rt.env({"self": "dyn"}).compile("self.items.all(i, i.name.matches('^[a-z]+$'))")
    assert c.evaluate({"self": spec}) is True
    assert c.evaluate({"self": {"items": spec["items"] + [{"name": "Bad1"}]}}) is False

    d = rt.env({"self": "dyn"}).compile("quantity(self.mem).isLessThan(quantity('1Gi'))")
    assert d.evaluate({"self": {"mem": "512Mi"}}) is True
    assert d.evaluate({"self": {"mem": "2Gi"}}) is False


def test_program_metadata(rt: celwasm.Runtime) -> None:
    p = rt.env({"xs": "list(int)"}).compile("xs.map(x, x * 2)")
    assert p.expression == "xs.map(x, x * 2)"
    assert p.output_type == "list(int)"
    assert isinstance(p.cost_estimate, CostEstimate)
    assert 0 < p.cost_estimate.min <= p.cost_estimate.max
    assert p.evaluate({"xs": [1, 2, 3]}) == [2, 4, 6]
    untyped = rt.env(disable_type_check=True).compile("1 + 1")
    assert (untyped.output_type, untyped.cost_estimate) == ("dyn", None)
    assert untyped.evaluate() == 2


def test_compile_error_has_line_column_and_caret(rt: celwasm.Runtime) -> None:
    with pytest.raises(CompileError) as e:
        rt.env({"x": "int"}).compile("x +\n  y + z")
    err = e.value
    assert err.code == "compile_error"
    assert [(i.line, i.column) for i in err.issues] == [(2, 3), (2, 7)]
    assert (err.line, err.column) == (2, 3)
    assert err.snippet == "ERROR: <input>:2:3: undeclared reference to 'y' (in container '')\n |   y + z\n | ..^"
    assert "undeclared reference to 'y'" in err.issues[0].message
    assert str(err) == "\n".join(i.snippet for i in err.issues)


def test_invalid_env(rt: celwasm.Runtime) -> None:
    for kw in (
        {"extensions": ["nope"]},
        {"compatibility_version": "1.2"},
        {"variables": {"x": "lisst(int)"}},
        {"base": "nope"},
        {"extensions": ["strings"]},  # already in the Kubernetes base
        {"variables": [("x", "int"), ("x", "string")]},
    ):
        with pytest.raises(InvalidEnvError) as e:
            rt.env(**kw).compile("1")
        assert e.value.code == "invalid_env"


def test_compatibility_version_and_stored_expressions(rt: celwasm.Runtime) -> None:
    # semver() arrived in Kubernetes 1.33; sortBy in 1.34.
    with pytest.raises(CompileError):
        rt.env(compatibility_version="1.32").compile("semver('1.2.3').major()")
    assert rt.env(compatibility_version="1.33").compile("semver('1.2.3').major()").evaluate() == 1
    # StoredExpressions has every library, whatever the version.
    assert rt.env(compatibility_version="1.30", stored_expressions=True).compile("semver('1.2.3').minor()").evaluate() == 2
    assert rt.env(compatibility_version="1.34").compile("['b', 'a'].sortBy(x, x)").evaluate() == ["a", "b"]


def test_extensions_and_container(rt: celwasm.Runtime) -> None:
    with pytest.raises(CompileError):
        rt.env(base="cel").compile("math.greatest(1, 2)")
    assert rt.env(base="cel", extensions=["math"]).compile("math.greatest(1, 5, 3)").evaluate() == 5
    assert rt.env(base="cel", extensions=[("encoders", 0)]).compile("base64.encode(b'hi')").evaluate() == "aGk="
    assert rt.env(base="cel", extensions=[{"name": "strings", "version": 3}]).compile("'a,b'.split(',')").evaluate() == ["a", "b"]
    p = rt.env({"a.b.c": "int"}, base="cel", container="a.b").compile("c + 1")
    assert p.evaluate({"a.b.c": 41}) == 42
    with pytest.raises(CompileError):
        rt.env(base="cel", disable_macros=True).compile("[1].all(x, x > 0)")


def test_activation_forms(rt: celwasm.Runtime) -> None:
    p = rt.env({"self": "map(string, int)"}).compile("self.a + self.b")
    assert p.evaluate({"self": {"a": 1, "b": 2}}) == 3
    assert p.evaluate(b'{"self":{"a":1,"b":2}}') == 3
    assert p.evaluate('{"self": {"a": 10, "b": 20}}') == 30
    assert p.evaluate(bytearray(b'{"self":{"a":1,"b":1}}')) == 2
    # Declared types convert plain JSON (docs/value-encoding.md): decimal
    # strings to int, RFC 3339 strings to timestamps.
    assert p.evaluate({"self": {"a": "40", "b": 2}}) == 42
    t = rt.env({"t": "timestamp", "d": "duration"}).compile("t + d")
    assert t.evaluate({"t": "2026-01-01T10:00:00+02:00", "d": "1h30m"}) == dt.datetime(2026, 1, 1, 9, 30, tzinfo=dt.timezone.utc)
    # Python values JSON cannot carry go in the typed form by themselves.
    dyn = rt.env({"x": "dyn", "y": "dyn"}).compile("[type(x), type(y)]")
    assert [t.name for t in dyn.evaluate({"x": b"\x01", "y": dt.timedelta(seconds=1)})] == ["bytes", "google.protobuf.Duration"]
    # typed_activation wins over the plain activation.
    assert rt.env({"x": "dyn"}).compile("x").evaluate({"x": 1}, typed_activation={"x": UInt(7)}) == UInt(7)
    assert rt.env({"x": "dyn"}).compile("x").evaluate(typed_activation=b'{"x":{"uint":"8"}}') == UInt(8)
    q = rt.env({"q": "kubernetes.Quantity"}).compile("q.asApproximateFloat()")
    assert q.evaluate({"q": Object("kubernetes.Quantity", "1500m")}) == 1.5


def test_result_carries_canonical_json_and_cost(rt: celwasm.Runtime) -> None:
    p = rt.env({"xs": "list(int)"}).compile("xs.filter(x, x % 2 == 0)")
    r = p.eval({"xs": list(range(10))})
    assert r.json == b'[{"int":"0"},{"int":"2"},{"int":"4"},{"int":"6"},{"int":"8"}]'
    assert r.text == "[0, 2, 4, 6, 8]"
    assert r.cost > 0 and p.eval({"xs": list(range(100))}).cost > r.cost


def test_eval_error_and_cost_limit(rt: celwasm.Runtime) -> None:
    p = rt.env({"m": "map(string, int)"}).compile("m.missing + 1")
    with pytest.raises(EvaluationError) as e:
        p.eval({"m": {}})
    assert e.value.code == "eval_error" and "missing" in e.value.message and e.value.cost is not None
    with pytest.raises(EvaluationError):
        rt.env({"x": "int"}).compile("10 / x").eval({"x": 0})
    big = rt.env({"xs": "list(int)"}).compile("xs.map(a, xs.map(b, a * b)).size()")
    assert big.evaluate({"xs": list(range(10))}) == 10
    with pytest.raises(CostLimitExceededError) as e:
        big.eval({"xs": list(range(100))}, cost_limit=1000)
    assert e.value.cost is not None and e.value.cost > 1000


def test_program_close_and_context_manager(rt: celwasm.Runtime) -> None:
    env = rt.env({"x": "int"})
    with env.compile("x * 2") as p:
        assert p.evaluate({"x": 21}) == 42
    assert p.closed
    with pytest.raises(ClosedError):
        p.evaluate({"x": 1})
    p.close()  # idempotent


def _handles(rt: celwasm.Runtime) -> set:
    # Acquiring an instance releases the handles of programs freed since its
    # last use; then report what every idle instance still holds.
    pis = [rt._acquire(None) for _ in range(len(rt._live))]
    try:
        return {pid for pi in pis for pid in pi.handles}
    finally:
        for pi in pis:
            rt._put(pi)


def test_programs_are_freed_on_close_and_garbage_collection(rt: celwasm.Runtime) -> None:
    env = rt.env({"x": "int"})
    p1 = env.compile("x + 1")
    p2 = env.compile("x + 2")
    id1, id2 = p1._id, p2._id
    assert {id1, id2} <= _handles(rt)
    p1.close()
    del p2
    gc.collect()
    held = _handles(rt)
    assert id1 not in held and id2 not in held
    # The guest releases the handle too: a raw eval with it fails.
    pi = rt._acquire(None)
    try:
        resp = pi.instance.eval(b'{"program":999999}')
    finally:
        rt._put(pi)
    assert b'"unknown_program"' in resp


def test_version(rt: celwasm.Runtime) -> None:
    v = rt.version()
    assert v.abi == 1 and v.cel_go == "v0.29.2"
    assert "1.37" in v.compatibility_versions and v.default_cost_limit == celwasm.DEFAULT_COST_LIMIT
    assert len(v.module_sha256) == 64 and v.engine.startswith("wasmtime-py ")
    assert v.module_sha256 == rt.module.sha256


def test_default_runtime_and_env_without_runtime() -> None:
    p = celwasm.Env({"x": "int"}).compile("x + 1")
    assert p.evaluate({"x": 1}) == 2
    assert celwasm.default_runtime() is celwasm.default_runtime()


def test_threads_share_a_pool(rt: celwasm.Runtime) -> None:
    """8 threads share one program and a pool of two instances; every result is
    checked against its own input (CELWASM_CONCURRENCY_EVALS per thread, 2,000
    by default)."""
    p = rt.env({"n": "int", "s": "string"}).compile("[dyn(n * 3), dyn(s + '!')]")
    per = int(os.environ.get("CELWASM_CONCURRENCY_EVALS", "2000"))
    errors: list = []
    done = [0] * 8

    def work(k: int) -> None:
        try:
            for i in range(per):
                n = k * 1_000_000 + i
                got = p.evaluate({"n": n, "s": "t%d-%d" % (k, i)})
                if got != [n * 3, "t%d-%d!" % (k, i)]:
                    raise AssertionError("thread %d eval %d: got %r" % (k, i, got))
                done[k] += 1
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert done == [per] * 8
    assert 1 <= rt.instances <= 2


def _pool_work(k: int) -> list:
    import celwasm as cw

    p = cw.Env({"n": "int"}).compile("n * n + 1")
    return [(n, p.evaluate({"n": n})) for n in range(k * 1000, k * 1000 + 200)]


def test_process_pool() -> None:
    """A process pool (spawned, so each process loads the module from the cache):
    every result belongs to its own input."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(2) as pool:
        for chunk in pool.map(_pool_work, range(4)):
            assert len(chunk) == 200
            for n, got in chunk:
                assert got == n * n + 1


def test_timeout_interrupts_and_the_instance_survives(rt: celwasm.Runtime) -> None:
    xs = list(range(40))
    p = rt.env({"xs": "list(int)"}).compile("xs.map(a, xs.map(b, xs.map(c, xs.map(d, a + b + c + d)))).size()")
    before = rt.instances
    t0 = time.monotonic()
    with pytest.raises(DeadlineExceededError) as e:
        p.eval({"xs": xs}, cost_limit=2**64 - 1, timeout=0.05)
    elapsed = time.monotonic() - t0
    assert isinstance(e.value, TimeoutError)
    assert e.value.code == "deadline_exceeded" and e.value.cost is not None and e.value.cost > 0
    assert elapsed < 2.0
    # Interrupted through the flag, not trapped: the instance is kept.
    assert rt.instances == before
    assert p.evaluate({"xs": [1]}, timeout=5.0) == 1
    assert rt.env({"x": "int"}).compile("x").evaluate({"x": 3}) == 3


def test_instance_interrupt_from_another_thread(module: celwasm.Module) -> None:
    inst = module.instantiate()
    try:
        resp = inst.compile(
            b'{"expression":"[1,2,3,4,5,6,7,8,9,10].map(a,[1,2,3,4,5,6,7,8,9,10].map(b,[1,2,3,4,5,6,7,8,9,10].map(c,'
            b'[1,2,3,4,5,6,7,8,9,10].map(d,[1,2,3,4,5,6,7,8,9,10].map(e,[1,2,3,4,5,6,7,8,9,10].map(f,a+b+c+d+e+f))))))",'
            b'"env":{"base":"cel"}}'
        )
        handle = json.loads(resp)["program"]
        timer = threading.Timer(0.05, inst.interrupt)
        timer.start()
        out = inst.eval(b'{"program":%d,"costLimit":18446744073709551615}' % handle)
        timer.join()
        err = json.loads(out)["error"]
        assert err["code"] == "canceled" and err["cost"] > 0
        # The flag is cleared before the next call.
        assert inst.free(handle) is True
        assert json.loads(inst.version())["abi"] == 1
    finally:
        inst.close()


def test_runtime_close(module: celwasm.Module) -> None:
    r = celwasm.Runtime(instances=1, module=module)
    p = r.env().compile("1")
    r.close()
    with pytest.raises(ClosedError):
        p.evaluate()
    with pytest.raises(ClosedError):
        r.env().compile("1")


def test_declarative_authorizer_and_presence_tests(rt: celwasm.Runtime) -> None:
    env = rt.env({"authorizer": "kubernetes.authorization.Authorizer"})
    p = env.compile(
        "[authorizer.group('apps').resource('deployments').namespace('shop').check('delete').allowed(),"
        " authorizer.group('').resource('pods').check('get').allowed()]"
    )
    az = Object(
        "kubernetes.authorization.Authorizer",
        {
            "user": {"name": "alice"},
            "rules": [
                {"apiGroup": "apps", "resource": "deployments", "namespace": "shop", "verb": "delete", "decision": "deny"},
                {"resource": "pods", "verb": "*"},
            ],
        },
    )
    assert p.evaluate({"authorizer": az}) == [False, True]
    assert rt.env({"x": "dyn"}, base="cel").compile("has(x.f)").evaluate({"x": 1}) is False
    with pytest.raises(EvaluationError):
        rt.env({"x": "dyn"}, base="cel", error_on_bad_presence_test=True).compile("has(x.f)").evaluate({"x": 1})


def test_function_declarations(rt: celwasm.Runtime) -> None:
    fns = [{"name": "shout", "overloads": [{"id": "shout_string", "args": ["string"], "result": "string"}]}]
    p = rt.env({"s": "string"}, base="cel", functions=fns).compile("shout(s)")
    assert p.output_type == "string"
    with pytest.raises(EvaluationError):  # declared for checking only: no implementation
        p.evaluate({"s": "x"})
    with pytest.raises(CompileError):
        rt.env({"s": "string"}, base="cel").compile("shout(s)")


def test_readme_example_runs() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    code = readme.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
