"""``python -m celwasm``: the Go CLI (cmd/celwasm) in Python, printing the same
bytes for the same arguments.

    python -m celwasm eval -e EXPR [--var NAME=TYPE]... [--k8s-version 1.34] [-i FILE|-]
    python -m celwasm check -e EXPR [--var NAME=TYPE]...
    python -m celwasm filter --filter filter.yaml [-i events.ndjson|-] [--explain]
    python -m celwasm when --context ctx.json -e EXPR [-e EXPR]...
    python -m celwasm version

Exit status: 0 on a result, 1 on a compile or evaluation error, 2 on bad usage
(``when``: 0 true, 1 false, 2 an error).
Flags are parsed as Go's ``flag`` package does (``-x``/``--x``, ``-x=v``,
``-x v``; parsing stops at the first non-flag argument).
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ._errors import CelError, CompileError
from ._gocompat import InputError, go_parse_uint, object_keys, read_documents, read_events, select_path
from ._runtime import CLOUD_EVENTS, DEFAULT_COST_LIMIT, Env, Program, Result, Runtime, shared_module
from ._text import format_text

USAGE = """celwasm: CEL (cel-go + the Kubernetes CEL libraries) through WebAssembly

Usage:
  python -m celwasm eval -e EXPR [flags] [-i FILE|-]   evaluate; prints the result as canonical JSON
  python -m celwasm check -e EXPR [flags]              type-check; prints the output type and cost estimate
  python -m celwasm filter --filter F.yaml -i EVENTS   CloudEvents trigger filter: matching events to stdout
  python -m celwasm when --context CTX -e EXPR...      Tekton when expressions: prints true/false, exit 0/1
  python -m celwasm version                            module, cel-go and Kubernetes versions

Run 'python -m celwasm COMMAND -h' for a command's flags.
"""

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


class _Usage(Exception):
    pass


class _Help(Exception):
    pass


def _parse_bool(v: str) -> bool:
    if v in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if v in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    raise ValueError("parse error")


class FlagSet:
    """Go's ``flag.FlagSet`` (ContinueOnError): the same accepted syntax and the
    same failures (exit status 2)."""

    def __init__(self, name: str, stderr: IO[str]) -> None:
        self.name = name
        self.stderr = stderr
        self._flags: Dict[str, Tuple[bool, Callable[[str], None], str]] = {}
        self.args: List[str] = []

    def add(self, name: str, setter: Callable[[str], None], help: str, is_bool: bool = False) -> None:
        self._flags[name] = (is_bool, setter, help)

    def _usage(self) -> None:
        self.stderr.write("Usage of %s:\n" % self.name)
        for name in sorted(self._flags):
            is_bool, _, help = self._flags[name]
            self.stderr.write("  -%s%s\n    \t%s\n" % (name, "" if is_bool else " value", help))

    def _fail(self, msg: str) -> None:
        self.stderr.write(msg + "\n")
        self._usage()
        raise _Usage(msg)

    def parse(self, args: Sequence[str]) -> None:
        args = list(args)
        while args:
            s = args[0]
            if len(s) < 2 or s[0] != "-":
                break
            minuses = 1
            if s[1] == "-":
                minuses = 2
                if len(s) == 2:
                    args = args[1:]
                    break
            name = s[minuses:]
            if not name or name[0] in "-=":
                self._fail("bad flag syntax: %s" % s)
            args = args[1:]
            has_value = False
            value = ""
            i = name.find("=", 1)
            if i > 0:
                name, value, has_value = name[:i], name[i + 1 :], True
            flag = self._flags.get(name)
            if flag is None:
                if name in ("help", "h"):
                    self._usage()
                    raise _Help()
                self._fail("flag provided but not defined: -%s" % name)
                return
            is_bool, setter, _ = flag
            if is_bool:
                v = value if has_value else "true"
                try:
                    setter(v)
                except ValueError as e:
                    self._fail("invalid boolean value %s for -%s: %s" % (json.dumps(v), name, e))
            else:
                if not has_value and args:
                    value, args, has_value = args[0], args[1:], True
                if not has_value:
                    self._fail("flag needs an argument: -%s" % name)
                try:
                    setter(value)
                except ValueError as e:
                    self._fail("invalid value %s for flag -%s: %s" % (json.dumps(value), name, e))
        self.args = args


class EnvFlags:
    """The flags that describe the environment (cmd/celwasm envFlags)."""

    def __init__(self) -> None:
        self.expr = ""
        self.vars: List[str] = []
        self.exts: List[str] = []
        self.k8s = ""
        self.stored = False
        self.base = "kubernetes"
        self.container = ""
        self.no_check = False
        self.no_macros = False
        self.engine = "wazero"

    def register(self, fs: FlagSet) -> None:
        def setter(attr: str) -> Callable[[str], None]:
            return lambda v: setattr(self, attr, v)

        def bool_setter(attr: str) -> Callable[[str], None]:
            return lambda v: setattr(self, attr, _parse_bool(v))

        fs.add("e", setter("expr"), "the CEL `expression` (required)")
        fs.add("var", self.vars.append, "declare a variable `NAME=TYPE` (CEL type name, e.g. self=map(string, dyn)); repeatable")
        fs.add("ext", self.exts.append, "add a cel-go extension `NAME[:VERSION]`; repeatable")
        fs.add("k8s-version", setter("k8s"), "Kubernetes compatibility `version` of the base environment (1.30 ... 1.37; default: newest)")
        fs.add("stored", bool_setter("stored"), "use kube-apiserver's StoredExpressions environment instead of NewExpressions", True)
        fs.add("base", setter("base"), "base environment: kubernetes or cel")
        fs.add("container", setter("container"), "container (namespace) for identifier resolution")
        fs.add("disable-check", bool_setter("no_check"), "parse only, no type check", True)
        fs.add("disable-macros", bool_setter("no_macros"), "turn off macros", True)
        fs.add("engine", setter("engine"), "accepted for compatibility with the Go CLI (wazero or wasmtime); Python always runs wasmtime-py")

    def env_args(self) -> Tuple[List[Tuple[str, str]], Dict[str, Any]]:
        """(variables, Env keyword arguments); raises _Usage."""
        variables: List[Tuple[str, str]] = []
        for v in self.vars:
            name, sep, typ = v.partition("=")
            if not sep or not name or not typ:
                raise _Usage("--var %s: want NAME=TYPE" % json.dumps(v))
            variables.append((name.strip(" \t\n\r\v\f"), typ.strip(" \t\n\r\v\f")))
        exts: List[Any] = []
        for x in self.exts:
            name, sep, ver = x.partition(":")
            if sep:
                n = _sscan_uint32(ver)
                if n is None:
                    raise _Usage("--ext %s: version must be a number" % json.dumps(x))
                exts.append({"name": name, "version": str(n)})
            else:
                exts.append(name)
        kw: Dict[str, Any] = {"extensions": exts}
        if self.base == "cel":
            kw["base"] = "cel"
        elif self.base != "kubernetes":
            raise _Usage("--base must be kubernetes or cel")
        if self.k8s:
            kw["compatibility_version"] = self.k8s
        if self.stored:
            kw["stored_expressions"] = True
        if self.container:
            kw["container"] = self.container
        if self.no_check:
            kw["disable_type_check"] = True
        if self.no_macros:
            kw["disable_macros"] = True
        return variables, kw

    def declared(self, name: str) -> bool:
        return any(v.partition("=")[0].strip(" \t\n\r\v\f") == name for v in self.vars)


def _sscan_uint32(s: str) -> Optional[int]:
    """fmt.Sscanf(s, "%d", &uint32): leading spaces, optional +, digits; the rest ignored."""
    i = 0
    while i < len(s) and s[i] in " \t\r":
        i += 1
    if i < len(s) and s[i] == "+":
        i += 1
    j = i
    while j < len(s) and "0" <= s[j] <= "9":
        j += 1
    if j == i:
        return None
    n = int(s[i:j])
    if n > 0xFFFFFFFF:
        return None
    return n


def _report(stderr: IO[str], err: BaseException) -> int:
    if isinstance(err, CompileError) and err.issues:
        for issue in err.issues:
            stderr.write(issue.snippet + "\n")
        return EXIT_ERROR
    if isinstance(err, CelError):
        stderr.write("error: %s: %s\n" % (err.code, err.message))
        return EXIT_ERROR
    stderr.write("error: %s\n" % err)
    return EXIT_ERROR


def _new_runtime(engine: str) -> Runtime:
    if engine not in ("wazero", "wasmtime"):
        raise ValueError("--engine must be wazero or wasmtime")
    return Runtime(instances=1, module=shared_module())


def run(
    args: Sequence[str],
    stdin: Optional[IO[bytes]] = None,
    stdout: Optional[IO[bytes]] = None,
    stderr: Optional[IO[str]] = None,
) -> int:
    """Runs the CLI; returns the exit status. ``stdin``/``stdout`` are binary
    streams, ``stderr`` a text stream (defaults: the process's)."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    stderr = stderr if stderr is not None else sys.stderr
    if not args:
        stderr.write(USAGE)
        return EXIT_USAGE
    cmd, rest = args[0], list(args[1:])
    if cmd == "eval":
        return _cmd_eval(rest, stdin, stdout, stderr)
    if cmd == "check":
        return _cmd_check(rest, stdout, stderr)
    if cmd == "version":
        return _cmd_version(rest, stdout, stderr)
    if cmd == "filter":
        return _cmd_filter(rest, stdin, stdout, stderr)
    if cmd == "when":
        return _cmd_when(rest, stdout, stderr)
    if cmd in ("-h", "--help", "help"):
        stdout.write(USAGE.encode("utf-8"))
        return EXIT_OK
    stderr.write("celwasm: unknown command %s\n\n%s" % (json.dumps(cmd), USAGE))
    return EXIT_USAGE


def _cmd_version(args: Sequence[str], stdout: IO[bytes], stderr: IO[str]) -> int:
    fs = FlagSet("celwasm version", stderr)
    engine = ["wazero"]
    fs.add("engine", lambda v: engine.__setitem__(0, v), "accepted for compatibility with the Go CLI")
    try:
        fs.parse(args)
    except (_Usage, _Help):
        return EXIT_USAGE
    try:
        rt = _new_runtime(engine[0])
    except (ValueError, CelError) as e:
        return _report(stderr, e)
    with rt:
        try:
            v = rt.version()
        except CelError as e:
            return _report(stderr, e)
    out = (
        "celwasm %s (ABI %d)\n" % (v.module, v.abi)
        + "module sha256 %s\n" % v.module_sha256
        + "cel-go %s, k8s.io/apiserver %s, %s\n" % (v.cel_go, v.kubernetes, v.go)
        + "compatibility versions %s (default %s)\n" % (", ".join(v.compatibility_versions), v.default_compatibility_version)
        + "extensions %s\n" % ", ".join(v.extensions)
        + "engine %s\n" % v.engine
    )
    stdout.write(out.encode("utf-8"))
    return EXIT_OK


def _cmd_check(args: Sequence[str], stdout: IO[bytes], stderr: IO[str]) -> int:
    fs = FlagSet("celwasm check", stderr)
    ef = EnvFlags()
    ef.register(fs)
    output = ["text"]
    fs.add("o", lambda v: output.__setitem__(0, v), "output: text or json")
    try:
        fs.parse(args)
    except (_Usage, _Help):
        return EXIT_USAGE
    if ef.expr == "" or fs.args or output[0] not in ("text", "json"):
        stderr.write("celwasm check: -e EXPR is required; -o is text or json\n")
        return EXIT_USAGE
    try:
        variables, kw = ef.env_args()
    except _Usage as e:
        stderr.write("celwasm check: %s\n" % e)
        return EXIT_USAGE
    try:
        rt = _new_runtime(ef.engine)
    except (ValueError, CelError) as e:
        return _report(stderr, e)
    with rt:
        try:
            prg = Env(variables, runtime=rt, **kw).compile(ef.expr)
        except CelError as e:
            return _report(stderr, e)
        with prg:
            ce = prg.cost_estimate
            if output[0] == "json":
                s = '{"outputType":%s' % json.dumps(prg.output_type, ensure_ascii=False)
                if ce is not None:
                    s += ',"costEstimate":{"min":%d,"max":%d}' % (ce.min, ce.max)
                stdout.write((s + "}\n").encode("utf-8"))
                return EXIT_OK
            s = "type: %s\n" % prg.output_type
            if ce is not None:
                s += "cost estimate: %d..%d cost units (per-call limit %d)\n" % (ce.min, ce.max, DEFAULT_COST_LIMIT)
            stdout.write(s.encode("utf-8"))
    return EXIT_OK


def _cmd_eval(args: Sequence[str], stdin: IO[bytes], stdout: IO[bytes], stderr: IO[str]) -> int:
    fs = FlagSet("celwasm eval", stderr)
    ef = EnvFlags()
    ef.register(fs)
    opt: Dict[str, Any] = {"i": "", "bind": "self", "at": "", "activation": False, "o": "json", "cost_limit": DEFAULT_COST_LIMIT, "cost": False}

    def set_cost_limit(v: str) -> None:
        try:
            opt["cost_limit"] = go_parse_uint(v, 0, 64)
        except ValueError:
            raise ValueError("parse error") from None

    fs.add("i", lambda v: opt.__setitem__("i", v), "input `FILE` (JSON or YAML; - for stdin); each YAML document is evaluated")
    fs.add("bind", lambda v: opt.__setitem__("bind", v), "variable `NAME` the input document is bound to")
    fs.add("at", lambda v: opt.__setitem__("at", v), "bind the value at this dotted field `PATH` of each document (e.g. spec)")
    fs.add("activation", lambda v: opt.__setitem__("activation", _parse_bool(v)), "use the input document's top-level keys as the variables", True)
    fs.add("o", lambda v: opt.__setitem__("o", v), "output: json (canonical typed JSON) or text (CEL literal)")
    fs.add("cost-limit", set_cost_limit, "per-call cost limit in cost units")
    fs.add("cost", lambda v: opt.__setitem__("cost", _parse_bool(v)), "print the actual cost of each evaluation to stderr", True)
    try:
        fs.parse(args)
    except (_Usage, _Help):
        return EXIT_USAGE
    if ef.expr == "" or fs.args:
        stderr.write("celwasm eval: -e EXPR is required (and no positional arguments)\n")
        return EXIT_USAGE
    if opt["o"] not in ("json", "text"):
        stderr.write("celwasm eval: -o must be json or text\n")
        return EXIT_USAGE
    try:
        variables, kw = ef.env_args()
    except _Usage as e:
        stderr.write("celwasm eval: %s\n" % e)
        return EXIT_USAGE

    docs: List[bytes] = []
    name = opt["i"]
    if name != "":
        if name == "-":
            data = stdin.read()
        else:
            try:
                with open(name, "rb") as f:
                    data = f.read()
            except OSError as e:
                stderr.write("celwasm eval: open %s: %s\n" % (name, e.strerror or e))
                return EXIT_USAGE
        try:
            docs = read_documents(data)
        except InputError as e:
            stderr.write("error: invalid input %s: %s\n" % (name, e))
            return EXIT_ERROR
    if opt["at"] != "":
        for i, d in enumerate(docs):
            try:
                docs[i] = select_path(d, opt["at"])
            except InputError as e:
                stderr.write("error: --at %s: document %d: %s\n" % (opt["at"], i + 1, e))
                return EXIT_ERROR
    # Undeclared input variables are declared dyn.
    if opt["activation"]:
        for d in docs:
            try:
                keys = object_keys(d)
            except InputError:
                stderr.write("error: --activation needs each document to be a JSON/YAML object\n")
                return EXIT_ERROR
            for k in keys or ():
                if not ef.declared(k):
                    ef.vars.append(k + "=dyn")
                    variables.append((k, "dyn"))
    elif docs and not ef.declared(opt["bind"]):
        variables.append((opt["bind"], "dyn"))

    try:
        rt = _new_runtime(ef.engine)
    except (ValueError, CelError) as e:
        return _report(stderr, e)
    with rt:
        try:
            prg = Env(variables, runtime=rt, **kw).compile(ef.expr)
        except CelError as e:
            return _report(stderr, e)
        with prg:
            activations: List[bytes] = []
            bind = json.dumps(opt["bind"], ensure_ascii=False).encode("utf-8", "surrogateescape")
            for d in docs:
                activations.append(d if opt["activation"] else b"{" + bind + b":" + d + b"}")
            if not activations:
                activations.append(b"{}")
            status = EXIT_OK
            cost_limit = opt["cost_limit"] or None
            for i, act in enumerate(activations):
                try:
                    res = prg.eval(act, cost_limit=cost_limit)
                except CelError as e:
                    if len(activations) > 1:
                        stderr.write("document %d: " % (i + 1))
                    status = _report(stderr, e)
                    continue
                if opt["o"] == "text":
                    try:
                        text = format_text(res.json)
                    except CelError as e:
                        return _report(stderr, e)
                    stdout.write(text.encode("utf-8", "surrogateescape") + b"\n")
                else:
                    stdout.write(res.json + b"\n")
                if opt["cost"]:
                    stderr.write("cost: %d\n" % res.cost)
            return status


# One module call of `filter` holds at most this many events, or bytes of them.
_BATCH_SIZE = 1000
_BATCH_BYTES = 4 << 20


def _read_file(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _open_error(e: OSError) -> str:
    return "open %s: %s" % (e.filename, e.strerror or e)


def _cmd_filter(args: Sequence[str], stdin: IO[bytes], stdout: IO[bytes], stderr: IO[str]) -> int:
    """cmd/celwasm cmdFilter: compile each filter document, evaluate every event
    (in batches), print the events that match (all filters AND-ed), a summary
    per filter on stderr."""
    fs = FlagSet("celwasm filter", stderr)
    opt: Dict[str, Any] = {"filter": "", "i": "", "explain": False, "fail_open": False, "cost_limit": DEFAULT_COST_LIMIT, "engine": "wazero"}

    def set_cost_limit(v: str) -> None:
        try:
            opt["cost_limit"] = go_parse_uint(v, 0, 64)
        except ValueError:
            raise ValueError("parse error") from None

    fs.add("filter", lambda v: opt.__setitem__("filter", v), "trigger filter `FILE` (YAML or JSON; one filter per document): expression, attributes, sourceAndType, exact, prefix, suffix, all, any or not — or a Trigger")
    fs.add("i", lambda v: opt.__setitem__("i", v), "CloudEvents `FILE` (NDJSON, a JSON array or one JSON event; - for stdin); structured mode, or binary-mode envelopes")
    fs.add("explain", lambda v: opt.__setitem__("explain", _parse_bool(v)), "print the CEL each filter became", True)
    fs.add("fail-open", lambda v: opt.__setitem__("fail_open", _parse_bool(v)), "deliver events whose evaluation fails (default: fail closed)", True)
    fs.add("cost-limit", set_cost_limit, "per-event cost limit in cost units")
    fs.add("engine", lambda v: opt.__setitem__("engine", v), "accepted for compatibility with the Go CLI (wazero or wasmtime); Python always runs wasmtime-py")
    try:
        fs.parse(args)
    except (_Usage, _Help):
        return EXIT_USAGE
    if opt["filter"] == "" or fs.args:
        stderr.write("celwasm filter: --filter FILE is required\n")
        return EXIT_USAGE
    try:
        data = _read_file(opt["filter"])
    except OSError as e:
        stderr.write("celwasm filter: %s\n" % _open_error(e))
        return EXIT_USAGE
    try:
        filters = read_documents(data)
        problem = "<nil>"
    except InputError as e:
        filters, problem = [], str(e)
    if not filters:
        stderr.write("error: invalid filter file %s: %s\n" % (opt["filter"], problem))
        return EXIT_ERROR
    try:
        rt = _new_runtime(opt["engine"])
    except (ValueError, CelError) as e:
        return _report(stderr, e)
    with rt:
        prgs: List[Program] = []
        try:
            for i, doc in enumerate(filters):
                try:
                    prg = Env(runtime=rt).compile_filter(doc)
                except CelError as e:
                    if len(filters) > 1:
                        stderr.write("filter %d: " % (i + 1))
                    return _report(stderr, e)
                prgs.append(prg)
                if opt["explain"]:
                    line = ("filter %d: " % (i + 1) if len(filters) > 1 else "") + prg.expression + "\n"
                    if opt["i"] == "":
                        stdout.write(line.encode("utf-8"))
                    else:
                        stderr.write(line)
            if opt["i"] == "":
                if not opt["explain"]:
                    stderr.write("celwasm filter: -i FILE is required (or --explain alone)\n")
                    return EXIT_USAGE
                return EXIT_OK
            if opt["i"] == "-":
                raw = stdin.read()
            else:
                try:
                    raw = _read_file(opt["i"])
                except OSError as e:
                    stderr.write("celwasm filter: %s\n" % _open_error(e))
                    return EXIT_USAGE
            try:
                events = read_events(raw)
            except InputError as e:
                stderr.write("error: reading events: %s\n" % e)
                return EXIT_ERROR
            return _filter_events(prgs, events, opt, stdout, stderr)
        finally:
            for prg in prgs:
                prg.close()


def _filter_events(prgs: List[Program], events: List[bytes], opt: Dict[str, Any], stdout: IO[bytes], stderr: IO[str]) -> int:
    fail_open: bool = opt["fail_open"]
    cost_limit = opt["cost_limit"] or None
    matched = [0] * len(prgs)
    errors = [0] * len(prgs)
    delivered = 0
    shown = 0
    start = 0
    while start < len(events):
        end, size = start, 0
        while end < len(events) and end - start < _BATCH_SIZE and (size == 0 or size + len(events[end]) <= _BATCH_BYTES):
            size += len(events[end])
            end += 1
        batch = events[start:end]
        deliver = [False] * len(batch)
        for fi, prg in enumerate(prgs):
            try:
                results = prg.eval_batch(batch, CLOUD_EVENTS, cost_limit=cost_limit)
            except CelError as e:
                return _report(stderr, e)
            for i, res in enumerate(results):
                if isinstance(res, CelError):
                    errors[fi] += 1
                    if shown < 10:
                        stderr.write("event %d: %s: %s\n" % (start + i + 1, res.code, res.message))
                        shown += 1
                    if fail_open:
                        deliver[i] = True
                elif res.json == b"true":
                    matched[fi] += 1
                    deliver[i] = True
                elif res.json != b"false":
                    errors[fi] += 1
                    if shown < 10:
                        stderr.write("event %d: filter result is %s, not a bool\n" % (start + i + 1, res.json.decode("utf-8", "replace")))
                        shown += 1
                    if fail_open:
                        deliver[i] = True
        out = [batch[i] + b"\n" for i, ok in enumerate(deliver) if ok]
        delivered += len(out)
        stdout.write(b"".join(out))
        start = end
    mode = "fail open" if fail_open else "fail closed"
    for fi in range(len(prgs)):
        prefix = "filter %d: " % (fi + 1) if len(prgs) > 1 else ""
        stderr.write("%smatched %d of %d events, %d evaluation errors (%s)\n" % (prefix, matched[fi], len(events), errors[fi], mode))
    if len(prgs) > 1:
        stderr.write("delivered %d of %d events\n" % (delivered, len(events)))
    return EXIT_OK


def _cmd_when(args: Sequence[str], stdout: IO[bytes], stderr: IO[str]) -> int:
    """cmd/celwasm cmdWhen: prints true (exit 0) or false (exit 1); every error
    exits 2."""
    fs = FlagSet("celwasm when", stderr)
    exprs: List[str] = []
    opt: Dict[str, Any] = {"context": "", "explain": False, "engine": "wazero"}
    fs.add("context", lambda v: opt.__setitem__("context", v), "pipeline context `FILE` (JSON or YAML): {\"params\": {...}, \"tasks\": {...}, \"context\": {...}}")
    fs.add("e", exprs.append, "a when `expression` (cel); repeatable, AND-ed")
    fs.add("explain", lambda v: opt.__setitem__("explain", _parse_bool(v)), "print the CEL the when list became", True)
    fs.add("engine", lambda v: opt.__setitem__("engine", v), "accepted for compatibility with the Go CLI (wazero or wasmtime); Python always runs wasmtime-py")
    try:
        fs.parse(args)
    except (_Usage, _Help):
        return EXIT_USAGE
    if not exprs or fs.args:
        stderr.write("celwasm when: at least one -e EXPR is required\n")
        return EXIT_USAGE
    activation = b"{}"
    if opt["context"] != "":
        try:
            data = _read_file(opt["context"])
        except OSError as e:
            stderr.write("celwasm when: %s\n" % _open_error(e))
            return EXIT_USAGE
        try:
            docs = read_documents(data)
            problem = "<nil>"
        except InputError as e:
            docs, problem = [], str(e)
        if len(docs) != 1:
            stderr.write("error: %s must hold one JSON or YAML document (%s)\n" % (opt["context"], problem))
            return EXIT_USAGE
        activation = docs[0]
    try:
        rt = _new_runtime(opt["engine"])
    except (ValueError, CelError) as e:
        _report(stderr, e)
        return EXIT_USAGE
    with rt:
        try:
            prg = Env(runtime=rt).compile_when(exprs)
        except CelError as e:
            _report(stderr, e)
            return EXIT_USAGE
        with prg:
            if opt["explain"]:
                stderr.write(prg.expression + "\n")
            try:
                res: Result = prg.eval(activation)
            except CelError as e:
                _report(stderr, e)
                return EXIT_USAGE
    if res.json == b"true":
        stdout.write(b"true\n")
        return EXIT_OK
    if res.json == b"false":
        stdout.write(b"false\n")
        return EXIT_ERROR
    _report(stderr, ValueError("when expressions must evaluate to a bool, got " + res.json.decode("utf-8", "replace")))
    return EXIT_USAGE


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point: ``python -m celwasm``."""
    try:
        rc = run(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as a Go program
        # killed by SIGPIPE would.
        try:
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return 1
    return rc
