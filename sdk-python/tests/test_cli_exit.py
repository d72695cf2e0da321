"""The exit-status rule (cmd/celwasm's package doc, README "Command line"):
0 a result, 1 a compile, evaluation or validation failure (when: false),
2 bad usage or unreadable input (when: any error) — for every command, with
the same status and the same bytes on stdout and stderr from
`python -m celwasm` as from the Go CLI (cmd/celwasm/exit_test.go holds the
same cases). Also the first-run progress line (Module's on_compile)."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path
from typing import List, Optional, Tuple

import pytest
import wasmtime

import celwasm
from celwasm import _cli

from conftest import REPO, TESTDATA, go_cli

GO = go_cli()
CRD = str(REPO / "conformance" / "testdata" / "crd")
EV = str(TESTDATA / "cloudevents" / "ping.json")
CTX = str(TESTDATA / "tekton" / "pipelinerun-context.json")
ADM = str(REPO / "sdk-js" / "test" / "fixtures" / "admission")

FILES = {
    "bad.yaml": "a: [\n",
    "deep.json": '{"a":' * 5000 + "1" + "}" * 5000,
    "ok.yaml": "attributes: {type: dev.knative.sources.ping}\n",
    "badexpr.yaml": "expression: ce.type ==\n",
    "empty.yaml": "# nothing\n",
    "two.yaml": "a: 1\n---\nb: 2\n",
}

# (arguments, stdin, exit status); "@name" is a file of FILES.
CASES: List[Tuple[List[str], Optional[bytes], int]] = [
    (["eval", "-e", "1 + 1"], None, 0),
    (["eval", "-e", "self.a", "-i", "-"], b"a: 1\n", 0),
    (["eval", "-e", "1 +"], None, 1),
    (["eval", "-e", "self.b", "-i", "-"], b"a: 1\n", 1),
    (["eval", "-e", "y + 1", "-i", "-"], b"a: 1\n", 1),
    (["eval", "-e", "1", "-o", "yaml"], None, 2),
    (["eval", "-e", "1", "--engine", "foo"], None, 2),
    (["eval", "-e", "self", "-i", "@missing.json"], None, 2),
    (["eval", "-e", "self", "-i", "@bad.yaml"], None, 2),
    (["eval", "-e", "self", "-i", "@deep.json"], None, 2),
    (["eval", "-e", "self", "-i", "-"], b"[" * 1001 + b"]" * 1001, 2),
    (["eval", "-e", "self.spec.replicas > 1"], None, 2),
    (["eval", "-e", "x + 1", "--activation"], None, 2),
    (["eval", "-e", "self", "--at", "spec", "-i", "-"], b"a: 1\n", 2),
    (["eval", "-e", "a", "--activation", "-i", "-"], b"[1]", 2),
    (["check", "-e", "self.all(x, x.size() > 1)", "--var", "self=list(string)"], None, 0),
    (["check", "-e", "self.all(x, x.size() > 1)", "--var", "self=list(string)", "-o", "json"], None, 0),
    (["check", "-e", "1 +"], None, 1),
    (["check", "-e", "1", "-o", "yaml"], None, 2),
    (["check", "-e", "1", "--engine", "foo"], None, 2),
    (["filter", "--filter", "@ok.yaml", "-i", EV], None, 0),
    (["filter", "--filter", "@badexpr.yaml", "-i", EV], None, 1),
    (["filter", "--filter", "@missing.yaml", "-i", EV], None, 2),
    (["filter", "--filter", "@bad.yaml", "-i", EV], None, 2),
    (["filter", "--filter", "@empty.yaml", "-i", EV], None, 2),
    (["filter", "--filter", "@ok.yaml", "-i", "@missing.json"], None, 2),
    (["filter", "--filter", "@ok.yaml", "-i", EV, "--engine", "foo"], None, 2),
    (["when", "--context", CTX, "-e", "'$(params.path)' == 'README.md'"], None, 0),
    (["when", "--context", CTX, "-e", "'$(params.path)' == 'nope'"], None, 1),
    (["when", "--context", CTX, "-e", "'$(params.path)' =="], None, 2),
    (["when", "--context", "@missing.json", "-e", "true"], None, 2),
    (["when", "-e", "true", "--engine", "foo"], None, 2),
    (["when", "--context", "@bad.yaml", "-e", "true"], None, 2),
    (["when", "--context", "@two.yaml", "-e", "true"], None, 2),
    (["when", "--context", "@", "-e", "true"], None, 2),
    (["filter", "--filter", "@", "-i", EV], None, 2),
    (["eval", "-e", "self", "-i", "@"], None, 2),
    (["validate", "--crd", CRD + "/kep/crd.yaml", CRD + "/kep/valid.yaml"], None, 0),
    (["validate", "--crd", CRD + "/kep/crd.yaml", CRD + "/kep/invalid.yaml"], None, 1),
    (["validate", "--crd", CRD + "/kep/crd.yaml", "@missing.yaml"], None, 2),
    (["validate", "--crd", "@bad.yaml", CRD + "/kep/valid.yaml"], None, 2),
    (["validate", "--crd", CRD + "/kep/valid.yaml", CRD + "/kep/valid.yaml"], None, 2),
    (["validate", "--crd", CRD + "/kep/crd.yaml", "-o", "yaml", CRD + "/kep/valid.yaml"], None, 2),
    (["validate", "--crd", CRD + "/kep/crd.yaml", "--engine", "foo", CRD + "/kep/valid.yaml"], None, 2),
    (["cost", "--crd", CRD + "/kep/crd.yaml"], None, 0),
    (["cost", "--crd", CRD + "/expensive/crd.yaml"], None, 1),
    (["cost", "--crd", "@missing.yaml"], None, 2),
    (["cost", "--crd", "@bad.yaml"], None, 2),
    (["cost", "--crd", CRD + "/kep/crd.yaml", "--engine", "foo"], None, 2),
    (["admit", "-f", ADM + "/demo-policy.yaml", ADM + "/pod.yaml"], None, 0),
    (["admit", "-f", ADM + "/demo-policy.yaml", ADM + "/deployments.yaml"], None, 1),
    (["admit", "-f", "@missing.yaml", ADM + "/pod.yaml"], None, 2),
    (["admit", "-f", "@bad.yaml", ADM + "/pod.yaml"], None, 2),
    (["admit", "-f", ADM + "/demo-policy.yaml", "-o", "yaml", ADM + "/pod.yaml"], None, 2),
    (["admit", "-f", ADM + "/demo-policy.yaml", "--engine", "foo", ADM + "/pod.yaml"], None, 2),
    (["admit", "-f", ADM + "/demo-policy.yaml", "-i", ADM + "/pod.yaml"], None, 2),
    (["version"], None, 0),
    (["version", "--engine", "foo"], None, 2),
    (["frobnicate"], None, 2),
    ([], None, 2),
]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli-exit")
    for name, text in FILES.items():
        (d / name).write_text(text)
    return d


def _materialize(args: List[str], d: Path) -> List[str]:
    return [str(d / a[1:]) if a.startswith("@") else a for a in args]


@pytest.mark.skipif(GO is None, reason="Go CLI (build/celwasm) not built; make -C .. cli builds it")
@pytest.mark.parametrize("args,stdin,code", CASES, ids=[" ".join(c[0])[:60] for c in CASES])
def test_exit_status_as_go(args: List[str], stdin: Optional[bytes], code: int, files: Path) -> None:
    argv = _materialize(args, files)
    assert GO is not None
    p = subprocess.run([GO] + argv, input=stdin or b"", capture_output=True, timeout=300, cwd=files)
    out, err = io.BytesIO(), io.StringIO()
    rc = _cli.run(argv, stdin=io.BytesIO(stdin or b""), stdout=out, stderr=err)
    assert (p.returncode, rc) == (code, code), p.stderr.decode(errors="replace")
    if args[:1] == ["version"] and code == 0:
        return  # the engine line names each host's runtime
    if args in ([], ["frobnicate"]):
        # the usage text names each CLI; the exit-status lines are the same
        assert p.stderr.decode().split("Exit status:")[1] == err.getvalue().split("Exit status:")[1]
        return
    assert out.getvalue() == p.stdout
    assert err.getvalue() == p.stderr.decode("utf-8")


def test_messages_name_the_cause(files: Path) -> None:
    def stderr(args: List[str], stdin: Optional[bytes] = None) -> str:
        err = io.StringIO()
        _cli.run(_materialize(args, files), stdin=io.BytesIO(stdin or b""), stdout=io.BytesIO(), stderr=err)
        return err.getvalue()

    assert stderr(["eval", "-e", "self.x"]) == "celwasm eval: no input given, and the expression reads 'self': give it with -i FILE (JSON or YAML; - for stdin)\n"
    assert stderr(["eval", "-e", "self", "-i", "@deep.json"]) == "celwasm eval: %s: document 1 is nested deeper than the limit of 1000\n" % (files / "deep.json")
    assert stderr(["eval", "-e", "self", "-i", "-"], b"a: [\n") == "celwasm eval: stdin is neither JSON nor YAML (yaml: line 1: did not find expected node content)\n"
    out = io.BytesIO()
    _cli.run(["check", "-e", "self.all(x, x.size() > 1)", "--var", "self=list(string)"], stdout=out, stderr=io.StringIO())
    assert out.getvalue() == b"type: bool\ncost estimate: 2..unbounded cost units (per-call limit 1,000,000)\n"


def test_on_compile_when_nothing_is_cached(tmp_path: Path) -> None:
    # A tiny module compiles at once; the callback runs the same way as for celwasm.wasm.
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(wasmtime.wat2wasm('(module (func (export "f")))'))
    cache = tmp_path / "cache"
    calls: List[Optional[Path]] = []
    m = celwasm.Module(wasm, cache_dir=cache, on_compile=calls.append)
    assert calls == [cache] and not m.from_cache
    m = celwasm.Module(wasm, cache_dir=cache, on_compile=calls.append)
    assert calls == [cache] and m.from_cache  # cached: no call
    celwasm.Module(wasm, cache_dir="", on_compile=calls.append)
    assert calls == [cache, None]
    assert _cli.compile_line(cache) == "celwasm: compiling the WebAssembly module for this machine, once (up to a minute); the compiled code is cached in %s" % cache
    assert _cli.compile_line(None) == "celwasm: compiling the WebAssembly module for this machine (up to a minute; no cache directory, so every run compiles)"
    assert _cli.compile_line(None, "celwasm-full") == "celwasm: compiling the WebAssembly module celwasm-full for this machine (up to a minute; no cache directory, so every run compiles)"
    assert _cli.compile_line(None, "celwasm-admission") == "celwasm: compiling the WebAssembly module celwasm-admission for this machine (up to a minute; no cache directory, so every run compiles)"
