"""Kubernetes CustomResourceDefinition validation offline: :class:`CRD` with
:meth:`CRD.validate` and :meth:`CRD.cost`, the module's ``celwasm_validate``
and ``celwasm_cost`` exports (docs/abi.md, "validate" and "cost"), in the
shape of the Go host's API (host/crd.go).

Every answer comes from kube-apiserver's own code inside the module
(k8s.io/apiextensions-apiserver v0.37.2): the CRD handler's decoding, pruning
and defaulting, the custom resource strategy, the OpenAPI schema validator,
the CEL validator with its cost limits, and the checks kube-apiserver runs
when a CRD is created. This package only moves bytes: requests are the bytes
the Go host sends, answers are the module's, as frozen dataclasses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field as _field, fields, is_dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple, Type, TypeVar, Union

from ._errors import CelError, InternalError, InvalidArgumentError, InvalidCRDError, InvalidPolicyError, error_for, error_from_response
from ._values import _json_value, _text_bytes
from ._gocompat import go_compact_html, go_encode, go_json_valid, go_quote, go_quote_string
from ._wire import FieldError, RuleRef, _m

__all__ = [
    "CRDObject",
    "CRDInfo",
    "CRDValidation",
    "ObjectResult",
    "FieldError",
    "RuleRef",
    "CRDCostReport",
    "SchemaCost",
    "RuleCost",
    "CostExplanation",
    "BoundNode",
    "UnknownSize",
    "CallCost",
    "BoundFix",
]

#: A Kubernetes object (or CRD): a mapping of JSON data, or its JSON or YAML
#: text (``str``/``bytes``).
ObjectArg = Union[Mapping[str, Any], str, bytes, bytearray, memoryview]


# --- answers (field order: the module's member order, which is the Go host's struct order) ------


@dataclass(frozen=True)
class CRDInfo:
    """Which CRD answered.

    Attributes:
        name: ``metadata.name``, e.g. ``webapps.example.com``.
        versions: the CRD's versions, in its order.
        default_version: the storage version (or the only served one).
        sha256: the hex sha256 of the CRD's JSON as sent (:attr:`CRD.json`):
            the module's cache key, the same on every host for the same input.
        warnings: unknown or duplicate fields in the CRD, as kube-apiserver
            warns about them.
    """

    name: str = _field(default="", metadata=_m("name"))
    group: str = _field(default="", metadata=_m("group"))
    kind: str = _field(default="", metadata=_m("kind"))
    namespaced: bool = _field(default=False, metadata=_m("namespaced"))
    versions: Tuple[str, ...] = _field(default=(), metadata=_m("versions", seq=str))
    default_version: str = _field(default="", metadata=_m("defaultVersion"))
    sha256: str = _field(default="", metadata=_m("sha256"))
    warnings: Tuple[str, ...] = _field(default=(), metadata=_m("warnings", omit=True, seq=str))


@dataclass(frozen=True)
class ObjectResult:
    """What kube-apiserver would answer to one create or update.

    Attributes:
        version: the version validated against (the object's own, or the
            ``version`` argument of :meth:`CRD.validate`).
        namespace: "" for cluster-scoped kinds; a namespaced object without
            one is in ``default``.
        operation: ``"create"`` or ``"update"``.
        valid: kube-apiserver would accept it.
        reason, code, message: for an invalid object, the Status
            kube-apiserver would return: ``Invalid`` (422) with ``errors`` as
            its causes, ``BadRequest`` (400), ...; empty when valid.
        errors: the causes (:class:`FieldError`), in kube-apiserver's order
            (the CEL validator's errors sorted by field path).
        warnings: unknown fields that were pruned (``unknown field
            "spec.x"``), and on update the errors of unchanged values that
            validation ratcheting turned into warnings; each kind sorted.
        cost: the actual cost of the rules and messageExpressions evaluated,
            in cost units (cel-go's runtime cost with kube-apiserver's library
            costs), against ``cost_budget`` (RuntimeCELCostBudget, 10,000,000
            per object).
        cost_exceeded: the budget ran out, or one evaluation passed the
            per-call limit (1,000,000): the remaining rules did not run.
        cel_skipped: blocking OpenAPI errors (type, required, enum,
            maxLength, maxItems) kept the rules from running, as in
            kube-apiserver; ``cost`` is 0.
    """

    kind: str = _field(default="", metadata=_m("kind"))
    group: str = _field(default="", metadata=_m("group"))
    version: str = _field(default="", metadata=_m("version"))
    name: str = _field(default="", metadata=_m("name"))
    namespace: str = _field(default="", metadata=_m("namespace", omit=True))
    operation: str = _field(default="", metadata=_m("operation"))
    valid: bool = _field(default=False, metadata=_m("valid"))
    reason: str = _field(default="", metadata=_m("reason", omit=True))
    code: int = _field(default=0, metadata=_m("code", omit=True))
    message: str = _field(default="", metadata=_m("message", omit=True))
    errors: Tuple[FieldError, ...] = _field(default=(), metadata=_m("errors", omit=True, seq=FieldError))
    warnings: Tuple[str, ...] = _field(default=(), metadata=_m("warnings", omit=True, seq=str))
    cost: int = _field(default=0, metadata=_m("cost"))
    cost_budget: int = _field(default=0, metadata=_m("costBudget"))
    cost_exceeded: bool = _field(default=False, metadata=_m("costExceeded", omit=True))
    cel_skipped: bool = _field(default=False, metadata=_m("celSkipped", omit=True))

    @property
    def invalid(self) -> bool:
        """kube-apiserver would reject the object."""
        return not self.valid

    def describe(self) -> str:
        """The result as kubectl reports an invalid object: ``The WebApp "x" is
        invalid: spec.replicas: Invalid value: ...`` (one cause) or one ``*
        cause`` line per error; "" when the object is valid (the Go host's
        ``ObjectResult.Describe``)."""
        if self.valid:
            return ""
        if self.reason != "Invalid" or not self.errors:
            return "Error from server (%s): %s" % (self.reason, self.message)
        head = "The %s %s is invalid: " % (self.kind, go_quote_string(self.name))
        if len(self.errors) == 1:
            return head + str(self.errors[0])
        return head + "".join("\n* " + str(e) for e in self.errors)


@dataclass(frozen=True)
class CRDValidation:
    """The answer of :meth:`CRD.validate`: one entry per object, in order —
    its :class:`ObjectResult`, or the :class:`InvalidObjectError` of an object
    that never reached validation (returned, not raised)."""

    crd: CRDInfo = _field(default_factory=CRDInfo, metadata=_m("crd", obj=CRDInfo))
    results: Tuple[Union[ObjectResult, CelError], ...] = _field(default=(), metadata=_m("results"))


@dataclass(frozen=True)
class BoundNode:
    """A schema node whose size the estimate depends on.

    Attributes:
        path: in the custom resource, e.g. ``spec.hosts[*]``.
        kind: ``list``, ``map`` or ``string``.
        bound: the schema bound (``maxItems``, ``maxProperties``,
            ``maxLength``), or None.
        bound_name: which bound (``maxItems``, ``maxProperties``,
            ``maxLength``, ``enum``).
        max_size: the size the estimator used: items, entries or bytes (a
            maxLength of n is 4n bytes to kube-apiserver).
        from_request_size: only the request size (3 MiB) bounds it.
    """

    path: str = _field(default="", metadata=_m("path"))
    kind: str = _field(default="", metadata=_m("kind"))
    bound: Optional[int] = _field(default=None, metadata=_m("bound", omit=True, ptr=True))
    bound_name: str = _field(default="", metadata=_m("boundName", omit=True))
    max_size: int = _field(default=0, metadata=_m("maxSize"))
    from_request_size: bool = _field(default=False, metadata=_m("fromRequestSize", omit=True))


@dataclass(frozen=True)
class UnknownSize:
    """A value of unbounded estimated size passed to ``function`` (an element
    of a list computed by ``filter``/``map``, the result of ``string()``),
    which no schema bound can fix."""

    expression: str = _field(default="", metadata=_m("expression"))
    function: str = _field(default="", metadata=_m("function"))
    line: int = _field(default=0, metadata=_m("line", omit=True))
    column: int = _field(default=0, metadata=_m("column", omit=True))


@dataclass(frozen=True)
class CallCost:
    """A call's or macro's share of a rule's per-run estimate: ``cost`` in
    cost units, ``percent`` of the estimate (shares under 1% are left out)."""

    function: str = _field(default="", metadata=_m("function"))
    expression: str = _field(default="", metadata=_m("expression"))
    line: int = _field(default=0, metadata=_m("line"))
    column: int = _field(default=0, metadata=_m("column"))
    cost: int = _field(default=0, metadata=_m("cost"))
    percent: float = _field(default=0.0, metadata=_m("percent"))


@dataclass(frozen=True)
class BoundFix:
    """The largest ``set`` (``maxItems``, ``maxProperties``, ``maxLength``) on
    ``path`` that brings the rule to its target; ``cost`` is the estimate with
    it, ``current`` the bound the node has now (or None)."""

    path: str = _field(default="", metadata=_m("path"))
    set: str = _field(default="", metadata=_m("set"))
    value: int = _field(default=0, metadata=_m("value"))
    current: Optional[int] = _field(default=None, metadata=_m("current", omit=True, ptr=True))
    cost: int = _field(default=0, metadata=_m("cost"))


@dataclass(frozen=True)
class CostExplanation:
    """Where a rule's estimated cost comes from, computed by re-running
    kube-apiserver's cost and size estimators on the rule.

    Attributes:
        summary: e.g. ``estimated cost 1,314 = 1,314 per run × 1 runs; limit
            10,000,000``.
        runs: the lists and maps above the node that multiply how often it
            runs (the product of their bounds is the cardinality).
        runs_from_request_size: one of them has no bound: the cardinality is
            the most copies of the node that fit in a 3 MiB request.
        sizes: the lists, maps and strings the estimate read.
        unknown_sizes: values no schema bound limits.
        calls: the rule's calls and macros by share of the per-run estimate.
        target: what ``fixes`` aim for (0 when there are none).
        fixes: single bounds that bring the rule to ``target``.
        combined_fix: one value for the bounds of several nodes at once.
        no_fix: why no bound helps.
    """

    summary: str = _field(default="", metadata=_m("summary"))
    runs: Tuple[BoundNode, ...] = _field(default=(), metadata=_m("runs", omit=True, seq=BoundNode))
    runs_from_request_size: bool = _field(default=False, metadata=_m("runsFromRequestSize", omit=True))
    sizes: Tuple[BoundNode, ...] = _field(default=(), metadata=_m("sizes", omit=True, seq=BoundNode))
    unknown_sizes: Tuple[UnknownSize, ...] = _field(default=(), metadata=_m("unknownSizes", omit=True, seq=UnknownSize))
    calls: Tuple[CallCost, ...] = _field(default=(), metadata=_m("calls", omit=True, seq=CallCost))
    target: int = _field(default=0, metadata=_m("target", omit=True))
    fixes: Tuple[BoundFix, ...] = _field(default=(), metadata=_m("fixes", omit=True, seq=BoundFix))
    combined_fix: Tuple[BoundFix, ...] = _field(default=(), metadata=_m("combinedFix", omit=True, seq=BoundFix))
    no_fix: str = _field(default="", metadata=_m("noFix", omit=True))


@dataclass(frozen=True)
class RuleCost:
    """One rule's or messageExpression's estimated cost, in cost units:
    ``cost`` = ``per_call`` × ``cardinality`` (saturating at 2^64−1), against
    ``limit`` (kube-apiserver's StaticEstimatedCostLimit, 10,000,000).

    Attributes:
        path: the expression in the CRD, e.g.
            ``spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule``.
        node: where it applies in the custom resource (``spec.items[*]``:
            every item); "" for the root.
        kind: ``rule`` or ``messageExpression``.
        cardinality: how often it runs per object (1 for a
            messageExpression, as kube-apiserver counts it).
        error: the compile error, when it does not compile.
        explanation: where the cost comes from (None when it does not
            compile).
    """

    path: str = _field(default="", metadata=_m("path"))
    node: str = _field(default="", metadata=_m("node"))
    expression: str = _field(default="", metadata=_m("expression"))
    kind: str = _field(default="", metadata=_m("kind"))
    cost: int = _field(default=0, metadata=_m("cost"))
    limit: int = _field(default=0, metadata=_m("limit"))
    exceeds: bool = _field(default=False, metadata=_m("exceeds", omit=True))
    per_call: int = _field(default=0, metadata=_m("perCall"))
    cardinality: int = _field(default=0, metadata=_m("cardinality"))
    error: str = _field(default="", metadata=_m("error", omit=True))
    explanation: Optional[CostExplanation] = _field(default=None, metadata=_m("explanation", omit=True, obj=CostExplanation))


@dataclass(frozen=True)
class SchemaCost:
    """The cost accounting of one schema, shared by ``versions``.

    Attributes:
        path: the schema in the CRD kube-apiserver validates:
            ``spec.validation.openAPIV3Schema`` when every version shares it,
            else ``spec.versions[i].schema.openAPIV3Schema``.
        total_cost: the sum of the rules' estimated costs (saturating at
            2^64−1), against ``total_limit`` (StaticEstimatedCRDCostLimit,
            100,000,000).
        rules: every rule and messageExpression in schema order (empty when
            the schema has none).
    """

    versions: Tuple[str, ...] = _field(default=(), metadata=_m("versions", seq=str))
    path: str = _field(default="", metadata=_m("path"))
    total_cost: int = _field(default=0, metadata=_m("totalCost"))
    total_limit: int = _field(default=0, metadata=_m("totalLimit"))
    # The module sends a schema without rules as null (a nil slice), as the Go host marshals it.
    rules: Tuple[RuleCost, ...] = _field(default=(), metadata=_m("rules", seq=RuleCost, null_empty=True))


@dataclass(frozen=True)
class CRDCostReport:
    """The answer of :meth:`CRD.cost`: what kube-apiserver reports about the
    CRD's schemas and x-kubernetes-validations when the CRD is created, and
    every rule's estimated cost explained.

    Attributes:
        valid: kube-apiserver would accept the CRD's schemas and rules;
            otherwise ``message`` (the Status message) and ``errors``
            (:class:`FieldError`, sorted by field path) say why.
        schemas: one :class:`SchemaCost` per distinct schema.
    """

    crd: CRDInfo = _field(default_factory=CRDInfo, metadata=_m("crd", obj=CRDInfo))
    valid: bool = _field(default=False, metadata=_m("valid"))
    message: str = _field(default="", metadata=_m("message", omit=True))
    errors: Tuple[FieldError, ...] = _field(default=(), metadata=_m("errors", omit=True, seq=FieldError))
    schemas: Tuple[SchemaCost, ...] = _field(default=(), metadata=_m("schemas", seq=SchemaCost))


# --- decoding and Go's marshaling ------------------------------------------------------------------

_T = TypeVar("_T")


def _decode(cls: Type[_T], d: Any) -> _T:
    """A dataclass from the module's JSON object (members by their JSON name)."""
    if not isinstance(d, dict):
        raise InternalError("malformed response: want an object for %s, got %r" % (cls.__name__, d))
    kw: Dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        v = d.get(f.metadata["json"])
        if v is None:
            continue
        seq, obj = f.metadata["seq"], f.metadata["obj"]
        if seq is not None:
            if not isinstance(v, list):
                raise InternalError("malformed response: %s is not a list" % f.metadata["json"])
            v = tuple(_decode(seq, x) if isinstance(seq, type) and is_dataclass(seq) else x for x in v)
        elif obj is not None:
            v = _decode(obj, v)
        elif isinstance(f.default, float) and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        kw[f.name] = v
    return cls(**kw)


def _empty(v: Any) -> bool:
    return v is None or v is False or v == 0 or v == "" or v == ()


def go_struct(v: Any) -> Any:
    """An answer as JSON-ready values in the Go host's struct layout: members
    in struct order, ``omitempty`` members left out when empty, a nil slice
    as None — what Go's ``json.Marshal`` of the Go host's struct writes."""
    if is_dataclass(v) and not isinstance(v, type):
        out: Dict[str, Any] = {}
        for f in fields(v):
            x = getattr(v, f.name)
            md = f.metadata
            if md["omit"] and (x is None if md["ptr"] else _empty(x)):
                continue
            if md["null_empty"] and x == ():
                out[md["json"]] = None
                continue
            out[md["json"]] = go_struct(x)
        return out
    if isinstance(v, tuple):
        return [go_struct(x) for x in v]
    if isinstance(v, CelError):
        # An object that never reached validation: {"error": E}, as the module answers it
        # (E as the Go host's *Error marshals).
        e: Dict[str, Any] = {"code": v.code, "message": v.message}
        if v.cost is not None:
            e["cost"] = v.cost
        return {"error": e}
    return v


def go_json(v: Any, *, indent: str = "", html: bool = True) -> str:
    """:func:`go_struct` written as Go's ``json.Marshal`` (or an indenting
    Encoder) writes it."""
    return go_encode(go_struct(v), indent=indent, html=html)


# --- requests -------------------------------------------------------------------------------------


def _json_arg(value: Any, what: str, documents: Callable[[bytes], List[bytes]]) -> bytes:
    """An object or CRD argument as the Go host's ``json.Marshal`` writes a
    ``json.RawMessage``: compacted, ``<``, ``>``, ``&``, U+2028 and U+2029
    escaped. Text that is not JSON is read as one YAML document by
    ``documents`` (the module's celwasm_input, as the Go CLI reads YAML:
    sigs.k8s.io/yaml)."""
    text = _text_bytes(value, what)
    if text is None:
        if not isinstance(value, Mapping):
            raise InvalidArgumentError("%s must be a mapping or its JSON or YAML text; got %s" % (what, type(value).__name__))
        text = _json_value(value, what)
    elif not go_json_valid(text):
        try:
            docs = documents(text)
        except CelError as e:
            if e.code != "invalid_input":
                raise
            raise InvalidArgumentError("%s: neither JSON nor YAML: %s" % (what, e.message)) from None
        if len(docs) != 1:
            raise InvalidArgumentError("%s: %d YAML documents; want one" % (what, len(docs)))
        text = docs[0]
    c = go_compact_html(text)
    if c is None:
        raise InvalidArgumentError("%s: not JSON text" % what)
    return c


def _version_piece(version: Optional[str]) -> bytes:
    if version is None or version == "":
        return b""
    if not isinstance(version, str):
        raise InvalidArgumentError("version must be a str")
    try:
        return b',"version":' + go_quote(version).encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidArgumentError("version: %s" % e) from None


@dataclass(frozen=True)
class CRDObject:
    """One object to validate: a create (``object``), or an update
    (``object`` replacing ``old_object``, the stored object). Each is a
    mapping of JSON data or its JSON or YAML text. The Go host's
    ``CRDObject``."""

    object: ObjectArg
    old_object: Optional[ObjectArg] = None


def _raise_crd_error(resp: bytes) -> None:
    """Raises the module's error response (an InvalidCRDError or
    InvalidPolicyError with the field errors for invalid_crd and
    invalid_policy)."""
    err = error_from_response(resp)
    if err is None:
        return
    if isinstance(err, (InvalidCRDError, InvalidPolicyError)):
        try:
            fe = json.loads(resp)["error"].get("fieldErrors") or ()
            err.field_errors = tuple(_decode(FieldError, x) for x in fe)
        except (ValueError, KeyError, TypeError, AttributeError):
            raise InternalError("malformed error response: %r" % resp[:2000]) from None
    raise err


def _load(resp: bytes, what: str) -> Dict[str, Any]:
    _raise_crd_error(resp)
    try:
        body = json.loads(resp)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise InternalError("malformed %s response: %r" % (what, resp[:2000]))
    return body
