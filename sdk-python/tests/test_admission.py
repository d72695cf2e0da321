"""Runtime.admit (admission policies through the module celwasm-admission)
compared with the Go CLI: each case is one `celwasm admit ... -o json` run and
the same request through the Python API; the results, written as the Go CLI
writes them, must be its stdout byte for byte. The policies are
wasm/admission's test policies (demoPolicy, sidecarPolicy) and one with
Warn/Audit actions, a messageExpression, variables and RBAC objects
(sdk-js/test/fixtures/admission, shared with the JavaScript tests). Nothing
below is an expected value typed by hand but the typed errors' classes.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any, Dict, List, Tuple

import pytest
import yaml

import celwasm
from celwasm import InvalidObjectError, BadRequestError, CelError, InvalidArgumentError, InvalidEnvError, InvalidPolicyError
from celwasm._cli import _admit_result_json, _json_out
from celwasm._runtime import _admit_request

from conftest import REPO, go_cli

GO = go_cli()
pytestmark = pytest.mark.skipif(GO is None, reason="Go CLI (build/celwasm) not built; make -C .. cli builds it")
FIX = REPO / "sdk-js" / "test" / "fixtures" / "admission"


def docs(name: str) -> List[Dict[str, Any]]:
    return [d for d in yaml.safe_load_all((FIX / name).read_text()) if d is not None]


def go_admit(args: List[str], stdin: bytes = b"") -> Tuple[int, bytes, str]:
    assert GO is not None
    p = subprocess.run([GO, "admit", "--engine", "wasmtime"] + args, input=stdin, capture_output=True, timeout=600, cwd=FIX)
    return p.returncode, p.stdout, p.stderr.decode("utf-8")


def cases() -> List[Tuple[str, List[str], Dict[str, Any]]]:
    deployments, pod = docs("deployments.yaml"), docs("pod.yaml")
    return [
        ("demo policy: CREATE, one allowed and mutated, one denied",
         ["-f", "demo-policy.yaml", "-o", "json", "deployments.yaml"],
         {"documents": docs("demo-policy.yaml"), "requests": [{"object": o} for o in deployments]}),
        ("sidecar policy: a param ConfigMap, merged by name beside the init container",
         ["-f", "sidecar-policy.yaml", "-o", "json", "pod.yaml"],
         {"documents": docs("sidecar-policy.yaml"), "requests": [{"object": o} for o in pod]}),
        # The CLI pairs objects by kind, namespace and name: both have the second as the old one.
        ("demo policy: UPDATE of the stored objects (--old)",
         ["-f", "demo-policy.yaml", "--old", "deployments.yaml", "-o", "json", "deployments.yaml"],
         {"documents": docs("demo-policy.yaml"), "requests": [{"object": o, "oldObject": deployments[1]} for o in deployments]}),
        ("warn policy: Warn and Audit, messageExpression, variables, RBAC objects, a user",
         ["-f", "warn-policy.yaml", "--user", "alice", "--group", "deployers", "--group", "system:authenticated", "-o", "json", "deployments.yaml"],
         {"documents": docs("warn-policy.yaml"), "requests": [{"object": o} for o in deployments],
          "user": "alice", "groups": ["deployers", "system:authenticated"]}),
        ("both policies: DELETE (object null, the old object given)",
         ["-f", "demo-policy.yaml", "-f", "warn-policy.yaml", "--operation", "DELETE", "-o", "json", "deployments.yaml"],
         {"documents": docs("demo-policy.yaml") + docs("warn-policy.yaml"),
          "requests": [{"operation": "DELETE", "oldObject": o} for o in deployments]}),
        ("annotate policy: a param's data applied as annotations, then a JSONPatch",
         ["-f", "annotate-policy.yaml", "-o", "json", "deployments.yaml"],
         {"documents": docs("annotate-policy.yaml"), "requests": [{"object": o} for o in deployments]}),
        ("a kind no policy matches, in the namespace given, at a compatibility version",
         ["-f", "demo-policy.yaml", "--namespace-name", "team-a", "--compatibility-version", "1.34", "-o", "json", "pod.yaml"],
         {"documents": docs("demo-policy.yaml"), "requests": [{"object": o, "namespace": "team-a"} for o in pod], "compatibilityVersion": "1.34"}),
    ]


@pytest.fixture(scope="module")
def art() -> Any:
    r = celwasm.Runtime(instances=1)
    yield r
    r.close()


def test_same_results_as_the_go_cli(art: celwasm.Runtime) -> None:
    seen = []
    for name, args, request in cases():
        rc, out, err = go_admit(args)
        assert rc in (0, 1), (name, err)
        resp = art.admit(request)
        assert _json_out([_admit_result_json(r) for r in resp["results"]]) == out, name
        # The CLI's exit status is the decision: 1 when any request is denied.
        assert rc == (1 if any(not r["allowed"] for r in resp["results"]) else 0), name
        seen.append(out)
    text = b"\n".join(seen)
    # The cases cover what admission answers.
    for needle in (b'"allowed": true', b'"allowed": false', b'"patchedObject": {', b'"patchedObject": null', b'"reason": "', b'"code": 4',
                   b'"warnings": [\n', b'"auditAnnotations": {\n', b'"auditAnnotations": {}', b"mesh/proxy:v1.0.0", b"is forbidden: ValidatingAdmissionPolicy "):
        assert needle in text, needle


def test_objects_as_text_send_the_same_request(art: celwasm.Runtime) -> None:
    _, _, request = cases()[0]
    as_json = {"documents": [json.dumps(d, indent=2) for d in request["documents"]], "requests": [{"object": json.dumps(r["object"])} for r in request["requests"]]}
    as_yaml = {"documents": [yaml.safe_dump(d, sort_keys=False) for d in request["documents"]],
               "requests": [{"object": yaml.safe_dump(r["object"], sort_keys=False).encode()} for r in request["requests"]]}
    want = _admit_request(request, art._documents)
    assert _admit_request(as_json, art._documents) == want
    # YAML is read as the Go CLI reads it (sigs.k8s.io/yaml: members sorted): the same objects.
    assert art.admit(as_yaml) == art.admit(request)
    # json.Marshal of wire.AdmitRequest: omitempty members left out, `<>&` escaped.
    assert _admit_request({"documents": ['{ "a" : "<&>" }'], "requests": [{"operation": "DELETE", "oldObject": {"b": 1}}, {}], "user": "u<", "groups": ["g"],
                           "compatibilityVersion": "1.36"}, art._documents) == (
        b'{"documents":[{"a":"\\u003c\\u0026\\u003e"}],"requests":[{"operation":"DELETE","oldObject":{"b":1}},{}],"user":"u\\u003c","groups":["g"],"compatibilityVersion":"1.36"}')


def test_admission_module_is_loaded_by_the_first_admit() -> None:
    with celwasm.Runtime(instances=1) as r:
        assert not r.admission_loaded
        raw = r._request(celwasm._module.ADMIT, _admit_request(cases()[0][2], r._documents), None)
        err = json.loads(raw)["error"]
        assert (err["code"], err["module"]) == ("needs_module", "celwasm-admission")
        assert len(r.admit(cases()[0][2])["results"]) == 2
        assert r.admission_loaded and not r.full_loaded
    with pytest.raises(celwasm.ClosedError):
        r.admit(cases()[0][2])


def test_bad_input_typed_errors_with_the_go_cli_messages(art: celwasm.Runtime) -> None:
    policies = docs("demo-policy.yaml")
    # A request object that is not an object, one of a kind no resource serves, a string: the
    # module's invalid_object, as the Go CLI prints it ("error: MESSAGE", exit 2).
    for stdin, obj in [
        (b"[1]\n", "[1]"),
        (b'{"apiVersion":"v1","kind":"Frob","metadata":{"name":"x"}}\n', {"apiVersion": "v1", "kind": "Frob", "metadata": {"name": "x"}}),
        (b'"just a string"\n', '"just a string"'),
    ]:
        rc, _, err = go_admit(["-f", "demo-policy.yaml", "-"], stdin)
        assert rc == 2, err
        with pytest.raises(InvalidObjectError) as e:
            art.admit({"documents": policies, "requests": [{"object": obj}]})
        assert e.value.code == "invalid_object" and err == "error: %s\n" % e.value.message
    for d in ["[1]", "42", "null", '{"metadata":{"name":"x"}}']:
        with pytest.raises(InvalidObjectError) as e:
            art.admit({"documents": [d], "requests": []})
        assert e.value.message.startswith("documents[0]: "), e.value.message
    # Invalid JSON (and YAML): neither host can send it (the Go CLI: exit 2).
    rc, _, err = go_admit(["-f", "-", "deployments.yaml"], b'{"apiVersion":')
    assert rc == 2 and err.startswith("celwasm admit: stdin is neither JSON nor YAML")
    for request in [
        {"documents": ['{"apiVersion":'], "requests": []},
        {"documents": [], "requests": [{"object": '{"kind": "Pod"'}]},
        {"documents": [], "requests": [{"object": {"a": object()}}]},
        {"documents": {}, "requests": []},
        {"documents": [], "requests": [1]},
        {"documents": [], "requests": [{"obj": {}}]},
        {"documents": [], "requests": [], "groups": "g"},
        {"documents": [], "requests": [], "frob": 1},
        None,
    ]:
        with pytest.raises(InvalidArgumentError):
            art.admit(request)  # type: ignore[arg-type]
    with pytest.raises(InvalidEnvError):
        art.admit({"documents": policies, "requests": [], "compatibilityVersion": "1.2"})


def test_invalid_policy_error_carries_field_errors() -> None:
    from celwasm._crd import _raise_crd_error

    with pytest.raises(InvalidPolicyError) as e:
        _raise_crd_error(b'{"error":{"code":"invalid_policy","message":"ValidatingAdmissionPolicy.admissionregistration.k8s.io \\"p\\" is invalid",'
                         b'"fieldErrors":[{"field":"spec.validations[0].expression","type":"FieldValueInvalid","message":"Invalid value: \\"1 +\\""}]}}')
    assert e.value.code == "invalid_policy" and isinstance(e.value, CelError)
    assert [str(f) for f in e.value.field_errors] == ['spec.validations[0].expression: Invalid value: "1 +"']
