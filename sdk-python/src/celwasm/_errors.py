"""Typed exceptions.

Every failure surfaces as a :class:`CelError` subclass carrying a stable
``code``: the module's codes from docs/abi.md ("Errors") and the host's own
(``trap``, ``canceled``, ``deadline_exceeded``, ``closed``,
``invalid_argument``, ``decode_error``). ``message`` is human-readable and not
stable; ``code`` is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, Optional, Sequence, Tuple, Type

if TYPE_CHECKING:  # pragma: no cover
    from ._wire import FieldError

__all__ = [
    "CelError",
    "BadRequestError",
    "InvalidEnvError",
    "CompileError",
    "UnknownProgramError",
    "InvalidActivationError",
    "EvaluationError",
    "CostLimitExceededError",
    "CanceledError",
    "DeadlineExceededError",
    "InternalError",
    "TrapError",
    "ClosedError",
    "InvalidArgumentError",
    "DecodeError",
    "InvalidCRDError",
    "InvalidObjectError",
    "InvalidPolicyError",
    "Issue",
]

# Codes returned by the module (docs/abi.md).
CODE_BAD_REQUEST = "bad_request"
CODE_INVALID_ENV = "invalid_env"
CODE_COMPILE = "compile_error"
CODE_UNKNOWN_PROGRAM = "unknown_program"
CODE_INVALID_ACTIVATION = "invalid_activation"
CODE_EVAL = "eval_error"
CODE_COST_LIMIT = "cost_limit_exceeded"
CODE_CANCELED = "canceled"
CODE_INVALID_CRD = "invalid_crd"
CODE_INVALID_OBJECT = "invalid_object"
CODE_INVALID_POLICY = "invalid_policy"
CODE_INTERNAL = "internal"
# Codes added by this host.
CODE_TRAP = "trap"
CODE_DEADLINE_EXCEEDED = "deadline_exceeded"
CODE_CLOSED = "closed"
CODE_INVALID_ARGUMENT = "invalid_argument"
CODE_DECODE = "decode_error"


@dataclass(frozen=True)
class Issue:
    """One compile problem, as cel-go reports it.

    ``line`` and ``column`` are 1-based (the column counts code points);
    ``message`` is cel-go's text; ``snippet`` is cel-go's display form
    (``common.Error.ToDisplayString``): a header, the source line and a caret
    under the column, e.g.::

        ERROR: <input>:1:6: undeclared reference to 'y' (in container '')
         | x + y
         | .....^
    """

    line: int
    column: int
    message: str
    snippet: str


class CelError(Exception):
    """Base class of every celwasm error.

    Attributes:
        code: the stable error code (see the module docstring).
        message: human-readable text (not stable).
        cost: for evaluation failures, the actual cost spent before the
            evaluation stopped, in cost units (cel-go's runtime cost, with
            kube-apiserver's library costs for the kubernetes base); else None.
    """

    default_code = "unknown"

    def __init__(self, message: str, *, code: Optional[str] = None, cost: Optional[int] = None) -> None:
        super().__init__(message)
        self.code: str = code or self.default_code
        self.message: str = message
        self.cost: Optional[int] = cost

    def __str__(self) -> str:
        return "celwasm: %s: %s" % (self.code, self.message)

    def __repr__(self) -> str:
        return "%s(code=%r, message=%r%s)" % (
            type(self).__name__,
            self.code,
            self.message,
            "" if self.cost is None else ", cost=%d" % self.cost,
        )


class BadRequestError(CelError):
    """The module rejected a malformed request (``bad_request``); a host bug or a bad raw request."""

    default_code = CODE_BAD_REQUEST


class InvalidEnvError(CelError):
    """The environment cannot be built (``invalid_env``): unknown extension or base,
    unsupported compatibility version, an extension the Kubernetes base already
    has, a type name that does not parse, a variable declared twice, a bad
    descriptor set."""

    default_code = CODE_INVALID_ENV


class CompileError(CelError):
    """The expression does not parse or type-check (``compile_error``).

    ``issues`` lists every problem (:class:`Issue`); ``str(error)`` is all
    snippets joined by newlines, as cel-go's ``Issues.String()``. ``line``,
    ``column`` and ``snippet`` are those of the first issue (0/0/"" when the
    error has no issues, e.g. an expression that is not valid UTF-8).
    """

    default_code = CODE_COMPILE

    def __init__(
        self,
        message: str,
        *,
        code: Optional[str] = None,
        cost: Optional[int] = None,
        issues: Sequence[Issue] = (),
    ) -> None:
        super().__init__(message, code=code, cost=cost)
        self.issues: Tuple[Issue, ...] = tuple(issues)

    @property
    def line(self) -> int:
        return self.issues[0].line if self.issues else 0

    @property
    def column(self) -> int:
        return self.issues[0].column if self.issues else 0

    @property
    def snippet(self) -> str:
        return self.issues[0].snippet if self.issues else ""

    def __str__(self) -> str:
        if self.issues:
            return self.message
        return super().__str__()


class UnknownProgramError(CelError):
    """The program handle is unknown to the instance (``unknown_program``); a host bug."""

    default_code = CODE_UNKNOWN_PROGRAM


class InvalidActivationError(CelError):
    """The activation is not a JSON object, is not valid JSON/UTF-8, nests deeper
    than 1,000 levels, or a typed value is malformed (``invalid_activation``)."""

    default_code = CODE_INVALID_ACTIVATION


class EvaluationError(CelError):
    """Evaluation produced a CEL error (``eval_error``): no such key, no matching
    overload, division by zero, overflow, a value that does not convert to its
    declared type, ... ``cost`` is set."""

    default_code = CODE_EVAL


class CostLimitExceededError(CelError):
    """The actual cost passed the per-call cost limit (``cost_limit_exceeded``);
    evaluation stopped. ``cost`` is the cost spent, in cost units."""

    default_code = CODE_COST_LIMIT


class CanceledError(CelError):
    """The evaluation was interrupted through the module's interrupt flag (``canceled``)."""

    default_code = CODE_CANCELED


class DeadlineExceededError(CanceledError, TimeoutError):
    """The call's ``timeout`` passed (``deadline_exceeded``): the evaluation was
    interrupted (``cost`` is set), or no instance became free in time. The
    instance stays usable. Also a built-in :class:`TimeoutError`."""

    default_code = CODE_DEADLINE_EXCEEDED


class _FieldErrorsError(CelError):
    """An error with kube-apiserver's field errors (``field_errors``)."""

    def __init__(
        self,
        message: str,
        *,
        code: Optional[str] = None,
        cost: Optional[int] = None,
        field_errors: "Sequence[FieldError]" = (),
    ) -> None:
        super().__init__(message, code=code, cost=cost)
        self.field_errors: "Tuple[FieldError, ...]" = tuple(field_errors)


class InvalidCRDError(_FieldErrorsError):
    """The CustomResourceDefinition cannot be used (``invalid_crd``): it is not an
    apiextensions.k8s.io/v1 CustomResourceDefinition (not JSON, another kind or
    version, missing group/kind/versions, a field of the wrong type), has no
    such version, or — ``field_errors`` then lists why — kube-apiserver would
    reject it when it is created: a schema that is not structural, rules that
    do not compile or exceed the cost limits, ``oldSelf`` where it cannot be
    used, ... ``message`` is then kube-apiserver's Status message for the CRD.

    Attributes:
        field_errors: kube-apiserver's field errors for the CRD
            (:class:`FieldError`, sorted by field path); empty when the CRD is
            not usable at all.
    """

    default_code = CODE_INVALID_CRD


class InvalidObjectError(CelError):
    """An object never reached validation (``invalid_object``): it is not a JSON
    object, has no apiVersion or kind, is not of the CRD's group and kind,
    names a version that is not served (or cannot be converted offline), or
    has metadata that does not decode. Returned in
    :attr:`CRDValidation.results` in the object's place, not raised; raised
    by :meth:`Runtime.admit` for a document or object that is not a served
    Kubernetes object."""

    default_code = CODE_INVALID_OBJECT


class InvalidPolicyError(_FieldErrorsError):
    """An admission policy or binding kube-apiserver would refuse when it is
    created (``invalid_policy``): an expression that does not compile, a
    missing or bad field. Raised by :meth:`Runtime.admit`.

    Attributes:
        field_errors: kube-apiserver's field errors for it
            (:class:`FieldError`: ``spec.validations[0].expression``, ...);
            empty when the module gave none.
    """

    default_code = CODE_INVALID_POLICY


class InternalError(CelError):
    """A bug: a recovered panic in the module, or a response the host cannot read (``internal``)."""

    default_code = CODE_INTERNAL


class TrapError(CelError):
    """The WebAssembly instance trapped or exited (``trap``): out of memory under
    the memory limit, a Go runtime fatal error. The instance was discarded and
    is replaced on the next call; programs are compiled again there lazily.
    The message names the Go runtime's fatal error when there is one;
    ``details`` holds wasmtime's full message (with the wasm backtrace) and
    the tail of the guest's stderr."""

    default_code = CODE_TRAP

    def __init__(self, message: str, *, code: Optional[str] = None, cost: Optional[int] = None, details: str = "") -> None:
        super().__init__(message, code=code, cost=cost)
        self.details: str = details


class ClosedError(CelError):
    """The runtime or the program was closed (``closed``)."""

    default_code = CODE_CLOSED


class InvalidArgumentError(CelError, ValueError):
    """A Python argument cannot be sent to the module (``invalid_argument``): an
    activation value with no CEL form, an int out of the int64/uint64 range, a
    naive datetime, a string that is not valid Unicode, a request over 4 GiB.
    Also a built-in :class:`ValueError`."""

    default_code = CODE_INVALID_ARGUMENT


class DecodeError(CelError, ValueError):
    """A result cannot be turned into Python values (``decode_error``): a map
    whose keys collide in Python (``true`` and ``1``), nesting beyond Python's
    recursion limit. The canonical JSON (``Result.json``) is still available.
    Also a built-in :class:`ValueError`."""

    default_code = CODE_DECODE


_BY_CODE: Dict[str, Type[CelError]] = {
    CODE_BAD_REQUEST: BadRequestError,
    CODE_INVALID_ENV: InvalidEnvError,
    CODE_COMPILE: CompileError,
    CODE_UNKNOWN_PROGRAM: UnknownProgramError,
    CODE_INVALID_ACTIVATION: InvalidActivationError,
    CODE_EVAL: EvaluationError,
    CODE_COST_LIMIT: CostLimitExceededError,
    CODE_CANCELED: CanceledError,
    CODE_INVALID_CRD: InvalidCRDError,
    CODE_INVALID_OBJECT: InvalidObjectError,
    CODE_INVALID_POLICY: InvalidPolicyError,
    CODE_INTERNAL: InternalError,
    CODE_TRAP: TrapError,
    CODE_DEADLINE_EXCEEDED: DeadlineExceededError,
    CODE_CLOSED: ClosedError,
    CODE_INVALID_ARGUMENT: InvalidArgumentError,
    CODE_DECODE: DecodeError,
}


def error_for(code: str, message: str, *, cost: Optional[int] = None, issues: Sequence[Issue] = ()) -> CelError:
    """Builds the exception for an error code."""
    cls = _BY_CODE.get(code, CelError)
    if cls is CompileError:
        return CompileError(message, code=code, cost=cost, issues=issues)
    return cls(message, code=code, cost=cost)


def error_from_response(resp: bytes) -> Optional[CelError]:
    """The exception of a module error response ``{"error":{...}}``, or None
    when ``resp`` is not an error response."""
    if not resp.startswith(b'{"error":'):
        return None
    try:
        body: Any = json.loads(resp)["error"]
        code = body["code"]
        message = body.get("message", "")
        cost = body.get("cost")
        issues = [
            Issue(int(i.get("line", 0)), int(i.get("column", 0)), str(i.get("message", "")), str(i.get("snippet", "")))
            for i in body.get("issues") or ()
        ]
        if not isinstance(code, str) or not isinstance(message, str):
            raise TypeError("code/message")
    except (ValueError, KeyError, TypeError, AttributeError):
        return InternalError("malformed error response: %r" % resp[:2000])
    return error_for(code, message, cost=cost if isinstance(cost, int) else None, issues=issues)
