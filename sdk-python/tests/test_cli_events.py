"""`python -m celwasm filter` and `python -m celwasm when` print the same bytes,
and exit with the same status, as the Go CLI (build/celwasm filter / when).

Every case runs through both CLIs; the Go CLI's output is the expectation:
the trigger filters of conformance/testdata/filters over
conformance/testdata/cloudevents/events.ndjson (cmd/celwasm TestFilterExamples),
the rejected filters and malformed events of TestFilterRejects, the Tekton
cases of TestWhenExpressions over conformance/testdata/tekton, and the flags'
edge cases. Stdout and the exit status must be identical; so must stderr
(the summary lines, per-event errors, compile errors, --explain), except
where the Go flag package prints its own usage text, or the text of an OS or
YAML parser error differs.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

import pytest

from celwasm import _cli

from conftest import TESTDATA, go_cli, without_compile_line

GO = go_cli()
pytestmark = pytest.mark.skipif(GO is None, reason="Go CLI (build/celwasm) not built; make -C .. cli builds it")

FILTERS = TESTDATA / "filters"
EVENTS = str(TESTDATA / "cloudevents" / "events.ndjson")
CONTEXT = str(TESTDATA / "tekton" / "pipelinerun-context.json")
FILTER_FILES = sorted(p.name for p in FILTERS.glob("*.yaml"))

FILES: Dict[str, Union[str, bytes]] = {
    # cmd/celwasm TestFilterRejects
    "two.yaml": "attributes: {type: a}\nexpression: ce.type == 'a'\n",
    "unknown.yaml": "regex: {type: a}\n",
    "exact2.yaml": "exact: {type: a, source: b}\n",
    "cesql.yaml": "cesql: \"type = 'a'\"\n",
    "both.yaml": "spec:\n  filter: {attributes: {type: a}}\n  filters: [{exact: {type: a}}]\n",
    "badexpr.yaml": "expression: ce.type ==\n",
    "notbool.yaml": "expression: ce.type\n",
    "ok.yaml": "attributes: {type: a}\n",
    # More filter files: several documents (each a filter, AND-ed), JSON, a Trigger, empty, bad YAML.
    "multi.yaml": "# two filters\nprefix: {type: com.github.}\n---\nnot: {exact: {type: com.github.push}}\n",
    "multi-bad.yaml": "prefix: {type: com.github.}\n---\nexpression: ce.nope(\n",
    "filter.json": '{"any": [{"suffix": {"source": "/nightly"}}, {"exact": {"subject": "123"}}]}',
    "trigger.yaml": (
        "apiVersion: eventing.knative.dev/v1\nkind: Trigger\nmetadata: {name: t}\n"
        "spec:\n  broker: default\n  filter:\n    attributes: {type: dev.knative.sources.ping, source: /apis/v1/namespaces/shop/pingsources/nightly}\n"
        "  subscriber: {ref: {kind: Service, name: s}}\n"
    ),
    "empty.yaml": "# nothing\n",
    "badyaml.yaml": "a: [1\n",
    "ctime.yaml": "expression: string(ce.time) > '2026-11-20T15:00:00Z' && ce.time < timestamp('2026-11-21T00:00:01Z')\n",
    "data.yaml": "expression: \"has(data.latency) ? data.latency > 300.0 : data == 'nightly report'\"\n",
    # Events in other shapes: a JSON array, CRLF and blank lines, a line with \r inside, binary bodies.
    "events-array.json": b'[\n  {"specversion": "1.0", "id": "1", "source": "/s", "type": "a"},\n  {"specversion": "1.0", "id": "2", "source": "/s", "type": "b"},\n  {"headers": {"ce-specversion": "1.0", "ce-id": "3", "ce-source": "/s", "ce-type": "a"}, "body": "x"}\n]\n',
    "events-crlf.ndjson": (
        b'{"specversion":"1.0","id":"1","source":"/s","type":"a"}\r\n\r\n   \r\n'
        b'\xc2\xa0{"specversion":"1.0","id":"2","source":"/s","type":"a"}\xe3\x80\x80\r\n'
        b'{"specversion":"1.0","id":"3","source":"/s","type":"a"}\r{"x":1}\n'
        b'{"headers":{"ce-specversion":"1.0","ce-id":"4","ce-source":"/s","ce-type":"a","content-type":"application/json"},"bodyBase64":"eyJuIjogMX0="}\n'
        b'{"headers":{"ce-specversion":"1.0","ce-id":"5","ce-type":"a","content-type":"application/json"},"body":"[1, 2"}\n'
        b'[1]\n'
        b'{"specversion":"1.0","id":"7","source":"/s","type":"a","time":"yesterday"}'
    ),
    # Tekton contexts: YAML, two documents, not an object.
    "ctx.yaml": "params: {path: README.md, branch: release/v1.2}\ntasks:\n  unit-test: {results: {test-coverage: '0.93'}}\n  status: Succeeded\n",
    "ctx2.yaml": "params: {path: a}\n---\nparams: {path: b}\n",
    "ctxlist.yaml": "- a\n- b\n",
}

MALFORMED = (
    b'{"specversion":"1.0","type":"a"}\n{not json\n{"no":"specversion"}\n'
    b'{"headers":{"ce-specversion":"1.0","ce-type":"a","content-type":"application/json"},"body":"{bad"}\n'
    b'{"specversion":"1.0","type":"b"}\n'
)
ONE = b'{"specversion":"1.0","id":"1","source":"s","type":"a"}'

Case = Tuple[List[str], Optional[bytes]]
CASES: List[Case] = []
# TestFilterExamples: every fixture over events.ndjson.
CASES += [(["filter", "--filter", str(FILTERS / f), "-i", EVENTS], None) for f in FILTER_FILES]
CASES += [
    (["filter", "--explain", "--filter", str(FILTERS / "14-dotted-extension-attributes.yaml")], None),
    (["filter", "--explain", "--filter", str(FILTERS / "20-subscriptions-dialects.yaml")], None),
    (["filter", "--explain", "--filter", str(FILTERS / "08-prefix-match-not-cel.yaml")], None),
    (["filter", "--explain", "--filter", str(FILTERS / "11-complex-boolean.yaml"), "-i", EVENTS], None),
    (["filter", "--fail-open", "--filter", str(FILTERS / "16-nested-extension-expression.yaml"), "-i", EVENTS], None),
    (["filter", "--fail-open", "--filter", "@notbool.yaml", "-i", EVENTS], None),
    (["filter", "--cost-limit", "3", "--filter", str(FILTERS / "09-prefix-matches-regex.yaml"), "-i", EVENTS], None),
    (["filter", "--cost-limit", "0x10", "--fail-open", "--filter", str(FILTERS / "11-complex-boolean.yaml"), "-i", EVENTS], None),
    (["filter", "--cost-limit=0", "--filter", str(FILTERS / "19-data-number-field.yaml"), "-i", EVENTS], None),
    (["filter", "--engine", "wasmtime", "--filter", str(FILTERS / "07-prefix-startswith.yaml"), "-i", EVENTS], None),
]
# TestFilterRejects: each rejected filter with one event on stdin, then malformed events.
CASES += [
    (["filter", "--filter", "@" + f, "-i", "-"], ONE)
    for f in ("two.yaml", "unknown.yaml", "exact2.yaml", "cesql.yaml", "both.yaml", "badexpr.yaml", "notbool.yaml")
]
CASES += [
    (["filter", "--filter", "@ok.yaml", "-i", "-"], MALFORMED),
    (["filter", "--fail-open", "--filter", "@ok.yaml", "-i", "-"], MALFORMED),
    (["filter", "--filter", "@ok.yaml", "-i", "-"], b""),
    (["filter", "--filter", "@ok.yaml", "-i", "-"], b"  \n\n"),
    (["filter", "--filter", "@ok.yaml", "-i", "@events-array.json"], None),
    (["filter", "--filter", "@ok.yaml", "-i", "@events-crlf.ndjson"], None),
    (["filter", "--fail-open", "--filter", "@ok.yaml", "-i", "@events-crlf.ndjson"], None),
    (["filter", "--filter", "@data.yaml", "-i", "@events-crlf.ndjson"], None),
    (["filter", "--filter", "@multi.yaml", "-i", EVENTS], None),
    (["filter", "--explain", "--filter", "@multi.yaml"], None),
    (["filter", "--filter", "@multi-bad.yaml", "-i", EVENTS], None),
    (["filter", "--filter", "@filter.json", "-i", EVENTS], None),
    (["filter", "--filter", "@trigger.yaml", "-i", EVENTS], None),
    (["filter", "--filter", "@ctime.yaml", "-i", EVENTS], None),
    (["filter", "--filter", "@data.yaml", "-i", EVENTS], None),
    (["filter", "--filter", "@ok.yaml", "-i", str(TESTDATA / "cloudevents" / "binary-github-push.json")], None),
    (["filter", "--filter", "@data.yaml", "-i", str(TESTDATA / "cloudevents" / "binary-ping.json")], None),
    (["filter", "--filter", "@data.yaml", "-i", str(TESTDATA / "cloudevents" / "observation.json")], None),
    # Usage and input errors.
    (["filter"], None),
    (["filter", "-i", EVENTS], None),
    (["filter", "--filter", "@ok.yaml"], None),
    (["filter", "--filter", "@ok.yaml", "-i", EVENTS, "extra"], None),
    (["filter", "--filter", "/nonexistent/filter.yaml", "-i", EVENTS], None),
    (["filter", "--filter", "@ok.yaml", "-i", "/nonexistent/events.ndjson"], None),
    (["filter", "--filter", "@empty.yaml", "-i", EVENTS], None),
    (["filter", "--filter", "@badyaml.yaml", "-i", EVENTS], None),
    (["filter", "--cost-limit", "-1", "--filter", "@ok.yaml", "-i", EVENTS], None),
    (["filter", "--engine", "nope", "--filter", "@ok.yaml", "-i", EVENTS], None),
    (["filter", "--nope"], None),
]
# TestWhenExpressions.
WHEN = [
    ["$(params.path) == 'README.md'"],
    ["$(tasks.check-file.results.exists) in ['yes']"],
    ["$(tasks.echo-file-exists.status) == 'Succeeded'", "$(tasks.status) == 'Succeeded'", "$(tasks.check-file.results.exists) == 'yes'", "$(params.path) == 'README.md'"],
    ["$(params.param1) != '' || $(params.param2) == '8.5' || $(params.param2) == '8.6'"],
    ["$(tasks.unit-test.results.test-coverage) >= 0.9"],
    ["$(tasks.unit-test.results.test-coverage) >= 0.95"],
    ["$(params.branch).matches('release/.*')"],
    ["'foo' in ['foo', 'bar']", "!('duh' in ['foo', 'bar'])"],
    ["'refs/heads/$(params.branch)' == 'refs/heads/release/v1.2'"],
    ["$(context.pipelineRun.name).startsWith('guarded-pr-')", "$(params.path) == 'nope'"],
    # A value holding CEL is a value: the injection attempt compares false.
    ["$(params.injection) == 'x'"],
    ["'$(params.injection)' == 'x'"],
    # Errors: not a bool, unknown reference, missing value, syntax.
    ["$(params.path)"],
    ["$(workspaces.source.path) == ''"],
    ["$(params.nope) == ''"],
    ["$(params.path) =="],
]
for exprs in WHEN:
    args = ["when", "--context", CONTEXT]
    for e in exprs:
        args += ["-e", e]
    CASES.append((args, None))
CASES += [
    (["when", "--explain", "--context", CONTEXT, "-e", "'$(params.injection)' == 'x'"], None),
    (["when", "--explain", "--context", CONTEXT, "-e", "$(params['injection']) == \"x' == 'x' || true || 'y\"", "-e", "$(tasks.status) == 'Succeeded'"], None),
    (["when", "--context", "@ctx.yaml", "-e", "$(tasks.unit-test.results.test-coverage) > 0.5", "-e", "$(params.branch).startsWith('release/')"], None),
    (["when", "-e", "1 < 2"], None),
    (["when", "-e", "$(params.x) == ''"], None),
    (["when"], None),
    (["when", "--context", CONTEXT], None),
    (["when", "--context", CONTEXT, "-e", "true", "extra"], None),
    (["when", "--context", "/nonexistent/ctx.json", "-e", "true"], None),
    (["when", "--context", "@ctx2.yaml", "-e", "true"], None),
    (["when", "--context", "@ctxlist.yaml", "-e", "true"], None),
    (["when", "--context", "@empty.yaml", "-e", "true"], None),
    (["when", "--engine", "nope", "-e", "true"], None),
    (["when", "--explain=maybe", "-e", "true"], None),
]


def _materialize(args: List[str], d: Path) -> List[str]:
    return [str(d / a[1:]) if a.startswith("@") else a for a in args]


def _comparable_stderr(go_stderr: bytes) -> bool:
    """Whether stderr can be compared byte for byte: not Go's flag usage text,
    not an OS error message (Go's are lower case), not a YAML parser's
    message (go-yaml's and libyaml's differ)."""
    return not any(s in go_stderr for s in (b"Usage of", b"no such file"))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli-events")
    for name, data in FILES.items():
        (d / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return d


@pytest.fixture(scope="module")
def go_results(files: Path) -> Dict[int, Tuple[int, bytes, bytes]]:
    assert GO is not None

    def run(i: int) -> Tuple[int, Tuple[int, bytes, bytes]]:
        args, stdin = CASES[i]
        # The Go CLI on wasmtime-go starts in ~0.1 s (wazero: ~0.8 s); the bytes are the
        # same on both engines. A case's own --engine comes later and wins.
        argv = _materialize(args, files)
        if argv:
            argv = argv[:1] + ["--engine", "wasmtime"] + argv[1:]
        p = subprocess.run([GO] + argv, input=stdin or b"", capture_output=True, timeout=120, cwd=files)
        return i, (p.returncode, p.stdout, p.stderr)

    with ThreadPoolExecutor(max_workers=2) as ex:
        return dict(ex.map(run, range(len(CASES))))


def _py(args: List[str], stdin: Optional[bytes]) -> Tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    rc = _cli.run(args, stdin=io.BytesIO(stdin or b""), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("i", range(len(CASES)), ids=[" ".join(Path(a).name if "/" in a else a for a in c[0])[:70] for c in CASES])
def test_same_output_as_go(i: int, files: Path, go_results: Dict[int, Tuple[int, bytes, bytes]]) -> None:
    args, stdin = CASES[i]
    rc, out, err = _py(_materialize(args, files), stdin)
    go_rc, go_out, go_err = go_results[i]
    assert (rc, out) == (go_rc, go_out), err
    if _comparable_stderr(go_err):
        assert without_compile_line(err) == without_compile_line(go_err.decode("utf-8")), "stderr differs"


def test_the_cases_cover_every_outcome(go_results: Dict[int, Tuple[int, bytes, bytes]]) -> None:
    assert {rc for rc, _, _ in go_results.values()} == {0, 1, 2}
    # Fail closed with evaluation errors, fail open, compile errors with carets, per-event errors.
    errs = b"".join(e for _, _, e in go_results.values())
    for needle in (b"evaluation errors (fail closed)", b"(fail open)", b"ERROR: <input>", b"event 2: eval_error", b"not a bool", b"delivered ", b"invalid_activation"):
        assert needle in errs, needle
    # The Tekton cases print true and false.
    outs = {o for _, o, _ in go_results.values()}
    assert b"true\n" in outs and b"false\n" in outs


def test_filter_fixture_summaries(go_results: Dict[int, Tuple[int, bytes, bytes]]) -> None:
    # The fixtures with evaluation errors fail closed (counts come from the Go CLI above).
    for i, f in enumerate(FILTER_FILES):
        rc, out, err = go_results[i]
        if b"ERROR: <input>" in err or b"invalid key name" in err:  # a CEL error, or Knative's webhook
            assert rc == 1 and out == b"", f
            continue
        assert rc == 0 and err.endswith(b"(fail closed)\n"), f


@pytest.mark.parametrize(
    "i",
    [
        CASES.index((["filter", "--filter", str(FILTERS / "16-nested-extension-expression.yaml"), "-i", EVENTS], None)),
        CASES.index((["filter", "--fail-open", "--filter", "@ok.yaml", "-i", "-"], MALFORMED)),
    ],
    ids=["filter", "fail-open"],
)
def test_python_dash_m_celwasm_filter(i: int, files: Path, go_results: Dict[int, Tuple[int, bytes, bytes]]) -> None:
    args, stdin = CASES[i]
    p = subprocess.run([sys.executable, "-m", "celwasm"] + _materialize(args, files), input=stdin or b"", capture_output=True, timeout=300, cwd=files, env=dict(os.environ))
    go_rc, go_out, go_err = go_results[i]
    assert (p.returncode, p.stdout, p.stderr) == (go_rc, go_out, go_err)


def test_python_dash_m_celwasm_when(files: Path, go_results: Dict[int, Tuple[int, bytes, bytes]]) -> None:
    i = next(j for j, (a, _) in enumerate(CASES) if a[:2] == ["when", "--explain"])
    args, stdin = CASES[i]
    p = subprocess.run([sys.executable, "-m", "celwasm"] + _materialize(args, files), input=stdin or b"", capture_output=True, timeout=300, cwd=files, env=dict(os.environ))
    assert (p.returncode, p.stdout, p.stderr) == go_results[i]
    assert p.stderr.startswith(b"string(params.injection) == 'x'\n") and p.stdout == b"false\n"
