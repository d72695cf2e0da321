"""The conformance runner (tools/conformance.py) on the sample corpus
(tests/fixtures/corpus, expectations produced by the Go host): its result file
is byte-identical to the Go host's, and every expectation holds. The real
corpus (conformance/corpus) runs in `make test` (target conformance)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

import celwasm
import conformance  # tools/conformance.py

from conftest import FIXTURES


def test_raw_members_keep_bytes() -> None:
    line = '{"id":"a/b","compile":{"expression":"1.0e0 + x","env":{}} , "eval" : {"activation":{"x":1e3,"s":"\\u00e9"}}}'
    m = conformance.raw_members(line)
    assert m["compile"] == '{"expression":"1.0e0 + x","env":{}}'
    assert m["eval"] == '{"activation":{"x":1e3,"s":"\\u00e9"}}'
    with pytest.raises(ValueError):
        conformance.raw_members('{"a":1} x')


def test_sample_corpus_matches_the_go_host(module: celwasm.Module) -> None:
    tests = conformance.read_corpus(FIXTURES / "corpus")
    assert len(tests) >= 15
    data, host_errors = conformance.run(tests, module)
    assert host_errors == 0
    lines = data.split(b"\n")
    assert lines[-1] == b"" and len(lines) == len(tests) + 1
    # Expectations (from the Go host when the sample was made).
    for t, line in zip(tests, lines):
        outcome, why = conformance.judge(t, line)
        assert outcome in ("passed", "skipped"), (t.id, why)
    assert b'{"id":"sample/skipped/reason","skip":true}' in lines
    assert any(b'"eval":null' in l for l in lines)  # check-only and compile errors
    # Byte for byte: the Go host's results from this run of make test (which
    # must exist when named), or, outside make, the checked-in ones when they
    # were made with this very module.
    fresh = os.environ.get("CELWASM_GO_FIXTURE_RESULTS")
    if fresh:
        assert Path(fresh).exists(), "CELWASM_GO_FIXTURE_RESULTS names a missing file: " + fresh
        go = Path(fresh).read_bytes()
    else:
        sha = (FIXTURES / "go-results.module-sha256").read_text().strip()
        if sha != module.sha256:
            pytest.skip("no fresh Go results, and the checked-in ones are from another module")
        go = (FIXTURES / "go-results.jsonl").read_bytes()
    assert hashlib.sha256(data).hexdigest() == hashlib.sha256(go).hexdigest(), data.decode(errors="replace")


def test_runner_records_traps_as_host_errors(module: celwasm.Module, tmp_path: Path) -> None:
    # A test that makes the instance trap (a 50 MB request under a 48 MiB
    # cap) is recorded as a host error; the next test runs in a new instance.
    big = "x" * (50 << 20)
    (tmp_path / "t.jsonl").write_text(
        '{"id":"a/trap","compile":{"expression":"size(s)","env":{"base":"cel","variables":[{"name":"s","type":"string"}]}},'
        '"eval":{"activation":{"s":"%s"}}}\n'
        '{"id":"a/after","compile":{"expression":"1 + 1","env":{"base":"cel"}},"eval":{}}\n' % big
    )
    tests = conformance.read_corpus(tmp_path)

    class Capped:
        def instantiate(self) -> celwasm.Instance:
            return module.instantiate(memory_limit=48 << 20)

    data, host_errors = conformance.run(tests, Capped())  # type: ignore[arg-type]
    assert host_errors == 1
    assert data.split(b"\n")[0] == b'{"id":"a/trap","hostError":"trap"}'
    assert data.split(b"\n")[1].startswith(b'{"id":"a/after","compile":{"outputType":"int"')
