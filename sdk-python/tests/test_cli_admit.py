"""`python -m celwasm admit` prints the same bytes, and exits with the same
status, as the Go CLI (build/celwasm admit).

Every case runs through both CLIs; the Go CLI's output is the expectation: the
policies of sdk-js/test/fixtures/admission (wasm/admission's demo and sidecar
policies, Warn/Audit actions with RBAC objects, a MutatingAdmissionPolicy that
writes values YAML must quote, fold or write as blocks into the annotations)
over creates, updates (--old), deletes, users and groups, namespaces,
compatibility versions, text and -o json; and the usage, input and module
errors. Stdout, stderr and the exit status must be identical (stderr without
the first-run progress line, which depends on whose cache is warm).
"""

from __future__ import annotations

import io
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from celwasm import _cli

from conftest import REPO, go_cli, without_compile_line

GO = go_cli()
pytestmark = pytest.mark.skipif(GO is None, reason="Go CLI (build/celwasm) not built; make -C .. cli builds it")
FIX = REPO / "sdk-js" / "test" / "fixtures" / "admission"

Case = Tuple[List[str], Optional[bytes]]

DEPLOY = b'{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"team-a"},"spec":{"replicas":9}}'

CASES: List[Case] = [
    (["-f", "demo-policy.yaml", "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "-o", "json", "deployments.yaml"], None),
    (["-f", "sidecar-policy.yaml", "pod.yaml"], None),
    (["-f", "sidecar-policy.yaml", "-o", "json", "pod.yaml", "pod.yaml"], None),
    (["-f", "warn-policy.yaml", "deployments.yaml"], None),
    (["-f", "warn-policy.yaml", "--user", "alice", "--group", "deployers", "--group", "system:authenticated", "deployments.yaml"], None),
    (["-f", "warn-policy.yaml", "--user", "bob", "-o", "json", "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "-f", "warn-policy.yaml", "--operation", "DELETE", "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "--operation", "delete", "-o", "json", "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "--operation", "CONNECT", "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "--old", "deployments.yaml", "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "--old", "deployments.yaml", "--operation", "CREATE", "-o", "json", "deployments.yaml"], None),
    (["-f", "annotate-policy.yaml", "deployments.yaml"], None),
    (["-f", "annotate-policy.yaml", "-o", "json", "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "--namespace-name", "team-a", "--compatibility-version", "1.34", "pod.yaml"], None),
    (["-f", "demo-policy.yaml", "--compatibility-version", "1.2", "pod.yaml"], None),
    # An object read from stdin, in another namespace, with its stored version in a file.
    (["-f", "demo-policy.yaml", "--old", "deployments.yaml", "--namespace-name", "default", "-"], DEPLOY),
    (["-f", "-", "deployments.yaml"], (FIX / "demo-policy.yaml").read_bytes()),
    # Module errors: not a Kubernetes object, a kind nothing serves.
    (["-f", "demo-policy.yaml", "-"], b"[1]\n"),
    (["-f", "demo-policy.yaml", "-"], b'{"apiVersion":"v1","kind":"Frob","metadata":{"name":"x"}}'),
    (["-f", "-", "pod.yaml"], b"- 1\n- 2\n"),
    # Usage and input errors.
    (["-f", "demo-policy.yaml"], None),
    (["deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "-o", "yaml", "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "--operation", "PATCH", "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "--engine", "nope", "deployments.yaml"], None),
    (["-f", "/nonexistent.yaml", "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "/nonexistent.yaml"], None),
    (["-f", "demo-policy.yaml", "--old", str(FIX), "deployments.yaml"], None),
    (["-f", "demo-policy.yaml", "-"], b"a: [unclosed"),
    (["-f", "demo-policy.yaml", "-"], b'{"apiVersion":'),
    (["-h"], None),
    (["--nope"], None),
    (["-f"], None),
]


@pytest.fixture(scope="module")
def go_results() -> Dict[int, Tuple[int, bytes, bytes]]:
    assert GO is not None

    def run(i: int) -> Tuple[int, Tuple[int, bytes, bytes]]:
        args, stdin = CASES[i]
        p = subprocess.run([GO, "admit"] + args, input=stdin or b"", capture_output=True, timeout=600, cwd=FIX)
        return i, (p.returncode, p.stdout, p.stderr)

    with ThreadPoolExecutor(max_workers=2) as ex:
        return dict(ex.map(run, range(len(CASES))))


def _py(args: List[str], stdin: Optional[bytes]) -> Tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    rc = _cli.run(["admit"] + args, stdin=io.BytesIO(stdin or b""), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def test_same_output_as_go(go_results: Dict[int, Tuple[int, bytes, bytes]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIX)
    differ = []
    for i, (args, stdin) in enumerate(CASES):
        rc, out, err = _py(args, stdin)
        go_rc, go_out, go_err = go_results[i]
        name = " ".join(args)[:120]
        if (rc, out) != (go_rc, go_out):
            differ.append("%s: exit %d/%d, stdout differs: %s\n%s\n---\n%s" % (name, rc, go_rc, out != go_out, out.decode()[:2000], go_out.decode()[:2000]))
        # A YAML parser's error text is its own (go-yaml's, libyaml's).
        elif b": yaml: " not in go_err and without_compile_line(err) != without_compile_line(go_err.decode("utf-8")):
            differ.append("%s: stderr differs:\n%s\n---\n%s" % (name, err, go_err.decode("utf-8")))
    assert not differ, "%d of %d cases differ:\n%s" % (len(differ), len(CASES), "\n".join(differ))


def test_the_cases_cover_every_outcome(go_results: Dict[int, Tuple[int, bytes, bytes]]) -> None:
    assert {rc for rc, _, _ in go_results.values()} == {0, 1, 2}
    out = b"".join(o for _, o, _ in go_results.values())
    err = b"".join(e for _, _, e in go_results.values())
    for needle in (b"deployment.apps/nginx created", b"deployment.apps/nginx configured", b"pod/web created", b"Error from server (Invalid): error when creating",
                   b"error when deleting", b"error when updating", b"  audit annotation ", b"  mutated by admission to:", b"|-\n", b"|+\n", b"|2-\n",
                   b"'a: b'", b'"\\U0001F600"', b"\n          column of", b'"patchedObject": {', b'"reason": "Invalid"'):
        assert needle in out, needle
    for needle in (b"Warning: Validation failed for ValidatingAdmissionPolicy", b"Usage: celwasm admit", b"  -f file\n", b"error: requests[0]: ",
                   b"celwasm admit: --operation \"PATCH\"", b"no such file or directory", b"is neither JSON nor YAML", b"invalid_env: "):
        assert needle in err, needle


def test_python_dash_m_celwasm(go_results: Dict[int, Tuple[int, bytes, bytes]]) -> None:
    # The entry point as a user runs it.
    for i in (0, 12):
        args, stdin = CASES[i]
        p = subprocess.run([sys.executable, "-m", "celwasm", "admit"] + args, input=stdin or b"", capture_output=True, timeout=600, cwd=FIX)
        go_rc, go_out, go_err = go_results[i]
        assert (p.returncode, p.stdout, without_compile_line(p.stderr.decode())) == (go_rc, go_out, without_compile_line(go_err.decode())), args


def test_mutated_objects_print_as_go_yaml_does(tmp_path: Path) -> None:
    """The YAML of mutated objects against go-yaml itself, through the Go CLI: a
    MutatingAdmissionPolicy copies a ConfigMap's data — generated strings that need every
    scalar style, folding and escapes — into a Deployment's annotations."""
    import json
    import random

    rnd = random.Random(21)
    pieces = ["a", "b c", " ", "  ", "\n", "\n\n", "\t", ":", ": ", "#", " #", "-", "- ", "?", "'", '"', "\\", "{", "]", ",", "&", "*", "!",
              "|", ">", "%", "@", "`", "~", "true", "no", "null", "0", "07", "08", "0x1F", "1e3", "1_0", ".5", "12:30", "2024-01-01",
              "2024-01-01T00:00:00Z", "é", "日本", "😀", "\u00a0", "\x00", "\x1b", "\u2028", "---", "...", "x" * 40, "word " * 12]
    data = {}
    for i in range(400):
        n = rnd.choice([1, 1, 2, 3, 5, 8])
        data["k%03d" % i] = "".join(rnd.choice(pieces) for _ in range(n))
    policy = (FIX / "annotate-policy.yaml").read_text()
    head = policy[: policy.rindex("---")]
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "annotations", "namespace": "default"}, "data": data}
    # JSON as YAML reads it: characters outside the BMP raw (not as surrogate escapes), U+2028
    # escaped (a raw one is a line break to YAML).
    text = json.dumps(cm, ensure_ascii=False).replace("\u2028", "\\u2028")
    (tmp_path / "policy.yaml").write_text(head + "---\n" + text + "\n", "utf-8")
    (tmp_path / "deployments.yaml").write_bytes((FIX / "deployments.yaml").read_bytes())
    args = ["-f", "policy.yaml", "deployments.yaml"]
    assert GO is not None
    p = subprocess.run([GO, "admit"] + args, capture_output=True, timeout=600, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.count(b"  mutated by admission to:") == 2, p.stderr
    out, err = io.BytesIO(), io.StringIO()
    import os

    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        rc = _cli.run(["admit"] + args, stdin=io.BytesIO(b""), stdout=out, stderr=err)
    finally:
        os.chdir(cwd)
    assert rc == 0
    assert out.getvalue() == p.stdout
    # Every scalar style and the folding of long lines were exercised.
    for needle in (b": |-\n", b": |+\n", b": |2", b": '", b': "', b"\\t", b"\\U0001F600", b"\\L", b"''", b"\n          word"):
        assert needle in p.stdout, needle
