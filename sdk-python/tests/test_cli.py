"""`python -m celwasm eval` prints the same bytes, and exits with the same
status, as the Go CLI (build/celwasm eval) for the same arguments.

Every case runs through both CLIs; the Go CLI's output is the expectation.
Most Python runs are in-process (celwasm._cli.run, the same code path as
`python -m celwasm` minus interpreter start-up); a few go through
`python -m celwasm` in a subprocess.
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

from conftest import TESTDATA, go_cli

GO = go_cli()
pytestmark = pytest.mark.skipif(GO is None, reason="Go CLI (build/celwasm) not built; make -C .. cli builds it")

DEPLOY = str(TESTDATA / "k8s" / "deployment.yaml")
WEBAPP = str(TESTDATA / "k8s" / "webapp.yaml")
SERVICE = str(TESTDATA / "k8s" / "service.yaml")
PR = str(TESTDATA / "cloudevents" / "github-pull-request.json")
PING = str(TESTDATA / "cloudevents" / "ping.json")

# Files written for the cases (name -> bytes).
FILES: Dict[str, Union[str, bytes]] = {
    "quirks.yaml": """\
# go-yaml v2 resolves YAML 1.1 scalars
bools: [yes, no, on, off, y, n, Y, N, True, FALSE, "yes", 'no']
ints: [0755, 0o17, 0x1F, -0x1f, 1_000, +5, 09, 0b101, -0b11, 9223372036854775807, 9223372036854775808, 18446744073709551616]
floats: [1e3, .5, 1.0, -0.0, 1., 6.02e+23, 1e-7, 100000000000000000000, 1.5e300, -.5e-3]
strs: [1:20, 2001-12-14, 2001-12-14t21:59:43.10-05:00, 2002-12-14 21:59:43.10, 12abc, "0x10", ~x, .x, +, -]
nulls: [~, null, Null, ]
tagged: [!!str 5, !!int "7", !!float 1, !!bool yes, !!null ~, !!binary aGVsbG8=, !custom thing]
keys: {1: int, true: bool, 1.5: float, 1e10: big, 0.00001: small, x: str, "2": two, "": empty, z: last, a: first}
unicode: {"é": 1, "z": 2, "ä": 3, "\\u00e9t\\u00e9": 4, "<&>": 5}
block: |
  line one
    indented "quoted" \\ backslash
folded: >
  folded
  text
""",
    "merge.yaml": b"""\
base: &base {a: 1, b: 2, c: 3}
more: &more {c: 30, d: 40}
m1:
  a: 10
  <<: *base
m2:
  <<: [*more, *base]
  e: 5
m3:
  <<: {x: 1}
  x: 2
list: &l [1, 2]
again: *l
dup: {k: 1, k: 2}
""",
    "multi.yaml": b"""\
# leading comment
---
kind: A
num: 1
--- # a comment after the separator
kind: B
num: 2
---
# only a comment
---

---
kind: C
num: 3\r
windows: "crlf"\r
...
""",
    "badsep.yaml": b"a: 1\n--- b: 2\n",
    "nan.yaml": b"x: .nan\n",
    "nullkey.yaml": b"~: 1\n",
    "empty.yaml": b"",
    "comments.yaml": b"# nothing\n---\n# here\n",
    "scalar.yaml": b"42\n",
    "spaces.json": b"  \n\t {\"a\": [1, 2.0, 3e2, -0, 12345678901234567890], \"b\": {\"z\": 1, \"a\": 2}, \"a\": \"dup\"}  \n",
    "array.json": b'[{"name": "x"}, {"name": "y"}]',
    "yamlish.json": b'{a: 1, "b": [1,2,]}',
    "nums.json": b'{"spec": {"n": 12345678901234567890, "f": 1.0, "e": 1e-7, "big": 1e21, "neg": -0.0, "s": "<&>\\u2028"}}',
    "badutf8.json": b'{"a": "\xff"}',
    "acts.yaml": b"x: 1\ny: two\n---\nx: 3\nz: [1]\n",
    "deep.json": b'{"a":' * 600 + b"1" + b"}" * 600,
    "texts.yaml": b"""\
s: "tab\\tnewline\\nquote\\" back\\\\ bell\\a del\\x7f \\u2028 emoji \\U0001F600"
num: 1.5
i: -3
""",
}

# Plain scalars through go-yaml v2's resolution (one document each).
SCALARS = (
    "0x 0X1f 0o 0O17 0b 0B11 +.5 -.5 "
    "1_0.5 .5_0 0_ 1__000 1e400 -1e400 1e-400 00 "
    "007 08 0.0.1 1e 1e+ e3 .e3 . "
    "+ ++1 +-1 --1 1_ _1 0x_1F 0x1_F "
    "1.5e3_0 Infinity inf NaN yes. YES Yes yEs "
    "oN On OFF Off Y y N n "
    "t f T F true1 ~ ~~ null "
    "NULL nULL 9223372036854775807 -9223372036854775808 -9223372036854775809 18446744073709551615 18446744073709551616 0x8000000000000000 "
    "0xFFFFFFFFFFFFFFFF 0x10000000000000000 -0x8000000000000000 -0x8000000000000001 0b1111111111111111111111111111111111111111111111111111111111111111 -0b1000000000000000000000000000000000000000000000000000000000000000 1.7976931348623157e308 1.8e308 "
    "4.9e-324 2.5e-324 123456789.123456789 0.000001 0.0000001 1e20 1e21 123e-2 "
    "-0 +0 -0.0 2001-01-01 2001-1-1 2001-01-01T00:00:00Z 2001-13-01 1234-5 "
    "1234-56-78 12345-01-01 ._5 .5_ .5e1_0 .5__0 ._ "
)
FILES["scalars.yaml"] = "".join("---\nv: %s\n" % v for v in SCALARS.split())

# (args, stdin) — paths starting with '@' are FILES.
CASES: List[Tuple[List[str], Optional[bytes]]] = [
    (["eval", "-e", "self.spec.replicas", "-i", DEPLOY], None),
    (["eval", "-e", "self.spec.replicas", "-i", DEPLOY, "-o", "text"], None),
    (["eval", "-e", "self.kind", "-i", WEBAPP], None),
    (["eval", "-e", "self", "-i", SERVICE, "-o", "text"], None),
    (["eval", "--at", "spec", "-e", "self.items.all(i, i.name.matches('^[a-z]+$'))", "-i", WEBAPP], None),
    (["eval", "--bind", "ce", "-e", 'ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")', "-i", PR], None),
    (["eval", "--activation", "-e", "specversion + ':' + source", "-i", PING], None),
    (["eval", "-e", "self.", "-i", DEPLOY], None),
    (["eval", "-e", "self.nope", "-i", DEPLOY], None),
    (["eval", "--cost-limit", "5", "-e", "self.spec.template.spec.containers.map(c, c.name)", "-i", DEPLOY], None),
    (["eval", "--cost-limit", "0x10", "--cost", "-e", "[1,2,3].map(x, x * 2)"], None),
    (["eval", "--cost-limit=1_000", "-e", "[1,2,3].map(x, x * 2)", "-o", "text"], None),
    (["eval", "--cost-limit", "017", "-e", "'a' + 'b'"], None),
    (["eval", "--cost-limit", "abc", "-e", "1"], None),
    (["eval", "-e", "1 + 2"], None),
    (["eval", "--base", "cel", "-e", "[1, dyn(2u), 3.0, b'x\\xff\"', null, 'é\\n', -0.0, 1e21, 0.0/0.0]", "-o", "text"], None),
    (["eval", "--base", "cel", "-e", "[1, dyn(2u), 3.0, b'x\\xff\"', null, 'é\\n', -0.0, 1e21, 0.0/0.0]"], None),
    (["eval", "-e", "[dyn(timestamp('2026-01-01T00:00:00.5Z')), dyn(duration('90m')), dyn(quantity('1.5Gi')), dyn(ip('::1')), dyn(optional.of({'b': [1], 'a': [2]})), dyn(optional.none()), dyn(type(1))]", "-o", "text"], None),
    (["eval", "-e", "{'b': 1, 'a': 2}.map(k, k)"], None),
    (["eval", "-e"], None),
    (["eval"], None),
    (["eval", "-e", "1", "-o", "yaml"], None),
    (["eval", "-e", "1", "extra"], None),
    (["eval", "-e", "1", "--nope"], None),
    (["eval", "-e", "1", "-h"], None),
    (["eval", "---e", "1"], None),
    (["eval", "-e", "1", "--var", "x"], None),
    (["eval", "-e", "1", "--var", "=int"], None),
    (["eval", "-e", "1", "--base", "nope"], None),
    (["eval", "-e", "1", "-i", "/nonexistent/file.yaml"], None),
    (["eval", "-e", "1", "--stored=maybe"], None),
    (["eval", "-e", "1", "--engine", "nope"], None),
    (["eval", "-e", "1 + 1", "--engine=wasmtime"], None),
    (["eval", "-e", "1", "--", "x"], None),
    (["eval", "--var", "self=map(string, int)", "-e", "self.a + self.b", "-i", "-"], b'{"a": "40", "b": 2}'),
    (["eval", "--var", " x = int ", "-e", "x + 1", "--activation", "-i", "-"], b"x: 41\n"),
    (["eval", "--k8s-version", "1.32", "-e", "semver('1.2.3').major()"], None),
    (["eval", "--k8s-version", "1.32", "--stored", "-e", "semver('1.2.3').major()"], None),
    (["eval", "--k8s-version", "1.9", "-e", "1"], None),
    (["eval", "--base", "cel", "--ext", "math", "-e", "math.greatest(1, 5)"], None),
    (["eval", "--base", "cel", "--ext", "math:1", "-e", "math.greatest(1, 5)"], None),
    (["eval", "--base", "cel", "--ext", "math:x", "-e", "1"], None),
    (["eval", "--base", "cel", "--ext", "math: 1abc", "-e", "1"], None),
    (["eval", "--ext", "strings", "-e", "1"], None),
    (["eval", "--disable-check", "-e", "1 + 'a'"], None),
    (["eval", "--disable-macros", "-e", "[1].all(x, x > 0)"], None),
    (["eval", "--base", "cel", "--container", "a.b", "--var", "a.b.c=int", "-e", "c", "--activation", "-i", "-"], b'{"a.b.c": 7}'),
    (["eval", "-e", "self", "-i", "-", "-o", "text"], b"a: 1\n---\nb: [x, y]\n"),
    (["eval", "--bind", "a.b", "-e", "a.b.x", "-i", "-"], b'{"x": true}'),
    (["eval", "-e", "self.v", "-i", "@scalars.yaml"], None),
    (["eval", "-e", "self", "-i", "@quirks.yaml"], None),
    (["eval", "-e", "self", "-i", "@quirks.yaml", "-o", "text"], None),
    (["eval", "-e", "self.keys.map(k, k)", "-i", "@quirks.yaml"], None),
    (["eval", "-e", "self.unicode.map(k, k)", "-i", "@quirks.yaml"], None),
    (["eval", "-e", "self", "-i", "@merge.yaml", "-o", "text"], None),
    (["eval", "-e", "[self.m1.map(k, k), self.m2.map(k, k), self.m3.map(k, k)]", "-i", "@merge.yaml"], None),
    (["eval", "-e", "self", "-i", "@multi.yaml", "-o", "text"], None),
    (["eval", "-e", "self.num == 2 ? self.nope : self.num", "-i", "@multi.yaml"], None),
    (["eval", "-e", "self", "-i", "@badsep.yaml"], None),
    (["eval", "-e", "self", "-i", "@nan.yaml"], None),
    (["eval", "-e", "self", "-i", "@nullkey.yaml"], None),
    (["eval", "-e", "1", "-i", "@empty.yaml"], None),
    (["eval", "-e", "self", "-i", "@empty.yaml"], None),
    (["eval", "-e", "2", "-i", "@comments.yaml"], None),
    (["eval", "-e", "self + 1", "-i", "@scalar.yaml"], None),
    (["eval", "-e", "self", "-i", "@spaces.json"], None),
    (["eval", "-e", "self.b.map(k, k) + [string(self.a)]", "-i", "@spaces.json"], None),
    (["eval", "-e", "self.map(x, x.name)", "-i", "@array.json"], None),
    (["eval", "-e", "self", "-i", "@yamlish.json"], None),
    (["eval", "--at", "spec", "-e", "self", "-i", "@nums.json"], None),
    (["eval", "--at", "spec", "-e", "self", "-i", "@nums.json", "-o", "text"], None),
    (["eval", "--at", "spec.n", "-e", "self", "-i", "@nums.json"], None),
    (["eval", "--at", "spec.missing", "-e", "self", "-i", "@nums.json"], None),
    (["eval", "--at", "spec.n.x", "-e", "self", "-i", "@nums.json"], None),
    (["eval", "-e", "self", "-i", "@badutf8.json"], None),
    (["eval", "--activation", "-e", "x", "-i", "@acts.yaml"], None),
    (["eval", "--activation", "-e", "x", "-i", "@array.json"], None),
    (["eval", "-e", "self.a.a.a.a", "-i", "@deep.json"], None),
    (["eval", "-e", "self", "-i", "@texts.yaml", "-o", "text"], None),
    (["eval", "-e", "self", "-i", "@texts.yaml"], None),
    (["eval", "-e", "'héllo ' + string(self.num)", "-i", "@texts.yaml", "-o", "text"], None),
    (["check", "-e", "self.a", "--var", "self=map(string, int)"], None),
    (["check", "-e", "self.a", "--var", "self=map(string, int)", "-o", "json"], None),
    (["check", "-e", "self.", "--var", "self=dyn"], None),
    (["nope"], None),
    ([], None),
]


def _materialize(args: List[str], d: Path) -> List[str]:
    return [str(d / a[1:]) if a.startswith("@") else a for a in args]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli")
    for name, data in FILES.items():
        (d / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return d


@pytest.fixture(scope="module")
def go_results(files: Path) -> Dict[int, Tuple[int, bytes]]:
    assert GO is not None

    def run(i: int) -> Tuple[int, Tuple[int, bytes]]:
        args, stdin = CASES[i]
        p = subprocess.run([GO] + _materialize(args, files), input=stdin or b"", capture_output=True, timeout=120, cwd=files)
        return i, (p.returncode, p.stdout)

    with ThreadPoolExecutor(max_workers=2) as ex:
        return dict(ex.map(run, range(len(CASES))))


def _py(args: List[str], stdin: Optional[bytes]) -> Tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    rc = _cli.run(args, stdin=io.BytesIO(stdin or b""), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("i", range(len(CASES)), ids=[" ".join(c[0])[:60] for c in CASES])
def test_same_output_as_go(i: int, files: Path, go_results: Dict[int, Tuple[int, bytes]]) -> None:
    args, stdin = CASES[i]
    rc, out, err = _py(_materialize(args, files), stdin)
    go_rc, go_out = go_results[i]
    if args and args[0] == "check" and "-o" not in args and go_rc == 0:
        pass  # same text
    assert (rc, out) == (go_rc, go_out), err


def test_the_cases_cover_every_exit_status(go_results: Dict[int, Tuple[int, bytes]]) -> None:
    assert {rc for rc, _ in go_results.values()} == {0, 1, 2}


@pytest.mark.parametrize("i", [0, 5, 17, 35, 49], ids=lambda i: " ".join(CASES[i][0])[:50])
def test_python_dash_m_celwasm(i: int, files: Path, go_results: Dict[int, Tuple[int, bytes]]) -> None:
    args, stdin = CASES[i]
    p = subprocess.run(
        [sys.executable, "-m", "celwasm"] + _materialize(args, files),
        input=stdin or b"",
        capture_output=True,
        timeout=300,
        cwd=files,
        env=dict(os.environ),
    )
    assert (p.returncode, p.stdout) == go_results[i], p.stderr.decode(errors="replace")


def test_compile_error_text_matches(files: Path) -> None:
    # Compile errors print cel-go's snippets; the module makes them, so they
    # match too.
    args = ["eval", "-e", "self.", "-i", DEPLOY]
    assert GO is not None
    p = subprocess.run([GO] + args, capture_output=True, timeout=120)
    rc, out, err = _py(args, None)
    assert rc == p.returncode == 1
    assert err == p.stderr.decode()
