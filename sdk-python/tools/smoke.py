#!/usr/bin/env python3
"""What a user gets: run with the interpreter of a fresh venv where only the
wheel (and its dependencies from PyPI) was installed, from outside the source
tree:

    python tools/smoke.py REPO_ROOT
"""

import json
import subprocess
import sys
import time
from pathlib import Path

t0 = time.perf_counter()
import celwasm  # noqa: E402

repo = Path(sys.argv[1])
testdata = repo / "conformance" / "testdata"
assert "site-packages" in celwasm.__file__ and str(repo / "sdk-python" / "src") not in celwasm.__file__, celwasm.__file__

env = celwasm.Env({"ce": "map(string, dyn)", "self": "dyn"})
event = json.loads((testdata / "cloudevents" / "github-pull-request.json").read_text())
a = env.compile('ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")').evaluate({"ce": event})
first = time.perf_counter() - t0
b = env.compile("self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas").evaluate(
    {"self": {"minReplicas": 1, "replicas": 3, "maxReplicas": 5}}
)
with env.compile("self.items.all(i, i.name.matches('^[a-z]+$'))") as c_prg:
    c = c_prg.evaluate({"self": {"items": [{"name": "abc"}, {"name": "xyz"}]}})
d = env.compile("quantity(self.mem).isLessThan(quantity('1Gi'))").evaluate({"self": {"mem": "512Mi"}})
assert (a, b, c, d) == (True, True, True, True), (a, b, c, d)
try:
    env.compile("self.")
    raise AssertionError("expected a CompileError")
except celwasm.CompileError as e:
    assert e.line == 1 and e.column == 6, (e.line, e.column)

cli = subprocess.run(
    [sys.executable, "-m", "celwasm", "eval", "-e", "self.spec.replicas", "-i", str(testdata / "k8s" / "deployment.yaml")],
    capture_output=True, check=True,
)
# A trigger filter over the events fixture, through the API and the CLI (the
# CLI reads the YAML file through the module; the package has no YAML library).
events = (testdata / "cloudevents" / "events.ndjson").read_text().splitlines()
filter_file = testdata / "filters" / "07-prefix-startswith.yaml"
assert "ce.source.startsWith(\"https://github.com\")" in filter_file.read_text()
flt = celwasm.Env().compile_filter({"spec": {"filter": {"expression": 'ce.source.startsWith("https://github.com")'}}})
matched = sum(1 for r in flt.eval_batch(events, celwasm.CLOUD_EVENTS) if isinstance(r, celwasm.Result) and r.value is True)
filtered = subprocess.run(
    [sys.executable, "-m", "celwasm", "filter", "--filter", str(filter_file), "-i", str(testdata / "cloudevents" / "events.ndjson")],
    capture_output=True, check=True,
)
assert matched == len(filtered.stdout.splitlines()) > 0, (matched, filtered.stdout)
# A CRD (YAML text) and its objects, through the API and the CLI.
crd_dir = testdata / "crd" / "kep"
crd = celwasm.CRD((crd_dir / "crd.yaml").read_text())
objects = [d for d in (crd_dir / "invalid.yaml").read_text().split("\n---\n") if "kind: WebApp" in d]
invalid = sum(1 for r in crd.validate(objects).results if isinstance(r, celwasm.ObjectResult) and not r.valid)
assert invalid == len(objects) > 0, (invalid, len(objects))
assert crd.cost().valid
validated = subprocess.run(
    [sys.executable, "-m", "celwasm", "validate", "--crd", str(crd_dir / "crd.yaml"), str(crd_dir / "valid.yaml")],
    capture_output=True, check=True,
)
assert validated.stdout.count(b": valid (create, ") > 0, validated.stdout
# Admission policies (the packaged celwasm-admission), through the API and the CLI.
adm_dir = repo / "sdk-js" / "test" / "fixtures" / "admission"
admitted = celwasm.default_runtime().admit({
    "documents": (adm_dir / "demo-policy.yaml").read_text().split("\n---\n"),
    "requests": [{"object": d} for d in (adm_dir / "deployments.yaml").read_text().split("\n---\n")],
})
decisions = [r["allowed"] for r in admitted["results"]]
assert decisions == [True, False], admitted
admit_cli = subprocess.run(
    [sys.executable, "-m", "celwasm", "admit", "-f", str(adm_dir / "demo-policy.yaml"), str(adm_dir / "deployments.yaml")],
    capture_output=True,
)
assert admit_cli.returncode == 1 and admit_cli.stdout.startswith(b"deployment.apps/nginx created\n"), admit_cli
rt = celwasm.default_runtime()
print(
    "smoke: celwasm %s from %s; (a)-(d) true; import to first result %.2fs (module %s in %.2fs); "
    "python -m celwasm eval -> %s; filter: %d of %d events; CRD: %d invalid objects; admit: %s"
    % (celwasm.__version__, Path(celwasm.__file__).parent, first,
       "from cache" if rt.module.from_cache else "compiled", rt.module.load_seconds, cli.stdout.decode().strip(),
       matched, len(events), invalid, decisions)
)
