"""Runtime (a pool of instances), Env, Program and Result: the Go host's API
(host/celwasm.go, env.go, program.go) in Python."""

from __future__ import annotations

import base64
import collections
import heapq
import itertools
import json
import os
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Deque, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _module
from ._errors import (
    CanceledError,
    CelError,
    ClosedError,
    CompileError,
    DeadlineExceededError,
    InternalError,
    InvalidArgumentError,
    TrapError,
    error_for,
    error_from_response,
)
from ._gocompat import go_compact, go_is_blank, go_json_valid, go_quote
from ._module import ADMIT as _ADMIT, COST as _COST, DEFAULT_MEMORY_LIMIT, EVAL as _EVAL, EVAL_BATCH as _EVAL_BATCH, VALIDATE as _VALIDATE, INPUT as _INPUT, Instance, Module
from ._text import format_text
from ._values import _NeedsTyped, _json_value, _plain_text, _text_bytes, decode, encode

if TYPE_CHECKING:
    # ._crd is imported where CRD validation and admission use it: its
    # dataclasses would add ~10 ms to every import of celwasm.
    from ._crd import CRDCostReport, CRDObject, CRDValidation, ObjectArg


__all__ = [
    "Runtime",
    "CRD",
    "Env",
    "Program",
    "Result",
    "CostEstimate",
    "VersionInfo",
    "default_runtime",
    "DEFAULT_COST_LIMIT",
    "ACTIVATIONS",
    "CLOUD_EVENTS",
]

#: kube-apiserver's PerCallLimit, in cost units: the module's default per-call cost limit.
DEFAULT_COST_LIMIT = 1_000_000

#: :meth:`Program.eval_batch` items that are activations (objects of variables).
ACTIVATIONS = "activations"
#: :meth:`Program.eval_batch` items that are CloudEvents (as for :meth:`Program.eval_event`).
CLOUD_EVENTS = "cloudEvents"

ActivationArg = Union[Mapping[str, Any], bytes, bytearray, memoryview, str, None]
#: A CloudEvent: a mapping (structured mode, or a binary-mode envelope) or its JSON text.
EventArg = Union[Mapping[str, Any], bytes, bytearray, memoryview, str]
#: A trigger filter: a mapping or its JSON text.
FilterArg = Union[Mapping[str, Any], bytes, bytearray, memoryview, str]


# ---------------------------------------------------------------------------
# Watchdog: one daemon thread that sets the interrupt flag of instances whose
# call passed its deadline.


class _Alarm:
    __slots__ = ("deadline", "instance", "active", "fired")

    def __init__(self, deadline: float, instance: Instance) -> None:
        self.deadline = deadline
        self.instance = instance
        self.active = True
        self.fired = False


class _Watchdog:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: List[Tuple[float, int, _Alarm]] = []
        self._seq = itertools.count()
        self._thread: Optional[threading.Thread] = None

    def arm(self, deadline: float, instance: Instance) -> _Alarm:
        alarm = _Alarm(deadline, instance)
        with self._cond:
            heapq.heappush(self._heap, (deadline, next(self._seq), alarm))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="celwasm-watchdog", daemon=True)
                self._thread.start()
            self._cond.notify()
        return alarm

    def disarm(self, alarm: _Alarm) -> bool:
        """Stops the alarm; after this returns the flag is never set for it.
        Returns whether it fired."""
        with self._cond:
            alarm.active = False
            return alarm.fired

    def _run(self) -> None:
        with self._cond:
            while True:
                while self._heap and not self._heap[0][2].active:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._cond.wait(30.0)
                    if not self._heap:
                        continue
                    continue
                deadline, _, alarm = self._heap[0]
                now = time.monotonic()
                if now >= deadline:
                    heapq.heappop(self._heap)
                    if alarm.active:
                        alarm.fired = True
                        alarm.instance.interrupt()
                    continue
                self._cond.wait(deadline - now)


_watchdog = _Watchdog()


# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CostEstimate:
    """cel-go's static cost estimate of a checked expression, in cost units, with
    the environment's estimator (kube-apiserver's ``library.CostEstimator`` for
    the kubernetes base). Declarations carry no size bounds, so ``max`` may be
    as large as 2^64−1."""

    min: int
    max: int


@dataclass(frozen=True)
class VersionInfo:
    """What the module reports (``celwasm_version``) plus the host's view."""

    abi: int
    module: str
    cel_go: str
    kubernetes: str
    go: str
    compatibility_versions: Tuple[str, ...]
    default_compatibility_version: str
    extensions: Tuple[str, ...]
    default_cost_limit: int
    #: hex sha256 of the module bytes in use.
    module_sha256: str
    #: the WebAssembly runtime, e.g. "wasmtime-py 50.0.1".
    engine: str
    #: the three modules: the expression module, then celwasm-full and
    #: celwasm-admission (loaded or not).
    modules: Tuple["ModuleInfo", ...] = ()


@dataclass(frozen=True)
class ModuleInfo:
    """One module: ``name`` ("celwasm" or "celwasm-full"), ``size`` in bytes,
    ``sha256`` (hex) and whether this Runtime has ``loaded`` it."""

    name: str
    size: int
    sha256: str
    loaded: bool


class Result:
    """An evaluation result.

    Attributes:
        json: the value in canonical typed JSON (docs/value-encoding.md),
            sliced from the module's response without re-encoding: identical
            values give identical bytes on every celwasm host.
        cost: the actual cost of the evaluation, in cost units (cel-go's
            runtime cost tracking; kube-apiserver's library costs for the
            kubernetes base).
    """

    __slots__ = ("json", "cost", "_value", "_decoded")

    def __init__(self, json: bytes, cost: int) -> None:
        self.json = json
        self.cost = cost
        self._decoded = False
        self._value: Any = None

    @property
    def value(self) -> Any:
        """The value as Python values (see :mod:`celwasm` for the mapping).

        Raises:
            DecodeError: the value has no faithful Python form (map keys that
                collide in Python, nesting beyond the recursion limit).
        """
        if not self._decoded:
            self._value = decode(self.json)
            self._decoded = True
        return self._value

    @property
    def text(self) -> str:
        """The value as CEL literal text (the CLI's ``-o text``)."""
        return format_text(self.json)

    def __repr__(self) -> str:
        return "Result(json=%r, cost=%d)" % (self.json, self.cost)


_VALUE_PREFIX = b'{"value":'
_COST_FIELD = b',"cost":'


def _eval_result(resp: bytes, fired: bool, timeout: Optional[float]) -> "Result":
    """Decodes an eval response; a cancellation the watchdog caused becomes
    :class:`DeadlineExceededError`."""
    try:
        value, cost = _parse_eval(resp)
    except CanceledError as e:
        if fired:
            raise DeadlineExceededError("evaluation exceeded its %ss timeout" % timeout, cost=e.cost) from None
        raise
    return Result(value, cost)


def _parse_eval(resp: bytes) -> Tuple[bytes, int]:
    if resp.startswith(_VALUE_PREFIX) and resp.endswith(b"}"):
        i = resp.rfind(_COST_FIELD)
        if i > 0:
            digits = resp[i + len(_COST_FIELD) : -1]
            if digits.isdigit():
                return resp[len(_VALUE_PREFIX) : i], int(digits)
    err = error_from_response(resp)
    if err is not None:
        raise err
    raise InternalError("malformed eval response: %r" % resp[:2000])


def _parse_batch(resp: bytes, n: int) -> List[Union[Result, CelError]]:
    """An eval_batch response: one eval response per line. A single error
    response for a malformed header or an unknown program (or for an empty
    batch) fails the call, as the Go host's EvalBatch."""
    if resp.startswith(b'{"error":') and b"\n" not in resp:
        err = error_from_response(resp)
        if err is not None and (err.code in ("bad_request", "unknown_program") or n == 0):
            raise err
    out: List[Union[Result, CelError]] = []
    if resp:
        lines = resp.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        for line in lines:
            try:
                value, cost = _parse_eval(line)
            except CelError as e:
                out.append(e)
                continue
            out.append(Result(value, cost))
    if len(out) != n:
        raise InternalError("batch: %d results for %d items" % (len(out), n))
    return out


class _PooledInstance:
    """An instance with the runtime's bookkeeping."""

    __slots__ = ("instance", "handles", "pending", "__weakref__")

    def __init__(self, instance: Instance) -> None:
        self.instance = instance
        self.handles: Dict[int, int] = {}  # program id -> guest handle
        self.pending: Deque[int] = collections.deque()  # program ids freed since last use


class Runtime:
    """A loaded celwasm module with a pool of instances; safe for concurrent use
    from any number of threads.

    Each instance is single threaded; a call takes an idle instance or makes a
    new one, up to ``instances``, and otherwise waits. wasmtime releases the
    GIL while WebAssembly runs, so threads evaluate in parallel. A program
    compiled once is compiled again lazily in every instance that evaluates
    it. An instance that traps is discarded and replaced; the caller gets a
    :class:`TrapError` and nothing else is affected.

    Args:
        instances: most instances kept (default ``os.cpu_count()``); each
            costs ~25 MB of guest memory.
        memory_limit: cap on each instance's linear memory, bytes (default
            1 GiB); an instance that needs more traps and is replaced.
        module: a loaded :class:`Module` to share; default the process-wide
            packaged module (loaded once, from the cache when possible).
        module_path: load this ``.wasm`` instead (with ``cache_dir``).
        cache_dir: see :class:`Module`.
        full_module: the :class:`Module` named ``"celwasm-full"`` to load for
            requests the first module answers with code ``needs_module``
            (CRD validation and cost, filters reading Knative's ``attrs`` or
            ``cesql``); default the process-wide packaged one, loaded on the
            first such request, not before.
        on_compile_full: ``on_compile`` (see :class:`Module`) for loading
            the packaged celwasm-full.
        admission_module: the :class:`Module` named ``"celwasm-admission"``
            for :meth:`admit` (admission policies); default the process-wide
            packaged one, loaded by the first :meth:`admit`, not before.
        on_compile_admission: ``on_compile`` for loading the packaged
            celwasm-admission.

    The first instance is created here, so a broken setup fails early.

    Raises:
        TrapError: the module cannot be loaded or instantiated.
    """

    def __init__(
        self,
        *,
        instances: Optional[int] = None,
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        module: Optional[Module] = None,
        module_path: Union[str, "os.PathLike[str]", None] = None,
        cache_dir: Union[str, "os.PathLike[str]", None] = None,
        full_module: Optional[Module] = None,
        on_compile_full: Optional[Callable[[Optional[Path]], None]] = None,
        admission_module: Optional[Module] = None,
        on_compile_admission: Optional[Callable[[Optional[Path]], None]] = None,
    ) -> None:
        if module is None:
            if module_path is None and cache_dir is None:
                module = shared_module()
            else:
                module = Module(module_path, cache_dir=cache_dir)
        self.module = module
        self._full_module = full_module
        self._on_compile_full = on_compile_full
        self._cache_dir = cache_dir
        self._full: Optional["Runtime"] = None
        self._full_lock = threading.Lock()
        self._admission_module = admission_module
        self._on_compile_admission = on_compile_admission
        self._admission: Optional["Runtime"] = None
        self._max = max(1, instances if instances is not None else (os.cpu_count() or 1))
        self._memory_limit = memory_limit
        # _acquire and _put take the lock itself: entering the Condition
        # is a Python-level call on top of it, on every evaluation.
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._idle: List[_PooledInstance] = []
        self._count = 0  # live instances (idle + in use + being created)
        self._waiting = 0  # threads waiting for an instance
        self._live: Tuple[_PooledInstance, ...] = ()
        self._closed = False
        self._ids = itertools.count(1)
        first = self._new_instance()
        with self._cond:
            self._count = 1
            self._idle.append(first)

    # --- pool ------------------------------------------------------------

    def _new_instance(self) -> _PooledInstance:
        pi = _PooledInstance(self.module.instantiate(memory_limit=self._memory_limit))
        with self._cond:
            self._live = self._live + (pi,)
        return pi

    def _acquire(self, deadline: Optional[float]) -> _PooledInstance:
        pi: Optional[_PooledInstance] = None
        with self._lock:
            while True:
                if self._closed:
                    raise ClosedError("runtime is closed")
                if self._idle:
                    pi = self._idle.pop()
                    break
                if self._count < self._max:
                    self._count += 1
                    break
                self._waiting += 1
                try:
                    if deadline is None:
                        self._cond.wait()
                    else:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            raise DeadlineExceededError("no instance became free before the timeout")
                        self._cond.wait(left)
                finally:
                    self._waiting -= 1
        if pi is None:
            try:
                pi = self._new_instance()
            except BaseException:
                with self._lock:
                    self._count -= 1
                    self._cond.notify()
                raise
        # Release programs closed since this instance was last used.
        pending = pi.pending
        while pending:
            h = pi.handles.pop(pending.popleft(), None)
            if h is not None:
                try:
                    pi.instance.free(h)
                except TrapError:
                    self._discard(pi)
                    return self._acquire(deadline)
        return pi

    def _put(self, pi: _PooledInstance) -> None:
        # An instance of older code (Winch, before the module's tier-up) is
        # replaced; its programs are compiled again in the next instance.
        if not pi.instance.dead and pi.instance.generation == self.module.generation:
            with self._lock:
                if not self._closed:
                    self._idle.append(pi)
                    if self._waiting:
                        self._cond.notify()
                    return
        self._discard(pi)

    def _discard(self, pi: _PooledInstance) -> None:
        with self._cond:
            if pi not in self._live:
                return
            self._live = tuple(x for x in self._live if x is not pi)
            self._count -= 1
            self._cond.notify()
        pi.instance.close()

    def _release_program(self, pid: int) -> None:
        # Runs from Program.close or a GC finalizer (any thread, any time):
        # lock-free — deque.append is atomic and _live is an immutable tuple.
        for pi in self._live:
            pi.pending.append(pid)

    # --- public ----------------------------------------------------------

    def env(
        self,
        variables: Union[Mapping[str, str], Iterable[Tuple[str, str]], None] = None,
        **options: Any,
    ) -> "Env":
        """An :class:`Env` of this runtime; arguments as :class:`Env`."""
        return Env(variables, runtime=self, **options)

    def crd(self, crd: "ObjectArg") -> "CRD":
        """A :class:`CRD` (a CustomResourceDefinition to validate custom
        resources against) of this runtime; the Go host's ``Runtime.NewCRD``.
        ``crd`` as :class:`CRD` takes it."""
        return CRD(crd, runtime=self)

    def _full_runtime(self) -> "Runtime":
        """The Runtime of celwasm-full, loaded on first use (same pool size
        and memory limit); itself when this Runtime runs celwasm-full."""
        return self._lazy_runtime("_full", self._full_module, _module.FULL_MODULE, shared_full_module, self._on_compile_full)

    def _admission_runtime(self) -> "Runtime":
        """The Runtime of celwasm-admission, loaded on first use (same pool
        size and memory limit); itself when this Runtime runs it."""
        return self._lazy_runtime("_admission", self._admission_module, _module.ADMISSION_MODULE, shared_admission_module, self._on_compile_admission)

    def _lazy_runtime(self, attr: str, given: Optional[Module], name: str, shared: Callable[[Any], Module], on_compile: Any) -> "Runtime":
        """The Runtime of module ``name`` kept in ``self.<attr>``: the given
        module, the process-wide packaged one, or one with this Runtime's
        cache directory."""
        if self.module.name == name:
            return self
        with self._full_lock:
            if self._closed:
                raise ClosedError("runtime is closed")
            rt: Optional[Runtime] = getattr(self, attr)
            if rt is None:
                mod = given
                if mod is None:
                    if self._cache_dir is None:
                        mod = shared(on_compile)
                    else:
                        mod = Module(name=name, cache_dir=self._cache_dir, on_compile=on_compile)
                rt = Runtime(instances=self._max, memory_limit=self._memory_limit, module=mod)
                setattr(self, attr, rt)
            return rt

    @property
    def admission_loaded(self) -> bool:
        """Whether celwasm-admission has been loaded (see ``admission_module``)."""
        return self._admission is not None or self.module.name == _module.ADMISSION_MODULE

    def admit(self, request: Mapping[str, Any], *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Admits objects as kube-apiserver's admission chain would, with its
        own code inside the module celwasm-admission (k8s.io/apiserver
        v0.37.2's admission plugins, ``pkg/admission/plugin/policy/mutating``
        then ``.../validating``): every MutatingAdmissionPolicy
        (ApplyConfiguration and JSONPatch, reinvocation), then every
        ValidatingAdmissionPolicy, with their bindings, params (``paramRef``
        by name or selector, ``parameterNotFoundAction``), match constraints
        and conditions, variables, messages, audit annotations,
        validationActions and failurePolicy; ``authorizer`` answered by
        kube-apiserver's RBAC authorizer over the RBAC objects given.
        Policies and bindings are defaulted and validated as when they are
        created. A denial is a result with ``allowed`` False, not an
        exception. The Go host's ``Runtime.Admit``; ``celwasm admit -o json``
        prints ``results``. celwasm-admission is loaded by the first call
        (see ``admission_module``).

        Args:
            request: the module's admit request (docs/abi.md, "admit"; member
                names as there)::

                    {"documents": [obj, ...],   # policies, bindings, params,
                                                # Namespaces, CRDs, RBAC objects
                     "requests": [{"operation": "CREATE"|"UPDATE"|"DELETE"|"CONNECT",  # optional
                                   "object": obj,       # None for DELETE
                                   "oldObject": obj,    # UPDATE, DELETE
                                   "namespace": "ns"},  # default "default"
                                  ...],
                     "user": "alice",                   # default kubernetes-admin
                     "groups": ["dev", "system:authenticated"],  # all of them
                     "compatibilityVersion": "1.36"}    # default the newest

                Each object is a mapping of JSON data or its JSON or YAML
                text. The operation defaults to CREATE, or UPDATE with an
                ``oldObject``.
            timeout: seconds for the call (CEL evaluations are interrupted).

        Returns:
            ``{"results": [result, ...], "warnings": [...]}``, the module's
            answer as JSON data: one result per request, in order,
            ``{"allowed": bool, "message": str, "reason": str, "code": int,
            "warnings": [str], "auditAnnotations": {str: str},
            "patchedObject": obj or None}`` — ``message`` is kube-apiserver's
            Status message (what kubectl prints after ``Error from server``),
            ``reason`` and ``code`` are present only for a denial,
            ``patchedObject`` is the object after mutation or None when no
            policy changed it; the top-level ``warnings`` (absent when none)
            are the policies' type-checking warnings.

        Raises:
            InvalidPolicyError: ``invalid_policy``, a policy or binding
                kube-apiserver would refuse to create (``field_errors`` say why).
            BadRequestError: ``bad_request``, a document or object that is not
                a Kubernetes object, a kind no resource serves (the message
                names ``requests[i]`` or ``documents[i]``).
            InvalidEnvError: an unsupported ``compatibilityVersion``.
            InvalidArgumentError: a request not of this shape, an object that
                is neither JSON data nor JSON or YAML text.
            DeadlineExceededError, ClosedError, TrapError.
        """
        from ._crd import _load
        body = _admit_request(request, self._documents)
        resp = self._admission_runtime()._request(_ADMIT, body, timeout)
        out = _load(resp, "admit")
        results = out.get("results")
        if not isinstance(results, list) or not all(isinstance(r, dict) and isinstance(r.get("allowed"), bool) for r in results):
            raise InternalError("malformed admit response: %r" % resp[:2000])
        return out

    def _documents(self, text: bytes) -> List[bytes]:
        return self._input("documents", text)[1]

    @property
    def full_loaded(self) -> bool:
        """Whether celwasm-full has been loaded (see ``full_module``)."""
        return self._full is not None or self.module.name == _module.FULL_MODULE

    def _request(self, export: int, payload: bytes, timeout: Optional[float]) -> bytes:
        """Sends one request to an export on an instance from the pool.
        ``timeout`` bounds the wait for an instance and the call: CEL
        evaluations in it (a CRD's rules) are interrupted when it passes,
        and the module's ``canceled`` answer becomes
        :class:`DeadlineExceededError`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        fired = False
        pi = self._acquire(deadline)
        try:
            if deadline is None:
                return pi.instance.request(export, payload)
            alarm = _watchdog.arm(deadline, pi.instance)
            try:
                resp = pi.instance.request(export, payload)
            finally:
                fired = _watchdog.disarm(alarm)
        finally:
            self._put(pi)
        if fired and resp.startswith(b'{"error":{"code":"canceled"'):
            raise DeadlineExceededError("request exceeded its %ss timeout" % timeout)
        return resp

    def _input(self, op: str, data: bytes, path: Optional[str] = None) -> Tuple[Dict[str, Any], List[bytes]]:
        """The module's ``celwasm_input`` (docs/abi.md, "input"): reads a
        CLI's input as the Go CLI does (wasm/input). Returns the response
        header and its item lines.

        Raises:
            CelError: ``invalid_input`` (the message is the Go CLI's), or
                the module's other errors.
        """
        header: Dict[str, Any] = {"op": op}
        if path is not None:
            header["path"] = path
        resp = self._request(_INPUT, json.dumps(header).encode("utf-8") + b"\n" + data, None)
        err = error_from_response(resp)
        if err is not None:
            raise err
        head, _, rest = resp.partition(b"\n")
        try:
            h = json.loads(head)
            count = int(h["count"])
        except (ValueError, KeyError, TypeError):
            raise InternalError("malformed input response: %r" % resp[:2000]) from None
        items = rest.split(b"\n") if count else []
        if len(items) != count:
            raise InternalError("input response: %d items, header says %d" % (len(items), count))
        return h, items

    def version(self) -> VersionInfo:
        """The module's versions (cel-go, Kubernetes, Go, compatibility versions,
        extensions, default cost limit), its sha256 and the engine."""
        pi = self._acquire(None)
        try:
            raw = pi.instance.version()
        finally:
            self._put(pi)
        try:
            v = json.loads(raw)
            return VersionInfo(
                abi=int(v["abi"]),
                module=str(v.get("module", "")),
                cel_go=str(v.get("celGo", "")),
                kubernetes=str(v.get("kubernetes", "")),
                go=str(v.get("go", "")),
                compatibility_versions=tuple(v.get("compatibilityVersions", ())),
                default_compatibility_version=str(v.get("defaultCompatibilityVersion", "")),
                extensions=tuple(v.get("extensions", ())),
                default_cost_limit=int(v.get("defaultCostLimit", DEFAULT_COST_LIMIT)),
                module_sha256=self.module.sha256,
                engine="wasmtime-py " + _module.wasmtime_version(),
                modules=(ModuleInfo(self.module.name, self.module.size, self.module.sha256, True), self._full_info(), self._admission_info()),
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            raise InternalError("malformed version response: %r" % raw[:2000]) from None

    def _full_info(self) -> "ModuleInfo":
        return _lazy_module_info(self._full, self._full_module, _module.FULL_MODULE)

    def _admission_info(self) -> "ModuleInfo":
        return _lazy_module_info(self._admission, self._admission_module, _module.ADMISSION_MODULE)

    @property
    def instances(self) -> int:
        """Live instances (idle or in use)."""
        return len(self._live)

    @property
    def memory_bytes(self) -> int:
        """The linear memory of the idle instances, in bytes (an instance busy in a
        call is not counted). WebAssembly memory only grows, so it is the most any
        call has needed, up to ``memory_limit``; the Go host's ``MemoryBytes``."""
        with self._cond:
            return sum(pi.instance.memory_size for pi in self._idle)

    def close(self) -> None:
        """Releases every idle instance; instances in use are released when their
        call returns. Later calls raise :class:`ClosedError`."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            idle, self._idle = self._idle, []
            self._cond.notify_all()
        for pi in idle:
            self._discard(pi)
        with self._full_lock:
            if self._full is not None:
                self._full.close()
            if self._admission is not None:
                self._admission.close()

    def __enter__(self) -> "Runtime":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # --- calls used by Program -------------------------------------------

    def _compile_in(self, pi: _PooledInstance, request: bytes) -> Tuple[int, Dict[str, Any]]:
        resp = pi.instance.compile(request)
        err = error_from_response(resp)
        if err is not None:
            raise err
        try:
            body = json.loads(resp)
            handle = body["program"]
        except (ValueError, KeyError, TypeError):
            raise InternalError("malformed compile response: %r" % resp[:2000]) from None
        return handle, body


_shared_lock = threading.Lock()
_shared_module: Optional[Module] = None
_default_runtime: Optional[Runtime] = None


def shared_module(on_compile: Optional[Callable[[Optional[Path]], None]] = None) -> Module:
    """The process-wide packaged module, loaded on first use (cache-aware);
    ``on_compile`` as for :class:`Module`, if this call loads it."""
    global _shared_module
    with _shared_lock:
        if _shared_module is None:
            _shared_module = Module(on_compile=on_compile)
        return _shared_module


_shared_lazy_modules: Dict[str, Module] = {}  # celwasm-full, celwasm-admission


def shared_full_module(on_compile: Optional[Callable[[Optional[Path]], None]] = None) -> Module:
    """The process-wide packaged celwasm-full, loaded on first use (the first
    CRD request or Knative attrs/cesql filter); ``on_compile`` as for
    :class:`Module`, if this call loads it."""
    return _shared_lazy_module(_module.FULL_MODULE, on_compile)


def _shared_lazy_module(name: str, on_compile: Optional[Callable[[Optional[Path]], None]]) -> Module:
    with _shared_lock:
        m = _shared_lazy_modules.get(name)
        if m is None:
            m = _shared_lazy_modules[name] = Module(name=name, on_compile=on_compile)
        return m


def _lazy_module_info(loaded: Optional["Runtime"], given: Optional[Module], name: str) -> "ModuleInfo":
    """A module loaded on first need: as loaded, as given, from its
    environment variable, or the packaged one (not loaded)."""
    if loaded is not None:
        m = loaded.module
        return ModuleInfo(m.name, m.size, m.sha256, True)
    if given is not None:
        return ModuleInfo(given.name, given.size, given.sha256, False)
    env = os.environ.get(_module._PATH_ENV[name])
    if env:
        p = Path(env)
        import hashlib

        return ModuleInfo(name, p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest(), False)
    path = _module._packaged_module(name)
    return ModuleInfo(name, path.stat().st_size, _module.packaged_sha256(name), False)


def shared_admission_module(on_compile: Optional[Callable[[Optional[Path]], None]] = None) -> Module:
    """The process-wide packaged celwasm-admission, loaded on first use (the
    first :meth:`Runtime.admit`); ``on_compile`` as for :class:`Module`, if
    this call loads it."""
    return _shared_lazy_module(_module.ADMISSION_MODULE, on_compile)


_ADMIT_ITEM_KEYS = ("operation", "object", "oldObject", "namespace")
_ADMIT_KEYS = ("documents", "requests", "user", "groups", "compatibilityVersion")


def _admit_string(v: Any, what: str) -> bytes:
    if v is None or v == "":
        return b""
    if not isinstance(v, str):
        raise InvalidArgumentError("%s must be a str" % what)
    try:
        return go_quote(v).encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidArgumentError("%s: %s" % (what, e)) from None


def _admit_request(request: Mapping[str, Any], documents: Callable[[bytes], List[bytes]]) -> bytes:
    """The admit request, byte for byte what the Go host's ``Runtime.Admit``
    sends (``json.Marshal`` of wire.AdmitRequest: objects compacted, empty
    optional members left out)."""
    if not isinstance(request, Mapping):
        raise InvalidArgumentError("the admit request must be a mapping {documents, requests, user?, groups?, compatibilityVersion?}")
    unknown = sorted(set(request) - set(_ADMIT_KEYS))
    if unknown:
        raise InvalidArgumentError("the admit request has unknown members %s" % ", ".join(map(str, unknown)))
    docs, items = request.get("documents"), request.get("requests")
    if not isinstance(docs, (list, tuple)):
        raise InvalidArgumentError("documents must be a list of objects")
    if not isinstance(items, (list, tuple)):
        raise InvalidArgumentError("requests must be a list of {operation?, object?, oldObject?, namespace?}")
    from ._crd import _json_arg
    out = [b'{"documents":[', b",".join(_json_arg(d, "documents[%d]" % i, documents) for i, d in enumerate(docs)), b'],"requests":[']
    for i, it in enumerate(items):
        if not isinstance(it, Mapping) or set(it) - set(_ADMIT_ITEM_KEYS):
            raise InvalidArgumentError("requests[%d] must be a mapping {operation?, object?, oldObject?, namespace?}" % i)
        parts: List[bytes] = []
        op = _admit_string(it.get("operation"), "requests[%d].operation" % i)
        if op:
            parts.append(b'"operation":' + op)
        for key in ("object", "oldObject"):
            if it.get(key) is not None:
                parts.append(b'"%s":' % key.encode() + _json_arg(it[key], "requests[%d].%s" % (i, key), documents))
        ns = _admit_string(it.get("namespace"), "requests[%d].namespace" % i)
        if ns:
            parts.append(b'"namespace":' + ns)
        out.append((b"," if i else b"") + b"{" + b",".join(parts) + b"}")
    out.append(b"]")
    user = _admit_string(request.get("user"), "user")
    if user:
        out.append(b',"user":' + user)
    groups = request.get("groups")
    if groups is not None:
        if isinstance(groups, (str, bytes)) or not isinstance(groups, (list, tuple)):
            raise InvalidArgumentError("groups must be a list of str")
        if groups:
            out.append(b',"groups":[' + b",".join(_admit_string(g, "groups[%d]" % j) or b'""' for j, g in enumerate(groups)) + b"]")
    cv = _admit_string(request.get("compatibilityVersion"), "compatibilityVersion")
    if cv:
        out.append(b',"compatibilityVersion":' + cv)
    out.append(b"}")
    return b"".join(out)


def default_runtime() -> Runtime:
    """The process-wide :class:`Runtime` used when an :class:`Env` names none
    (pool of ``os.cpu_count()`` instances, created on first use)."""
    global _default_runtime
    rt = _default_runtime
    if rt is not None and not rt._closed:
        return rt
    module = shared_module()
    with _shared_lock:
        if _default_runtime is None or _default_runtime._closed:
            _default_runtime = Runtime(module=module)
        return _default_runtime


# ---------------------------------------------------------------------------


def _ext_ref(e: Any) -> Dict[str, Any]:
    if isinstance(e, str):
        return {"name": e}
    if isinstance(e, Mapping):
        ref = {"name": e["name"]}
        if e.get("version") is not None:
            ref["version"] = e["version"]
        return ref
    if isinstance(e, (tuple, list)) and len(e) == 2:
        return {"name": e[0], "version": e[1]}
    raise InvalidArgumentError("extension %r: want NAME, (NAME, VERSION) or {'name':..., 'version':...}" % (e,))


class Env:
    """A CEL environment description; compiled inside the module when a program
    is first compiled with it, and cached there (by its JSON).

    Args:
        variables: declarations, name → CEL type name as cel-go prints types
            (``int``, ``map(string, dyn)``, ``list(string)``, ``timestamp``,
            ``optional_type(int)``, ``kubernetes.Quantity``, message names...);
            a mapping or (name, type) pairs, in order. The declared type also
            decides how plain JSON activation values convert
            (docs/value-encoding.md).
        base: ``"kubernetes"`` (default; kube-apiserver's versioned base
            environment: the Kubernetes libraries, optionals, ext strings/sets/
            lists, cost estimator and runtime cost tracking, as the
            compatibility version allows) or ``"cel"`` (cel-go's standard
            library with optionals, UTC default time zone).
        compatibility_version: Kubernetes compatibility version, ``"1.30"`` …
            ``"1.37"`` (default: the newest); kubernetes base only.
        stored_expressions: kube-apiserver's StoredExpressions environment
            (every library) instead of NewExpressions.
        extensions: cel-go extensions on top of the base (``bindings``,
            ``encoders``, ``lists``, ``math``, ``protos``, ``sets``,
            ``strings``, ``two-var-comprehensions``): names (latest version),
            ``(name, version)`` pairs or ``{"name", "version"}`` mappings.
        container: namespace for resolving identifiers and message names.
        disable_type_check: parse only; output type ``dyn``, no cost estimate.
        disable_macros: no ``has``, ``all``, ``exists``, ``map``, ``filter``, ...
        descriptor_set: a serialized ``google.protobuf.FileDescriptorSet``
            (``protoc --include_imports --descriptor_set_out``, optionally
            gzip-compressed) whose messages become usable types.
        functions: function declarations without implementations, for type
            checking (docs/abi.md): ``{"name": ..., "overloads": [{"id": ...,
            "args": [...], "result": ..., "member": bool, "typeParams": [...]}]}``.
        error_on_bad_presence_test: ``has(x.f)`` on a value without fields is
            an error, as the CEL specification says (cel-go's
            ``EnableErrorOnBadPresenceTest``).
        runtime: the :class:`Runtime` (default :func:`default_runtime`).

    Errors in the environment (an unknown extension, a bad type name) are
    reported by :meth:`compile` as :class:`InvalidEnvError`.
    """

    def __init__(
        self,
        variables: Union[Mapping[str, str], Iterable[Tuple[str, str]], None] = None,
        *,
        base: str = "kubernetes",
        compatibility_version: Optional[str] = None,
        stored_expressions: bool = False,
        extensions: Sequence[Any] = (),
        container: str = "",
        disable_type_check: bool = False,
        disable_macros: bool = False,
        descriptor_set: Optional[bytes] = None,
        functions: Sequence[Mapping[str, Any]] = (),
        error_on_bad_presence_test: bool = False,
        runtime: Optional[Runtime] = None,
    ) -> None:
        self._runtime = runtime
        decls: List[Tuple[str, str]] = []
        if variables is not None:
            items = variables.items() if isinstance(variables, Mapping) else variables
            for name, typ in items:
                if not isinstance(name, str) or not isinstance(typ, str):
                    raise InvalidArgumentError("variable %r: want name and type strings" % ((name, typ),))
                decls.append((name, typ))
        spec: Dict[str, Any] = {}
        if base != "kubernetes":
            spec["base"] = base
        if compatibility_version:
            spec["compatibilityVersion"] = compatibility_version
        if stored_expressions:
            spec["envType"] = "StoredExpressions"
        if extensions:
            spec["extensions"] = [_ext_ref(e) for e in extensions]
        if decls:
            spec["variables"] = [{"name": n, "type": t} for n, t in decls]
        if container:
            spec["container"] = container
        if disable_type_check:
            spec["disableTypeCheck"] = True
        if disable_macros:
            spec["disableMacros"] = True
        if descriptor_set is not None:
            spec["descriptorSet"] = base64.b64encode(bytes(descriptor_set)).decode("ascii")
        if functions:
            spec["functions"] = [dict(f) for f in functions]
        if error_on_bad_presence_test:
            spec["errorOnBadPresenceTest"] = True
        self.spec: Dict[str, Any] = spec
        try:
            self._env_json = json.dumps(spec, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        except (TypeError, ValueError, UnicodeEncodeError) as e:
            raise InvalidArgumentError("env: %s" % e) from None

    @property
    def runtime(self) -> Runtime:
        """The runtime this environment compiles in."""
        if self._runtime is None:
            self._runtime = default_runtime()
        return self._runtime

    def compile(self, expression: str, *, timeout: Optional[float] = None) -> "Program":
        """Parses and type-checks ``expression`` (cel-go's ``Env.Compile``) into a
        :class:`Program`.

        Raises:
            CompileError: it does not parse or check; ``issues`` carry line,
                column and cel-go's caret snippet.
            InvalidEnvError: the environment cannot be built.
            TrapError: the instance failed (it is replaced).
            ClosedError: the runtime is closed.
            DeadlineExceededError: no instance became free within ``timeout`` seconds.
        """
        try:
            expr_json = json.dumps(expression, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise CompileError("expression is not valid UTF-8") from None
        except TypeError:
            raise InvalidArgumentError("expression must be a str") from None
        # "reads": what evaluations then send of an activation mapping (docs/abi.md).
        return self._compile(b'{"expression":' + expr_json + b',"env":' + self._env_json + b',"reads":true}', expression, timeout)

    def compile_filter(self, filter: FilterArg, *, timeout: Optional[float] = None) -> "Program":
        """Compiles a CloudEvents trigger filter (docs/abi.md, ``cloudEventFilter``)
        into a :class:`Program` whose ``expression`` is the CEL the filter became.

        The forms: Knative's ``{"expression": CEL}``, ``{"attributes": {name:
        value, ...}}`` (exact match, AND) and ``{"sourceAndType": {"source",
        "type"}}`` (deprecated); the CloudEvents Subscriptions API's
        ``{"exact"|"prefix"|"suffix": {name: value}}``, ``{"all": [F, ...]}``,
        ``{"any": [F, ...]}``, ``{"not": F}``; or ``{"filter": F}``, or a whole
        Trigger (``spec.filter``, or ``spec.filters`` AND-ed; its other members
        are ignored). The CEL reads ``ce`` (the attributes, ``map(string,
        dyn)``), ``data`` (``dyn``), ``attrs`` and ``cesql``, declared
        automatically; the result is the one Knative Eventing's broker gives
        (docs/abi.md: ``cesql`` included, Knative's webhook errors, "no
        filter" for empty ``all``/``any``). Without ``base``, a compatibility
        version, stored expressions or extensions, the environment is cel-go's
        with the ``strings`` extension, as Knative evaluates filters.

        Evaluate with :meth:`Program.eval_event` or
        ``eval_batch(events, CLOUD_EVENTS)``.

        Args:
            filter: a mapping of JSON values, or its JSON text (``str``/``bytes``,
                checked and sent as is).

        Raises:
            CompileError: the filter does not transform (two top-level forms,
                an unknown dialect, ``spec.filter`` and ``spec.filters`` both,
                ...; the message names the problem) or the CEL it became does
                not compile (``issues`` with caret snippets).
            InvalidArgumentError: the filter is not JSON data / JSON text.
            InvalidEnvError, TrapError, ClosedError, DeadlineExceededError: as
                :meth:`compile`.
        """
        if isinstance(filter, (bytes, bytearray, memoryview, str)):
            text = filter.encode("utf-8", "surrogatepass") if isinstance(filter, str) else bytes(filter)
            if not go_json_valid(text):
                raise InvalidArgumentError("filter: not JSON text")
        elif isinstance(filter, Mapping):
            text = _json_value(filter, "filter")
        else:
            raise InvalidArgumentError("filter must be a mapping or JSON text; got %s" % type(filter).__name__)
        return self._compile(b'{"cloudEventFilter":' + text + b',"env":' + self._env_json + b"}", None, timeout)

    def compile_when(self, expressions: Union[str, Iterable[str]], *, timeout: Optional[float] = None) -> "Program":
        """Compiles Tekton ``when`` expressions (TEP-0145), AND-ed, into a
        :class:`Program` whose ``expression`` is the CEL they became.

        Accepts and decides as Tekton Pipelines does (docs/abi.md): an entry
        is ``cel`` text or a WhenExpression as JSON text; ``'$(params.x)'``
        (quoted) reads the value as a string, an unquoted ``$(…)`` only a
        number or bool value. References become accesses of ``params``,
        ``tasks`` and ``context`` — never text substitution, so a parameter
        whose value is CEL stays a string. Evaluate with an activation
        ``{"params": ..., "tasks": ..., "context": ...}``.

        Args:
            expressions: one expression (``str``) or several (AND-ed).

        Raises:
            CompileError: an unknown reference (``$(workspaces.…)``), a syntax
                error; the message names the CEL the list became.
            InvalidArgumentError: an expression is not a ``str``.
            InvalidEnvError, TrapError, ClosedError, DeadlineExceededError: as
                :meth:`compile`.
        """
        exprs = [expressions] if isinstance(expressions, str) else list(expressions)
        if not all(isinstance(e, str) for e in exprs):
            raise InvalidArgumentError("when expressions must be str")
        try:
            text = json.dumps(exprs, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        except UnicodeEncodeError:
            raise CompileError("expression is not valid UTF-8") from None
        return self._compile(b'{"when":' + text + b',"env":' + self._env_json + b"}", None, timeout)

    def _compile(self, request: bytes, expression: Optional[str], timeout: Optional[float]) -> "Program":
        try:
            return self._compile_on(self.runtime, request, expression, timeout)
        except CelError as e:
            if e.code != "needs_module" or self.runtime.module.name == _module.FULL_MODULE:
                raise
        # A filter reading Knative's attrs or cesql: compiled, and then
        # evaluated, in celwasm-full.
        return self._compile_on(self.runtime._full_runtime(), request, expression, timeout)

    def _compile_on(self, rt: "Runtime", request: bytes, expression: Optional[str], timeout: Optional[float]) -> "Program":
        deadline = None if timeout is None else time.monotonic() + timeout
        pi = rt._acquire(deadline)
        try:
            handle, body = rt._compile_in(pi, request)
            if expression is None:
                expression = str(body.get("expression", ""))
            prg = Program(rt, next(rt._ids), request, expression, body)
            pi.handles[prg._id] = handle
        finally:
            rt._put(pi)
        return prg

    def __repr__(self) -> str:
        return "Env(%s)" % self._env_json.decode("utf-8")


def _batch_line(item: Any, index: int) -> bytes:
    """One eval_batch item as the Go host's EvalBatch sends it: text with a line
    break compacted ("<invalid JSON item>" when it is not JSON), blank text as
    null."""
    b = _text_bytes(item, "batch item %d" % index)
    if b is None:
        if item is None:
            return b"null"
        if isinstance(item, Mapping):
            return _json_value(item, "batch item %d" % index)
        raise InvalidArgumentError("batch item %d: want a mapping or JSON text, got %s" % (index, type(item).__name__))
    if b"\n" in b or b"\r" in b:
        c = go_compact(b)
        b = c if c is not None else b'"<invalid JSON item>"'
    if go_is_blank(b):
        return b"null"
    return b


def _projected(activation: Any, reads: Optional[Dict[str, Any]]) -> Any:
    """The part of an activation mapping a program with these reads can look
    at: the variables it reads and, of dicts along each read path, only the
    members it names. Other values (lists, text, dicts with keys that are not
    all str, which JSON would rename) stay whole. The module converts members
    lazily, so the value, error and cost are the same over this as over the
    whole mapping; members nobody reads are neither encoded nor sent."""
    if reads is None or type(activation) is not dict:
        return activation
    return _project_members(activation, reads)


def _project_members(d: Dict[Any, Any], reads: Dict[str, Any]) -> Any:
    for k in d:
        if type(k) is not str:
            return d
    out = {}
    for k, r in reads.items():
        if k in d:
            v = d[k]
            out[k] = v if r is True or type(v) is not dict else _project_members(v, r)
    return out


def _activation_json(activation: ActivationArg, typed: Any) -> Tuple[bytes, Optional[bytes]]:
    """(plain activation JSON, typedActivation JSON or None)."""
    if typed is None and type(activation) is bytes:
        return activation, None
    if activation is None and typed is None:
        return b"{}", None
    if type(activation) is dict and typed is None and all(type(k) is str for k in activation):
        # Fast path: the whole mapping in one C-level encode; on any value
        # JSON cannot carry, fall back to the per-variable path below.
        try:
            return _plain_text(activation).encode("utf-8"), None
        except (_NeedsTyped, ValueError, TypeError, UnicodeEncodeError):
            return _activation_json_slow(activation, None)
        except RecursionError:
            raise InvalidArgumentError("activation nests too deeply for Python's recursion limit") from None
    return _activation_json_slow(activation, typed)


def _activation_json_slow(activation: ActivationArg, typed: Any) -> Tuple[bytes, Optional[bytes]]:
    typed_parts: List[str] = []
    given = _text_bytes(activation, "activation")
    if given is not None:
        plain = given
    elif activation is None:
        plain = b"{}"
    elif isinstance(activation, Mapping):
        parts: List[str] = []
        for name, value in activation.items():
            if not isinstance(name, str):
                raise InvalidArgumentError("activation key %r: variable names are strings" % (name,))
            try:
                text = _plain_text(value)
            except (_NeedsTyped, ValueError, TypeError):
                # Bytes, timestamps, durations, optionals, NaN, ...: the
                # canonical typed form carries them.
                typed_parts.append(json.dumps(name, ensure_ascii=False) + ":" + encode(value))
                continue
            except RecursionError:
                raise InvalidArgumentError("activation %r nests too deeply for Python's recursion limit" % name) from None
            parts.append(json.dumps(name, ensure_ascii=False) + ":" + text)
        try:
            plain = ("{" + ",".join(parts) + "}").encode("utf-8")
        except UnicodeEncodeError as e:
            raise InvalidArgumentError("activation: %s (lone surrogate?)" % e) from None
    else:
        raise InvalidArgumentError(
            "activation must be a mapping of variable names to values, or JSON object text; got %s" % type(activation).__name__
        )
    if typed is not None:
        if isinstance(typed, (bytes, bytearray, memoryview)):
            typed_parts.append(bytes(typed).decode("utf-8", "surrogatepass").strip()[1:-1])
        elif isinstance(typed, Mapping):
            for name, value in typed.items():
                typed_parts.append(json.dumps(name, ensure_ascii=False) + ":" + encode(value))
        else:
            raise InvalidArgumentError("typed_activation must be a mapping or canonical JSON bytes")
    if not typed_parts:
        return plain, None
    try:
        return plain, ("{" + ",".join(p for p in typed_parts if p) + "}").encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidArgumentError("typed activation: %s (lone surrogate?)" % e) from None


class Program:
    """A compiled expression; safe for concurrent use. Free it with :meth:`close`
    or a ``with`` block; garbage collection frees it otherwise.

    Attributes:
        expression: the CEL source: as given to :meth:`Env.compile`, or what a
            trigger filter or a when list became.
        output_type: the checked output type as a CEL type name (``bool``,
            ``list(string)``); ``dyn`` when type checking is off.
        cost_estimate: the static :class:`CostEstimate`, or None when type
            checking is off.
        reads: what the program can read of its variables, from the module's
            checked AST (docs/abi.md, compile ``reads``): variable name →
            ``True`` (all of it) or a dict of the member names it reads, each
            ``True`` or such a dict; a variable it never reads is absent.
            None when type checking is off, and for filters and when lists.
            :meth:`eval` and :meth:`eval_batch` send only this part of an
            activation mapping.
    """

    def __init__(self, runtime: Runtime, pid: int, request: bytes, expression: str, body: Mapping[str, Any]) -> None:
        self._rt = runtime
        self._id = pid
        self._request = request
        self._closed = False
        self.expression = expression
        self.output_type: str = body.get("outputType", "dyn")
        ce = body.get("costEstimate")
        self.cost_estimate: Optional[CostEstimate] = CostEstimate(int(ce["min"]), int(ce["max"])) if ce else None
        reads = body.get("reads")
        self.reads: Optional[Dict[str, Any]] = reads if isinstance(reads, dict) else None
        self._finalizer = weakref.finalize(self, runtime._release_program, pid)

    def _handle_in(self, pi: _PooledInstance) -> int:
        h = pi.handles.get(self._id)
        if h is None:
            h, _ = self._rt._compile_in(pi, self._request)
            pi.handles[self._id] = h
        return h

    def eval(
        self,
        activation: ActivationArg = None,
        *,
        typed_activation: Union[Mapping[str, Any], bytes, None] = None,
        cost_limit: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> Result:
        """Evaluates the program and returns a :class:`Result` (canonical JSON
        and actual cost).

        Args:
            activation: variable name → value. A mapping of Python values is
                sent as plain JSON (``json``-encodable values: dict with str
                keys, list, tuple, str, int, float, bool, None; JSON turns
                other dict keys into member names); a variable whose value
                has no JSON form (bytes, datetime, timedelta,
                :class:`OptionalValue`, :class:`Object`, NaN, ...) is sent in
                the canonical typed form instead. ``bytes``/``str`` is JSON
                object text passed through untouched (the fastest path for
                documents you already have as JSON). Declared types decide
                conversions (docs/value-encoding.md). Of a dict, only what
                the program can read (:attr:`reads`) is encoded and sent, so
                a call costs what the expression reads, not the document's
                size; the value, error and cost are the same.
            typed_activation: values in canonical typed form (a mapping of
                Python values, encoded with :func:`celwasm.encode`, or JSON
                bytes of an object); they win over ``activation``.
            cost_limit: per-call cost limit in cost units (default 1,000,000,
                kube-apiserver's PerCallLimit).
            timeout: seconds; when passed the evaluation is interrupted at its
                next CEL function call (docs/abi.md "Interrupting") and
                :class:`DeadlineExceededError` raised. A single long builtin
                call (one regex over a huge string) finishes first.

        Raises:
            EvaluationError: CEL error (no such key, no matching overload,
                division by zero, overflow, bad conversion); ``cost`` set.
            CostLimitExceededError: the cost passed ``cost_limit``; ``cost`` set.
            InvalidActivationError: the activation is not a valid JSON object.
            InvalidArgumentError: a Python value has no CEL form.
            DeadlineExceededError: ``timeout`` passed.
            TrapError: the instance failed (e.g. out of memory); it is replaced.
            ClosedError: the program or runtime is closed.
        """
        out, fired = self._evaluate(activation, typed_activation, cost_limit, timeout)
        if isinstance(out, tuple):
            res = Result(b"true" if out[0] else b"false", out[1])
            res._value, res._decoded = out[0], True
            return res
        return _eval_result(out, fired, timeout)

    def _evaluate(
        self, activation: ActivationArg, typed_activation: Any, cost_limit: Optional[int], timeout: Optional[float]
    ) -> "Tuple[Union[bytes, Tuple[bool, int]], bool]":
        """:meth:`eval`'s call: ``(out, fired)``, out a ``(bool, cost)`` the
        module packed into its return value or the eval response bytes, fired
        whether the timeout fired."""
        projected = _projected(activation, self.reads)
        if typed_activation is None and projected is not activation:
            # The common case in one step: a new mapping, cut to what the
            # program reads, so its variable names are the reads' (str),
            # encoded as plain JSON. Anything else takes the general path.
            try:
                text = _plain_text(projected).encode("utf-8")
            except (_NeedsTyped, ValueError, TypeError, UnicodeEncodeError, RecursionError):
                text = None
            if text is not None:
                return self._eval_activation(text, cost_limit, timeout)
        plain, typed = _activation_json(projected, typed_activation)
        if typed is None:
            return self._eval_activation(plain, cost_limit, timeout)
        tail = self._check_call(cost_limit)
        tail += b',"typedActivation":' + typed
        # The activation goes last: invalid JSON inside it is then reported
        # as invalid_activation rather than bad_request.
        return self._call(_EVAL, tail + b',"activation":' + plain + b"}", timeout)

    def _eval_activation(
        self, plain: bytes, cost_limit: Optional[int], timeout: Optional[float]
    ) -> "Tuple[Union[bytes, Tuple[bool, int]], bool]":
        """Evaluates over a JSON activation through ``celwasm_eval_activation``
        (docs/abi.md): no request object around the activation, and a bool
        result read from the call's return value. Returns as :meth:`_evaluate`."""
        if self._closed or cost_limit is not None:
            self._check_call(cost_limit)
        rt = self._rt
        deadline = None if timeout is None else time.monotonic() + timeout
        pi = rt._acquire(deadline)
        try:
            h = pi.handles.get(self._id)
            if h is None:
                h = self._handle_in(pi)
            if deadline is None:
                return pi.instance.eval_activation(h, cost_limit or 0, plain), False
            alarm = _watchdog.arm(deadline, pi.instance)
            fired = False
            try:
                out = pi.instance.eval_activation(h, cost_limit or 0, plain)
            finally:
                fired = _watchdog.disarm(alarm)
            return out, fired
        finally:
            rt._put(pi)

    def _call(self, export: int, req_tail: bytes, timeout: Optional[float]) -> Tuple[bytes, bool]:
        """Sends ``{"program":H`` + ``req_tail`` to ``export``; returns the
        response and whether the timeout fired."""
        rt = self._rt
        deadline = None if timeout is None else time.monotonic() + timeout
        fired = False
        pi = rt._acquire(deadline)
        try:
            h = pi.handles.get(self._id)
            if h is None:
                h = self._handle_in(pi)
            req = b'{"program":%d' % h + req_tail
            if deadline is None:
                resp = pi.instance.request(export, req)
            else:
                alarm = _watchdog.arm(deadline, pi.instance)
                try:
                    resp = pi.instance.request(export, req)
                finally:
                    fired = _watchdog.disarm(alarm)
        finally:
            rt._put(pi)
        return resp, fired

    def _check_call(self, cost_limit: Optional[int]) -> bytes:
        if self._closed:
            raise ClosedError("program is closed")
        if cost_limit is None:
            return b""
        if not isinstance(cost_limit, int) or not 0 <= cost_limit <= 0xFFFFFFFFFFFFFFFF:
            raise InvalidArgumentError("cost_limit must be in [0, 2^64-1]")
        return b',"costLimit":%d' % cost_limit

    def eval_event(
        self,
        event: EventArg,
        *,
        cost_limit: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> Result:
        """Evaluates the program against one CloudEvent (docs/abi.md, eval
        ``cloudEvent``), bound to ``ce`` and ``data``: for trigger filters
        (:meth:`Env.compile_filter`) and any program over ``ce`` and ``data``.

        In ``ce``, ``time`` is a timestamp and every other attribute keeps its
        JSON type (binary-mode header values are strings, percent-decoded;
        header names lowercased without ``ce-``; ``content-type`` becomes
        ``datacontenttype``). ``data`` is the parsed JSON when the content type
        is JSON (or absent, in structured mode), a string for other text, bytes
        for ``data_base64``/``bodyBase64``.

        Args:
            event: a structured-mode event (a mapping with ``specversion``, the
                attributes, ``data`` or ``data_base64``), or an HTTP binary-mode
                envelope ``{"headers": {"ce-specversion": ..., "content-type":
                ...}, "body": "<text>"}`` (or ``"bodyBase64"``). ``bytes``/``str``
                is the event's JSON text, sent untouched.
            cost_limit, timeout: as :meth:`eval`.

        Raises:
            EvaluationError: a CEL error (e.g. no such key: an attribute the
                event lacks); ``cost`` set.
            CostLimitExceededError: ``cost`` set.
            InvalidActivationError: not a CloudEvent (no ``specversion``, a body
                that claims JSON but is not).
            BadRequestError: event text that is not JSON.
            InvalidArgumentError, DeadlineExceededError, TrapError,
            ClosedError: as :meth:`eval`.
        """
        text = _text_bytes(event, "event")
        if text is None:
            if not isinstance(event, Mapping):
                raise InvalidArgumentError("a CloudEvent is a mapping or its JSON text; got %s" % type(event).__name__)
            text = _json_value(event, "event")
        limit = self._check_call(cost_limit)
        resp, fired = self._call(_EVAL, limit + b',"cloudEvent":' + text + b"}", timeout)
        return _eval_result(resp, fired, timeout)

    def eval_batch(
        self,
        items: Iterable[Any],
        kind: str,
        *,
        cost_limit: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> List[Union[Result, CelError]]:
        """Evaluates the program over many items in one module call
        (``celwasm_eval_batch``), so the boundary crossing is paid once per
        batch, and returns one entry per item, in order: its :class:`Result`,
        or the :class:`CelError` its evaluation ended with
        (:class:`EvaluationError`/:class:`CostLimitExceededError` with
        ``cost``; :class:`InvalidActivationError` for an item that is not a
        JSON object or not a CloudEvent) — returned, not raised.

        Items are sent as the Go host sends them: mappings as JSON; text
        containing a line break is compacted (text that is not JSON becomes the
        string ``"<invalid JSON item>"``, an error for that item alone); blank
        text becomes ``null`` (also an error for that item, never a dropped
        item).

        Args:
            items: activations (mappings of variable name → plain JSON data, or
                their JSON text as ``str``/``bytes``) or CloudEvents (as for
                :meth:`eval_event`), per ``kind``. Values without a JSON form
                (bytes, datetime, ...) cannot travel in a batch; use
                :meth:`eval` for those.
            kind: :data:`ACTIVATIONS` (``"activations"``) or
                :data:`CLOUD_EVENTS` (``"cloudEvents"``).
            cost_limit: per-item cost limit in cost units (default 1,000,000).
            timeout: seconds for the whole batch; when it passes, the running
                item is interrupted and :class:`DeadlineExceededError` raised
                for the call (no partial results).

        Raises (for the call as a whole):
            BadRequestError: a malformed batch header (e.g. an unknown ``kind``).
            UnknownProgramError: the module does not know the program.
            InvalidArgumentError: an item is not a mapping of JSON data or text.
            DeadlineExceededError, TrapError, ClosedError: as :meth:`eval`.
        """
        if isinstance(items, (str, bytes, bytearray, memoryview, Mapping)):
            raise InvalidArgumentError("items must be an iterable of items (a list of activations or events), not one %s" % type(items).__name__)
        parts = [b""]
        n = 0
        reads = self.reads if kind == ACTIVATIONS else None
        for i, item in enumerate(items):
            parts.append(_batch_line(_projected(item, reads), i))
            n += 1
        limit = self._check_call(cost_limit)
        header = limit + b',"items":' + json.dumps(kind, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"}"
        resp, fired = self._call(_EVAL_BATCH, header + b"\n".join(parts) if n else header, timeout)
        if fired:
            raise DeadlineExceededError("batch evaluation exceeded its %ss timeout" % timeout)
        return _parse_batch(resp, n)

    def evaluate(
        self,
        activation: ActivationArg = None,
        *,
        typed_activation: Union[Mapping[str, Any], bytes, None] = None,
        cost_limit: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> Any:
        """Evaluates the program and returns the value as Python values
        (``eval(...).value``; see :meth:`eval` for arguments and errors, and
        :mod:`celwasm` for the value mapping). Also raises
        :class:`DecodeError` for values without a faithful Python form."""
        out, fired = self._evaluate(activation, typed_activation, cost_limit, timeout)
        if isinstance(out, tuple):
            return out[0]
        return _eval_result(out, fired, timeout).value

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Frees the program in every instance. Evaluations after this raise
        :class:`ClosedError`."""
        if self._closed:
            return
        self._closed = True
        self._finalizer()

    def __enter__(self) -> "Program":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<celwasm.Program %r -> %s>" % (self.expression, self.output_type)


class CRD:
    """A CustomResourceDefinition, to validate custom resources against offline
    the way kube-apiserver validates creates and updates, with
    kube-apiserver's own code inside the module
    (k8s.io/apiextensions-apiserver v0.37.2): decoding (unknown fields pruned,
    as warnings), defaulting, object metadata, the OpenAPI schema, list-type
    invariants, embedded resources, and every x-kubernetes-validations rule at
    every schema node — transition rules with ``oldSelf``,
    ``optionalOldSelf``, ``messageExpression``, ``reason``, ``fieldPath``,
    ratcheting on updates — with kube-apiserver's cost limits. The Go host's
    ``CRD`` (``Runtime.NewCRD``); safe for concurrent use.

    Before anything is validated, the module checks the CRD as kube-apiserver
    does when it is created. Each instance compiles the CRD once and caches it
    by the sha256 of its JSON (16 CRDs per instance), so validating many
    objects against one CRD compiles it once per instance; the first call
    costs the checks and compilation (0.2–4 s for large CRDs such as
    gateway-api's HTTPRoute). A :class:`Runtime` with few instances keeps
    that cost low.

    Args:
        crd: an apiextensions.k8s.io/v1 CustomResourceDefinition: a mapping of
            JSON data, or its JSON text, or YAML text holding one document
            (converted as the Go CLI converts YAML: go-yaml's YAML 1.1 values,
            sigs.k8s.io/yaml). Sent as the Go host sends it, so
            :attr:`CRDInfo.sha256` is the same on every host.
        runtime: the :class:`Runtime` (default :func:`default_runtime`).

    Raises:
        InvalidArgumentError: ``crd`` is neither JSON data nor JSON/YAML text
            of one document. Everything else is checked by the module on the
            first call.
    """

    def __init__(self, crd: ObjectArg, *, runtime: Optional["Runtime"] = None) -> None:
        self._runtime = runtime
        #: The CRD's JSON as sent to the module (its sha256 is CRDInfo.sha256).
        from ._crd import _json_arg
        self.json: bytes = _json_arg(crd, "crd", self._documents)

    def _documents(self, text: bytes) -> List[bytes]:
        return self.runtime._input("documents", text)[1]

    @property
    def runtime(self) -> "Runtime":
        """The runtime this CRD validates in."""
        if self._runtime is None:
            self._runtime = default_runtime()
        return self._runtime

    def validate(
        self,
        objects: Iterable[Union[CRDObject, ObjectArg]],
        *,
        version: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> CRDValidation:
        """Validates objects as kube-apiserver validates creates and updates of
        custom resources of this CRD (``celwasm_validate``; docs/abi.md,
        "validate"). Offline requests follow kubectl: a namespaced object
        without a namespace is in ``default``; the stored object of an update
        gets the system fields a stored object has (uid, creationTimestamp,
        resourceVersion "1", generation 1); ``generateName`` gets the fixed
        suffix ``xxxxx``.

        Args:
            objects: creates (an object: a mapping or its JSON/YAML text) and
                updates (:class:`CRDObject` with ``old_object``).
            version: validate against this version of the CRD instead of each
                object's apiVersion: objects of another version are converted
                as kube-apiserver converts without a conversion webhook (the
                apiVersion changes); a CRD with a conversion webhook cannot
                convert offline (:class:`InvalidObjectError`). The Go host's
                ``Version(name)``.
            timeout: seconds for the whole call, the wait for a free
                instance included; when it passes, the rule being evaluated
                stops at its next CEL function call and
                :class:`DeadlineExceededError` is raised (no results).

        Returns:
            :class:`CRDValidation`: one :class:`ObjectResult` per object, in
            order, or the :class:`InvalidObjectError` of an object that never
            reached validation.

        Raises:
            InvalidCRDError: the CRD is not usable, or kube-apiserver would
                reject it (``field_errors`` say why), or it has no such
                ``version``.
            InvalidArgumentError: an object is neither JSON data nor JSON/YAML
                text of one document (nothing was validated).
            BadRequestError, TrapError, ClosedError, DeadlineExceededError.
        """
        from ._crd import CRDInfo, CRDObject, CRDValidation, ObjectResult, _decode, _json_arg, _load, _version_piece
        if isinstance(objects, (str, bytes, bytearray, memoryview, Mapping, CRDObject)):
            raise InvalidArgumentError("objects must be an iterable of objects (a list), not one %s" % type(objects).__name__)
        parts: List[bytes] = []
        for i, o in enumerate(objects):
            if isinstance(o, CRDObject):
                item = b'{"object":' + _json_arg(o.object, "objects[%d].object" % i, self._documents)
                if o.old_object is not None:
                    item += b',"oldObject":' + _json_arg(o.old_object, "objects[%d].old_object" % i, self._documents)
            else:
                item = b'{"object":' + _json_arg(o, "objects[%d]" % i, self._documents)
            parts.append(item + b"}")
        req = b'{"crd":' + self.json + _version_piece(version) + b',"objects":[' + b",".join(parts) + b"]}"
        body = _load(self.runtime._full_runtime()._request(_VALIDATE, req, timeout), "validate")
        results: List[Union[ObjectResult, CelError]] = []
        try:
            for r in body["results"]:
                e = r.get("error") if isinstance(r, dict) else None
                if isinstance(e, dict):
                    results.append(error_for(str(e.get("code", "internal")), str(e.get("message", ""))))
                else:
                    results.append(_decode(ObjectResult, r))
            return CRDValidation(_decode(CRDInfo, body["crd"]), tuple(results))
        except (KeyError, TypeError, AttributeError):
            raise InternalError("malformed validate response: %r" % body) from None

    def cost(self, *, version: Optional[str] = None, timeout: Optional[float] = None) -> CRDCostReport:
        """Reports the CRD's x-kubernetes-validations cost estimates against
        kube-apiserver's limits (``celwasm_cost``; docs/abi.md, "cost"): what
        kube-apiserver reports when the CRD is created (structural schema
        errors, compile errors, rules over StaticEstimatedCostLimit per rule
        or StaticEstimatedCRDCostLimit per schema), every rule's estimated
        cost in cost units and where it comes from, and for rules over a
        limit the ``maxItems``/``maxLength``/``maxProperties`` that would
        bring them under. A CRD with errors is reported (``valid`` false).

        Args:
            version: only this version's schema (default: every version).
            timeout: seconds to wait for a free instance.

        Raises:
            InvalidCRDError: the input is not a usable CRD (not a CRD, no such
                version).
            BadRequestError, TrapError, ClosedError, DeadlineExceededError.
        """
        from ._crd import CRDCostReport, _decode, _load, _version_piece
        body = _load(self.runtime._full_runtime()._request(_COST, b'{"crd":' + self.json + _version_piece(version) + b"}", timeout), "cost")
        return _decode(CRDCostReport, body)

    def __repr__(self) -> str:
        return "<celwasm.CRD %d bytes>" % len(self.json)
