"""celwasm: CEL (cel-go v0.29.2 with the Kubernetes CEL libraries) from the
celwasm WebAssembly module, on wasmtime — the same engine, and the same result
bytes, as every other celwasm host (Go, JavaScript, CLI).

Quick start::

    import celwasm

    env = celwasm.Env({"self": "map(string, dyn)"})
    with env.compile("self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas") as prg:
        prg.evaluate({"self": {"minReplicas": 1, "replicas": 3, "maxReplicas": 5}})   # True
        r = prg.eval({"self": {"minReplicas": 1, "replicas": 9, "maxReplicas": 5}})
        r.json, r.cost                                                               # b'false', 10

The shapes follow the Go host (host/): a :class:`Runtime` loads the module
and keeps a pool of instances; an :class:`Env` (declarations, Kubernetes
compatibility version, extensions) compiles an expression into a
:class:`Program`; :meth:`Program.eval` returns a :class:`Result` (canonical JSON
+ cost), :meth:`Program.evaluate` the Python value. :meth:`Env.compile_filter`
(CloudEvents trigger filters) and :meth:`Env.compile_when` (Tekton when
expressions) compile programs whose CEL the module derives;
:meth:`Program.eval_event` evaluates one CloudEvent and
:meth:`Program.eval_batch` many activations or CloudEvents in one module call.
:class:`CRD` validates custom resources against a CustomResourceDefinition
offline, as kube-apiserver does (:meth:`CRD.validate`, creates and updates),
and reports its rules' estimated costs against kube-apiserver's limits
(:meth:`CRD.cost`). :meth:`Runtime.admit` runs ValidatingAdmissionPolicies and
MutatingAdmissionPolicies on objects as kube-apiserver's admission chain does.
Behaviour (semantics, errors, costs) comes from cel-spec as cel-go implements
it and from kube-apiserver's CEL environment, CustomResourceDefinition and
admission plugin code; this package only moves bytes.

Value mapping (results; typed activations are the inverse):

==========================  ==============================================
CEL                         Python
==========================  ==============================================
null / bool / string        ``None`` / ``bool`` / ``str``
int                         ``int``
uint                        :class:`UInt` (an ``int`` subclass)
double                      ``float`` (NaN, ±inf, -0.0)
bytes                       ``bytes``
list                        ``list``
map                         ``dict`` (keys ``bool``/``int``/``UInt``/``str``)
timestamp                   :class:`Timestamp` (UTC ``datetime`` + ``nanosecond``)
duration                    :class:`Duration` (``timedelta`` + ``nanosecond``)
optional                    :class:`OptionalValue`
type                        :class:`TypeValue`
library object              :class:`Object` (Quantity, IP, CIDR, URL, Semver, ...)
protobuf message            :class:`Message`
==========================  ==============================================

Errors are :class:`CelError` subclasses with the codes of docs/abi.md plus the
host's own; bad input never takes the interpreter down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List

from ._errors import (
    BadRequestError,
    CanceledError,
    CelError,
    ClosedError,
    CompileError,
    CostLimitExceededError,
    DeadlineExceededError,
    DecodeError,
    EvaluationError,
    InternalError,
    InvalidActivationError,
    InvalidArgumentError,
    InvalidCRDError,
    InvalidEnvError,
    InvalidObjectError,
    InvalidPolicyError,
    Issue,
    TrapError,
    UnknownProgramError,
)
if TYPE_CHECKING:
    from ._crd import (
        BoundFix,
        BoundNode,
        CallCost,
        CostExplanation,
        CRDCostReport,
        CRDInfo,
        CRDObject,
        CRDValidation,
        FieldError,
        ObjectResult,
        RuleCost,
        RuleRef,
        SchemaCost,
        UnknownSize,
    )

from ._module import DEFAULT_MEMORY_LIMIT, Instance, Module, default_cache_dir
from ._runtime import (
    CRD,
    ACTIVATIONS,
    CLOUD_EVENTS,
    DEFAULT_COST_LIMIT,
    CostEstimate,
    Env,
    Program,
    Result,
    ModuleInfo,
    Runtime,
    VersionInfo,
    default_runtime,
)
from ._text import format_text
from ._values import (
    Duration,
    Message,
    Object,
    OptionalValue,
    Timestamp,
    TypeValue,
    UInt,
    decode,
    encode,
    format_double,
)

__version__ = "0.1.0"

__all__ = [
    "__version__",
    # API
    "Runtime",
    "Env",
    "Program",
    "Result",
    "CostEstimate",
    "VersionInfo",
    "ModuleInfo",
    "default_runtime",
    "Module",
    "Instance",
    "default_cache_dir",
    "DEFAULT_COST_LIMIT",
    "DEFAULT_MEMORY_LIMIT",
    "ACTIVATIONS",
    "CLOUD_EVENTS",
    # CustomResourceDefinition validation
    "CRD",
    "CRDObject",
    "CRDValidation",
    "CRDInfo",
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
    # values
    "UInt",
    "Timestamp",
    "Duration",
    "OptionalValue",
    "TypeValue",
    "Object",
    "Message",
    "decode",
    "encode",
    "format_double",
    "format_text",
    # errors
    "CelError",
    "BadRequestError",
    "InvalidEnvError",
    "CompileError",
    "Issue",
    "UnknownProgramError",
    "InvalidActivationError",
    "InvalidCRDError",
    "InvalidObjectError",
    "InvalidPolicyError",
    "EvaluationError",
    "CostLimitExceededError",
    "CanceledError",
    "DeadlineExceededError",
    "InternalError",
    "TrapError",
    "ClosedError",
    "InvalidArgumentError",
    "DecodeError",
]


# The CRD result types come from ._crd, imported on first use (PEP 562): its
# dataclasses would add ~10 ms to every `import celwasm`, and most programs
# only evaluate expressions. Which names it serves is its own __all__.
def __getattr__(name: str) -> Any:
    if name.startswith("_"):  # not one of them (and `from . import _crd` asks for "_crd")
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from . import _crd

    if name in _crd.__all__:
        value = getattr(_crd, name)
        globals()[name] = value
        return value
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def __dir__() -> List[str]:
    from . import _crd

    return sorted(set(globals()) | set(_crd.__all__))
