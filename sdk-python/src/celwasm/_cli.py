"""``python -m celwasm``: the Go CLI (cmd/celwasm) in Python, printing the same
bytes for the same arguments.

    python -m celwasm eval -e EXPR [--var NAME=TYPE]... [--k8s-version 1.34] [-i FILE|-]
    python -m celwasm check -e EXPR [--var NAME=TYPE]...
    python -m celwasm filter --filter filter.yaml [-i events.ndjson|-] [--explain]
    python -m celwasm when --context ctx.json -e EXPR [-e EXPR]...
    python -m celwasm validate --crd crd.yaml [--old old.yaml] object.yaml...
    python -m celwasm cost --crd crd.yaml
    python -m celwasm admit -f policies.yaml object.yaml...
    python -m celwasm version

Exit status, the same for every command (and for the Go CLI):

- 0: a result: the value, the type, a valid object, rules within the limits;
- 1: a failure of what was asked: compile or evaluation error, an invalid
  object, a CRD that would be rejected, a rule over a cost limit;
- 2: the command did not run: bad usage (unknown flag, bad flag value,
  ``--engine`` other than wasmtime or wazero), or unreadable input (a file
  that cannot be read, is neither JSON nor YAML, nests deeper than 1000, or
  is not what the flag needs; eval with no input for an expression that
  reads it).

``when`` is the one exception: it exits 1 for false, so its errors exit 2.
Flags are parsed as Go's ``flag`` package does (``-x``/``--x``, ``-x=v``,
``-x v``; parsing stops at the first non-flag argument).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ._errors import CelError, CompileError
from ._crd import CRDCostReport, CRDObject, CostExplanation, BoundNode, ObjectResult, go_struct
from ._errors import InvalidCRDError, InvalidPolicyError
from ._gocompat import _max_depth, go_parse_uint, go_quote_string
from ._runtime import CRD, CLOUD_EVENTS, DEFAULT_COST_LIMIT, Env, Program, Result, Runtime, shared_module
from . import _module

USAGE = """celwasm: CEL (cel-go + the Kubernetes CEL libraries) through WebAssembly

Usage:
  python -m celwasm eval -e EXPR [flags] [-i FILE|-]   evaluate; prints the result as canonical JSON
  python -m celwasm check -e EXPR [flags]              type-check; prints the output type and cost estimate
  python -m celwasm filter --filter F.yaml -i EVENTS   CloudEvents trigger filter: matching events to stdout
  python -m celwasm when --context CTX -e EXPR...      Tekton when expressions: prints true/false, exit 0/1
  python -m celwasm validate --crd CRD.yaml OBJ.yaml   custom resources against a CRD, as kube-apiserver (--old for updates)
  python -m celwasm cost --crd CRD.yaml                a CRD's rule cost estimates against the limits, explained
  python -m celwasm admit -f POLICIES.yaml OBJ.yaml    admission policies (VAP, MAP) on objects, as kube-apiserver
  python -m celwasm version                            module, cel-go and Kubernetes versions

Run 'python -m celwasm COMMAND -h' for a command's flags.

Exit status: 0 a result (valid, within the limits); 1 a compile, evaluation or
validation failure (when: false); 2 bad usage or unreadable input (when: any error).
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
    same failures (exit status 2). With ``usage``, that text is the usage
    message, followed by Go's ``PrintDefaults`` of the flags."""

    def __init__(self, name: str, stderr: IO[str], usage: Optional[str] = None) -> None:
        self.name = name
        self.stderr = stderr
        self._flags: Dict[str, Tuple[bool, Callable[[str], None], str]] = {}
        # name -> (kind: "bool", "string" or "value" (a flag.Value), default text)
        self._defaults: Dict[str, Tuple[str, str]] = {}
        self._usage_text = usage
        self.args: List[str] = []

    def add(self, name: str, setter: Callable[[str], None], help: str, is_bool: bool = False, *, kind: str = "", default: str = "") -> None:
        self._flags[name] = (is_bool, setter, help)
        self._defaults[name] = ("bool" if is_bool else kind or "string", default)

    def _usage(self) -> None:
        if self._usage_text is not None:
            self.stderr.write(self._usage_text)
            self.print_defaults()
            return
        self.stderr.write("Usage of %s:\n" % self.name)
        for name in sorted(self._flags):
            is_bool, _, help = self._flags[name]
            self.stderr.write("  -%s%s\n    \t%s\n" % (name, "" if is_bool else " value", help))

    def print_defaults(self) -> None:
        """Go's ``FlagSet.PrintDefaults``: each flag in name order, its
        back-quoted argument name (or its type's), its usage, and its default
        when that is not the zero value."""
        for name in sorted(self._flags):
            _, _, help = self._flags[name]
            kind, default = self._defaults[name]
            arg, usage = "value", help
            i = help.find("`")
            j = help.find("`", i + 1) if i >= 0 else -1
            if j > i >= 0:
                arg, usage = help[i + 1 : j], help[:i] + help[i + 1 : j] + help[j + 1 :]
            elif kind == "bool":
                arg = ""
            elif kind == "string":
                arg = "string"
            line = "  -" + name + (" " + arg if arg else "")
            line += "\t" if len(line) <= 4 else "\n    \t"
            line += usage.replace("\n", "\n    \t")
            if default not in ("", "false" if kind == "bool" else ""):
                line += " (default %s)" % (go_quote_string(default) if kind == "string" else default)
            self.stderr.write(line + "\n")

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
        self.engine = "wasmtime"

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


class InputError(ValueError):
    """The module's celwasm_input could not read the input; the message is
    the Go CLI's."""


_rt: Optional[Runtime] = None
_stderr: IO[str] = sys.stderr


def compile_line(cache_dir: Optional[Path], module: str = "celwasm") -> str:
    """The progress line of a first run (cmd/celwasm compileLine); celwasm-full,
    loaded for CRDs and Knative's attrs/cesql filters, is named."""
    what = "the WebAssembly module" + ("" if module == "celwasm" else " " + module)
    if cache_dir is None:
        return "celwasm: compiling %s for this machine (up to a minute; no cache directory, so every run compiles)" % what
    return "celwasm: compiling %s for this machine, once (up to a minute); the compiled code is cached in %s" % (what, cache_dir)


def _compile_notice(cache_dir: Optional[Path]) -> None:
    _stderr.write(compile_line(cache_dir) + "\n")
    _stderr.flush()


def _compile_notice_full(cache_dir: Optional[Path]) -> None:
    _stderr.write(compile_line(cache_dir, "celwasm-full") + "\n")
    _stderr.flush()


def _compile_notice_admission(cache_dir: Optional[Path]) -> None:
    _stderr.write(compile_line(cache_dir, "celwasm-admission") + "\n")
    _stderr.flush()


def _runtime() -> Runtime:
    """The command's one runtime (one instance): it reads the input through
    the module's celwasm_input export and then evaluates."""
    global _rt
    if _rt is None or _rt._closed:  # a command's `with rt:` closed it
        # One command, then exit: no background compilation to Cranelift
        # (Winch code when nothing Cranelift is cached).
        _module._default_tier_up = False
        _rt = Runtime(
            instances=1,
            module=shared_module(on_compile=_compile_notice),
            on_compile_full=_compile_notice_full,
            on_compile_admission=_compile_notice_admission,
        )
    return _rt


def _check_engine(stderr: IO[str], cmd: str, engine: str) -> bool:
    """cmd/celwasm checkEngine: an --engine other than wazero or wasmtime is
    bad usage (exit 2)."""
    if engine in ("wazero", "wasmtime"):
        return True
    stderr.write("celwasm %s: --engine must be wazero or wasmtime\n" % cmd)
    return False


# The module's limit on the nesting of arrays and objects in an activation
# (wasm/codec.MaxDepth; cmd/celwasm maxInputDepth).
MAX_INPUT_DEPTH = 1000


def _input_name(file: str) -> str:
    return "stdin" if file == "-" else file


def _not_json_or_yaml(file: str, err: BaseException) -> str:
    return "%s is neither JSON nor YAML (%s)" % (_input_name(file), err)


def _reads_input(err: CelError, bind: str, activation: bool) -> Optional[str]:
    """cmd/celwasm readsInput: the variable of an undeclared reference to the
    input variable (with --activation: to any variable), or None."""
    if not isinstance(err, CompileError):
        return None
    prefix = "undeclared reference to '"
    for issue in err.issues:
        if not issue.message.startswith(prefix):
            continue
        rest = issue.message[len(prefix):]
        if "'" in rest:
            name = rest[: rest.index("'")]
            if activation or name == bind:
                return name
    return None


def _input(op: str, data: bytes, path: Optional[str] = None) -> Tuple[Dict[str, Any], List[bytes]]:
    """Reads input as the Go CLI does: the module's celwasm_input export,
    which runs the Go CLI's own code (wasm/input)."""
    try:
        return _runtime()._input(op, data, path)
    except CelError as e:
        if e.code == "invalid_input":
            raise InputError(e.message) from None
        raise


def _documents(data: bytes) -> List[bytes]:
    return _input("documents", data)[1]


def _new_runtime(engine: str) -> Runtime:
    if engine not in ("wazero", "wasmtime"):
        raise ValueError("--engine must be wazero or wasmtime")
    return _runtime()


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
    global _rt, _stderr
    _stderr = stderr
    try:
        return _run(args, stdin, stdout, stderr)
    finally:
        if _rt is not None:
            _rt.close()
            _rt = None


def _run(args: Sequence[str], stdin: IO[bytes], stdout: IO[bytes], stderr: IO[str]) -> int:
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
    if cmd == "validate":
        return _cmd_validate(rest, stdin, stdout, stderr)
    if cmd == "cost":
        return _cmd_cost(rest, stdin, stdout, stderr)
    if cmd == "admit":
        return _cmd_admit(rest, stdin, stdout, stderr)
    if cmd in ("-h", "--help", "help"):
        stdout.write(USAGE.encode("utf-8"))
        return EXIT_OK
    stderr.write("celwasm: unknown command %s\n\n%s" % (json.dumps(cmd), USAGE))
    return EXIT_USAGE


def _cmd_version(args: Sequence[str], stdout: IO[bytes], stderr: IO[str]) -> int:
    fs = FlagSet("celwasm version", stderr)
    engine = ["wasmtime"]
    fs.add("engine", lambda v: engine.__setitem__(0, v), "accepted for compatibility with the Go CLI")
    try:
        fs.parse(args)
    except (_Usage, _Help):
        return EXIT_USAGE
    if not _check_engine(stderr, "version", engine[0]):
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
        + "".join("module %s: %d bytes, sha256 %s\n" % (m.name, m.size, m.sha256) for m in v.modules)
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
    if not _check_engine(stderr, "check", ef.engine):
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
                s += "cost estimate: %s..%s cost units (per-call limit %s)\n" % (_cost_text(ce.min), _cost_text(ce.max), _group(DEFAULT_COST_LIMIT))
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

    if not _check_engine(stderr, "eval", ef.engine):
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
            except IsADirectoryError:
                # Go opens a directory and fails to read it.
                stderr.write("celwasm eval: read %s: is a directory\n" % name)
                return EXIT_USAGE
            except OSError as e:
                stderr.write("celwasm eval: open %s: %s\n" % (name, _errno_text(e)))
                return EXIT_USAGE
        try:
            docs = _documents(data)
        except InputError as e:
            stderr.write("celwasm eval: %s\n" % _not_json_or_yaml(name, e))
            return EXIT_USAGE
        for i, d in enumerate(docs):
            if _max_depth(d) > MAX_INPUT_DEPTH:
                stderr.write("celwasm eval: %s: document %d is nested deeper than the limit of %d\n" % (_input_name(name), i + 1, MAX_INPUT_DEPTH))
                return EXIT_USAGE
    if opt["at"] != "":
        for i, d in enumerate(docs):
            try:
                docs[i] = _input("select", d, opt["at"])[1][0]
            except InputError as e:
                stderr.write("celwasm eval: --at %s: document %d: %s\n" % (opt["at"], i + 1, e))
                return EXIT_USAGE
    # Undeclared input variables are declared dyn.
    if opt["activation"]:
        for d in docs:
            try:
                keys = [json.loads(k) for k in _input("keys", d)[1]]
            except InputError:
                stderr.write("celwasm eval: --activation needs each document to be a JSON/YAML object\n")
                return EXIT_USAGE
            for k in keys:
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
            if name == "":
                var = _reads_input(e, opt["bind"], opt["activation"])
                if var is not None:
                    stderr.write("celwasm eval: no input given, and the expression reads '%s': give it with -i FILE (JSON or YAML; - for stdin)\n" % var)
                    return EXIT_USAGE
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
                        text = json.loads(_input("text", res.json)[1][0])
                    except InputError as e:
                        return _report(stderr, e)
                    stdout.write(text.encode("utf-8", "surrogatepass") + b"\n")
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


def _errno_text(e: OSError) -> str:
    """Go's text for an OS error (syscall.Errno's)."""
    return _ERRNO_TEXT.get(e.errno or 0) or (e.strerror or str(e)).lower()


def _open_error(e: OSError) -> str:
    if isinstance(e, IsADirectoryError):
        return "read %s: is a directory" % e.filename  # Go opens a directory and fails to read it
    return "open %s: %s" % (e.filename, _errno_text(e))


def _cmd_filter(args: Sequence[str], stdin: IO[bytes], stdout: IO[bytes], stderr: IO[str]) -> int:
    """cmd/celwasm cmdFilter: compile each filter document, evaluate every event
    (in batches), print the events that match (all filters AND-ed), a summary
    per filter on stderr."""
    fs = FlagSet("celwasm filter", stderr)
    opt: Dict[str, Any] = {"filter": "", "i": "", "explain": False, "fail_open": False, "cost_limit": DEFAULT_COST_LIMIT, "engine": "wasmtime"}

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
    if not _check_engine(stderr, "filter", opt["engine"]):
        return EXIT_USAGE
    try:
        data = _read_file(opt["filter"])
    except OSError as e:
        stderr.write("celwasm filter: %s\n" % _open_error(e))
        return EXIT_USAGE
    try:
        filters = _documents(data)
    except InputError as e:
        stderr.write("celwasm filter: %s\n" % _not_json_or_yaml(opt["filter"], e))
        return EXIT_USAGE
    if not filters:
        stderr.write("celwasm filter: %s holds no filter\n" % opt["filter"])
        return EXIT_USAGE
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
                events = _input("events", raw)[1]
            except InputError as e:
                stderr.write("celwasm filter: reading events from %s: %s\n" % (_input_name(opt["i"]), e))
                return EXIT_USAGE
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
    opt: Dict[str, Any] = {"context": "", "explain": False, "engine": "wasmtime"}
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
    if not _check_engine(stderr, "when", opt["engine"]):
        return EXIT_USAGE
    activation = b"{}"
    if opt["context"] != "":
        try:
            data = _read_file(opt["context"])
        except OSError as e:
            stderr.write("celwasm when: %s\n" % _open_error(e))
            return EXIT_USAGE
        try:
            docs = _documents(data)
        except InputError as e:
            stderr.write("celwasm when: %s\n" % _not_json_or_yaml(opt["context"], e))
            return EXIT_USAGE
        if len(docs) != 1:
            stderr.write("celwasm when: %s must hold one JSON or YAML document, not %d\n" % (opt["context"], len(docs)))
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



# --- validate and cost: cmd/celwasm/crd.go ------------------------------------------------------

_VALIDATE_USAGE = """Usage: celwasm validate --crd CRD.yaml [--old OLD.yaml] [flags] OBJECT.yaml...

Validates custom resources as kube-apiserver would on create (or, with --old,
on update): pruning, defaulting, object metadata, the OpenAPI schema and every
x-kubernetes-validations rule, with transition rules and cost budgets. Files
hold YAML (several documents, kind: List expanded) or JSON; "-" is stdin.
Each object is checked against the CRD of its group and kind (--crd may be
given several times, a file may hold several CRDs). With --old, an object
replaces the old object of the same kind, namespace and name (an update);
objects without one are creates.

Exit status: 0 if every object is valid, 1 if any is invalid (or the CRD
would be rejected), 2 on bad usage or unreadable input.

Flags:
"""

_COST_USAGE = """Usage: celwasm cost --crd CRD.yaml [--version V] [flags]

Reports the estimated cost of every x-kubernetes-validations rule and
messageExpression against kube-apiserver's limits (10,000,000 per rule,
100,000,000 per schema), where it comes from (the lists above the rule that
multiply how often it runs, the lists, maps and strings it reads, its
calls), and for rules over a limit the maxItems/maxLength/maxProperties
that would bring them under.

Exit status: 0 if the CRD's rules compile and fit the limits, 1 otherwise,
2 on bad usage or unreadable input.

Flags:
"""

_ENGINE_HELP = "WebAssembly runtime: wasmtime (default; faster start and evaluation) or wazero (pure Go)"


class _CLIError(Exception):
    """An input error, printed as the Go CLI prints it."""


# Go's error texts (syscall.Errno) for the usual reasons a file cannot be read.
_ERRNO_TEXT = {2: "no such file or directory", 13: "permission denied", 20: "not a directory", 21: "is a directory", 40: "too many levels of symbolic links"}


def _read_input(file: str, stdin: IO[bytes]) -> bytes:
    if file == "-":
        return stdin.read()
    try:
        with open(file, "rb") as f:
            return f.read()
    except IsADirectoryError:
        # Go opens a directory and fails to read it.
        raise _CLIError("%s: read %s: is a directory" % (file, file)) from None
    except OSError as e:
        raise _CLIError("open %s: %s" % (file, _errno_text(e))) from None


_Object = Tuple[bytes, Dict[str, Any]]


def _read_objects(file: str, stdin: IO[bytes]) -> List[_Object]:
    """cmd/celwasm readObjects: the JSON documents of a file ("-": stdin),
    kind: List expanded, each with its identity (the module's
    celwasm_input "objects": wasm/input's Objects and Info)."""
    data = _read_input(file, stdin)
    try:
        head, docs = _input("objects", data)
    except InputError as e:
        raise _CLIError(_not_json_or_yaml(file, e)) from None
    return list(zip(docs, head.get("objects") or []))


class _CRDDoc:
    __slots__ = ("json", "name", "group", "kind", "file")

    def __init__(self, doc: bytes, name: str, group: str, kind: str, file: str) -> None:
        self.json, self.name, self.group, self.kind, self.file = doc, name, group, kind, file


def _read_crds(files: List[str], stdin: IO[bytes]) -> List[_CRDDoc]:
    out: List[_CRDDoc] = []
    for f in files:
        for d, info in _read_objects(f, stdin):
            c = info.get("crd")
            if c is None:
                raise _CLIError("%s: %s" % (f, info.get("crdError", "")))
            out.append(_CRDDoc(d, c["name"], c["group"], c["kind"], f))
    if not out:
        raise _CLIError("no CustomResourceDefinition in %s" % ", ".join(files))
    return out


_Key = Tuple[str, str, str, str]


def _key_of(info: Dict[str, Any]) -> Tuple[_Key, bool]:
    return (info["group"], info["kind"], info["namespace"], info["name"]), bool(info["keyOk"])


def _lookup_old(olds: Dict[_Key, bytes], k: _Key) -> Optional[bytes]:
    old = olds.get(k)
    if old is not None:
        return old
    ns = k[2]
    alt = "default" if ns == "" else "" if ns == "default" else ns
    return olds.get((k[0], k[1], alt, k[3]))


def _group(n: int) -> str:
    """n with thousands separators."""
    return "{:,}".format(n)


def _cost_text(n: int) -> str:
    return "unbounded" if n == 0xFFFFFFFFFFFFFFFF else _group(n)


def _print_crd_error(stderr: IO[str], c: _CRDDoc, err: BaseException) -> None:
    if isinstance(err, InvalidCRDError) and err.field_errors:
        head = "The CustomResourceDefinition %s is invalid: " % go_quote_string(c.name)
        if len(err.field_errors) == 1:
            stderr.write(head + str(err.field_errors[0]) + "\n")
            return
        stderr.write(head + "\n")
        for e in err.field_errors:
            stderr.write("* " + str(e) + "\n")
        return
    if isinstance(err, CelError):
        stderr.write("error: %s: %s: %s\n" % (c.file, err.code, err.message))
        return
    stderr.write("error: %s: %s\n" % (c.file, err))


def _print_result(out: List[str], file: str, r: Any, show_rules: bool) -> None:
    if isinstance(r, CelError):
        out.append("error: %s: %s\n" % (file, r.message))
        return
    ref = r.kind.lower() + "." + r.group + "/" + r.name
    where = " in " + r.namespace if r.namespace else ""
    cost = "rule cost %s" % _group(r.cost)
    if r.cost_exceeded:
        cost = "rule cost limit exceeded"
    elif r.cel_skipped:
        cost = "rules not run"
    out.append("%s%s: %s (%s, %s)\n" % (ref, where, "valid" if r.valid else "invalid", r.operation, cost))
    for w in r.warnings:
        out.append("Warning: " + w + "\n")
    if r.valid:
        return
    out.append(r.describe() + "\n")
    if show_rules:
        for e in r.errors:
            if e.rule is not None:
                out.append("  %s: rule %s (%s)\n" % (e.field, go_quote_string(e.rule.rule), e.rule.schema_path))


def _yaml_out(v: Any) -> str:
    """v as YAML the way the Go CLI prints patched objects (celwasm-admission's
    celwasm_input "yaml": sigs.k8s.io/yaml's JSONToYAML)."""
    # Raw UTF-8 as the module's JSON has it (YAML reads no surrogate-pair escapes), with
    # U+2028 and U+2029 escaped as Go's encoding/json writes them (raw, YAML breaks lines there).
    text = json.dumps(v, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    data = text.encode("utf-8", "surrogatepass")
    try:
        items = _runtime()._admission_runtime()._input("yaml", data)[1]
    except CelError as e:
        raise InputError(e.message) from None
    out: str = json.loads(items[0])
    return out


def _json_out(v: Any) -> bytes:
    """-o json: v written as the Go CLI writes it (the module's celwasm_input
    "json": Go's indenting Encoder without HTML escaping)."""
    text = json.dumps(v, allow_nan=False, separators=(",", ":")).encode("ascii")
    out: str = json.loads(_input("json", text)[1][0])
    return out.encode("utf-8", "surrogatepass")


def _crd_flags(fs: FlagSet, opt: Dict[str, Any], crd_files: List[str]) -> None:
    fs.add("crd", crd_files.append, "a `file` with CustomResourceDefinitions (YAML or JSON); repeatable", kind="value")
    fs.add("engine", lambda v: opt.__setitem__("engine", v), _ENGINE_HELP, default="wasmtime")


def _cmd_validate(args: Sequence[str], stdin: IO[bytes], stdout: IO[bytes], stderr: IO[str]) -> int:
    """cmd/celwasm cmdValidate: objects (creates, or updates of the --old
    objects) against the CRDs of their group and kind; kubectl's messages or
    the results as JSON."""
    fs = FlagSet("celwasm validate", stderr, usage=_VALIDATE_USAGE)
    crd_files: List[str] = []
    old_files: List[str] = []
    opt: Dict[str, Any] = {"version": "", "o": "text", "show_rules": False, "engine": "wasmtime"}
    _crd_flags(fs, opt, crd_files)
    fs.add("old", old_files.append, "a `file` with the stored objects: an object with the same kind, namespace and name is validated as an update of it; repeatable", kind="value")
    fs.add("version", lambda v: opt.__setitem__("version", v), "validate against this `version` of the CRD: objects of other versions are converted as without a conversion webhook (default: each object's apiVersion)")
    fs.add("o", lambda v: opt.__setitem__("o", v), "output: text (kubectl's messages) or json (the module's results)", default="text")
    fs.add("show-rules", lambda v: opt.__setitem__("show_rules", _parse_bool(v)), "name the x-kubernetes-validations rule under each error it produced", True)
    try:
        fs.parse(args)
    except (_Usage, _Help):
        return EXIT_USAGE
    if not crd_files or not fs.args or opt["o"] not in ("text", "json"):
        stderr.write("celwasm validate: --crd and at least one object file are required; -o is text or json\n")
        return EXIT_USAGE
    if not _check_engine(stderr, "validate", opt["engine"]):
        return EXIT_USAGE
    try:
        crds = _read_crds(crd_files, stdin)
        olds: Dict[_Key, bytes] = {}
        for f in old_files:
            for d, info in _read_objects(f, stdin):
                k, ok = _key_of(info)
                if ok:
                    olds[k] = d
        # Objects in input order: (document, old document, index of its CRD or -1, file, identity).
        items: List[Tuple[bytes, Optional[bytes], int, str, Dict[str, Any]]] = []
        for f in fs.args:
            for d, info in _read_objects(f, stdin):
                k, _ = _key_of(info)
                ci = next((i for i, c in enumerate(crds) if c.group == k[0] and c.kind == k[1]), -1)
                items.append((d, _lookup_old(olds, k) if ci >= 0 else None, ci, f, info))
    except _CLIError as e:
        stderr.write("celwasm validate: %s\n" % e)
        return EXIT_USAGE
    try:
        rt = _new_runtime(opt["engine"])
    except (ValueError, CelError) as e:
        return _report(stderr, e)
    results: List[Any] = [None] * len(items)
    status = EXIT_OK
    with rt:
        for ci, c in enumerate(crds):
            idx = [i for i, it in enumerate(items) if it[2] == ci]
            # A CRD no object names is still checked: its errors are reported.
            try:
                v = CRD(c.json, runtime=rt).validate([CRDObject(items[i][0], items[i][1]) for i in idx], version=opt["version"] or None)
            except CelError as e:
                status = EXIT_ERROR
                _print_crd_error(stderr, c, e)
                continue
            for w in v.crd.warnings:
                stderr.write("Warning: %s: %s\n" % (c.name, w))
            for j, r in zip(idx, v.results):
                results[j] = r
    out: List[str] = []
    json_out: List[Any] = []
    for (doc, _, ci, f, info), r in zip(items, results):
        if ci < 0:
            k, _ = _key_of(info)
            msg = "%s: no CustomResourceDefinition for kind %s in group %s" % (f, go_quote_string(k[1]), go_quote_string(k[0]))
            if "notObject" in info or not doc.strip():
                msg = "%s: a document is not an object: %s" % (f, info.get("notObject", ""))
            status = EXIT_ERROR
            if opt["o"] == "json":
                json_out.append({"error": {"code": "invalid_object", "message": msg}})
            else:
                out.append("error: " + msg + "\n")
            continue
        if r is None:
            continue  # the CRD failed; reported above
        if isinstance(r, CelError) or not r.valid:
            status = EXIT_ERROR
        if opt["o"] == "json":
            if isinstance(r, CelError):
                # The Go host's ObjectResult with Err set: every other member empty.
                entry = go_struct(r)
                entry.update(go_struct(ObjectResult()))
                json_out.append(entry)
            else:
                json_out.append(go_struct(r))
            continue
        _print_result(out, f, r, opt["show_rules"])
    if opt["o"] == "json":
        stdout.write(_json_out(json_out))
    else:
        stdout.write("".join(out).encode("utf-8", "surrogateescape"))
    return status


def _cmd_cost(args: Sequence[str], stdin: IO[bytes], stdout: IO[bytes], stderr: IO[str]) -> int:
    """cmd/celwasm cmdCost: every rule's estimated cost against kube-apiserver's
    limits, explained; the reports as JSON with -o json."""
    fs = FlagSet("celwasm cost", stderr, usage=_COST_USAGE)
    crd_files: List[str] = []
    opt: Dict[str, Any] = {"version": "", "o": "text", "v": False, "engine": "wasmtime"}
    _crd_flags(fs, opt, crd_files)
    fs.add("version", lambda v: opt.__setitem__("version", v), "report only this `version`'s schema (default: every version)")
    fs.add("o", lambda v: opt.__setitem__("o", v), "output: text or json (the module's report)", default="text")
    fs.add("v", lambda v: opt.__setitem__("v", _parse_bool(v)), "explain every rule, not only those over a limit", True)
    try:
        fs.parse(args)
    except (_Usage, _Help):
        return EXIT_USAGE
    if not crd_files or fs.args or opt["o"] not in ("text", "json"):
        stderr.write("celwasm cost: --crd is required and takes no arguments; -o is text or json\n")
        return EXIT_USAGE
    if not _check_engine(stderr, "cost", opt["engine"]):
        return EXIT_USAGE
    try:
        crds = _read_crds(crd_files, stdin)
    except _CLIError as e:
        stderr.write("celwasm cost: %s\n" % e)
        return EXIT_USAGE
    try:
        rt = _new_runtime(opt["engine"])
    except (ValueError, CelError) as e:
        return _report(stderr, e)
    status = EXIT_OK
    reports: List[Any] = []
    with rt:
        for c in crds:
            try:
                rep = CRD(c.json, runtime=rt).cost(version=opt["version"] or None)
            except CelError as e:
                _print_crd_error(stderr, c, e)
                status = EXIT_ERROR
                continue
            if not rep.valid:
                status = EXIT_ERROR
            if opt["o"] == "json":
                reports.append(go_struct(rep))
                continue
            out: List[str] = []
            _print_cost(out, rep, opt["v"])
            stdout.write("".join(out).encode("utf-8", "surrogateescape"))
    if opt["o"] == "json":
        stdout.write(_json_out(reports))
    return status


def _print_cost(out: List[str], rep: CRDCostReport, verbose: bool) -> None:
    out.append("CustomResourceDefinition %s\n" % rep.crd.name)
    for sc in rep.schemas:
        over = "  EXCEEDS" if sc.total_cost > sc.total_limit else ""
        out.append("\n%s (versions %s): total estimated cost %s of %s%s\n" % (sc.path, ", ".join(sc.versions), _cost_text(sc.total_cost), _group(sc.total_limit), over))
        if not sc.rules:
            out.append("  no x-kubernetes-validations\n")
            continue
        prefix = sc.path + "."
        for rc in sc.rules:
            where = rc.node or "(root)"
            kind = " messageExpression" if rc.kind == "messageExpression" else ""
            mark = "  EXCEEDS " + _group(rc.limit) if rc.exceeds else ""
            path = rc.path[len(prefix) :] if rc.path.startswith(prefix) else rc.path
            if rc.error:
                out.append("  %14s  %s%s  %s\n      %s\n      does not compile: %s\n" % ("-", where, kind, path, rc.expression, rc.error.replace("\n", "\n      ")))
                continue
            out.append("  %14s  %s%s  %s%s\n      %s\n" % (_cost_text(rc.cost), where, kind, path, mark, rc.expression))
            e = rc.explanation
            if e is not None and (verbose or rc.exceeds or e.fixes or e.combined_fix or e.no_fix):
                _print_explanation(out, e)
    if not rep.valid:
        out.append("\n")
        head = "The CustomResourceDefinition %s is invalid: " % go_quote_string(rep.crd.name)
        if len(rep.errors) == 1:
            out.append(head + str(rep.errors[0]) + "\n")
        else:
            out.append(head + "\n")
            for fe in rep.errors:
                out.append("* " + str(fe) + "\n")


def _print_explanation(out: List[str], e: CostExplanation) -> None:
    out.append("      %s\n" % e.summary)
    for r in e.runs:
        out.append("      runs once per %s of %s: %s\n" % ("entry" if r.kind == "map" else "item", r.path, _bound_text(r, "times")))
    for s in e.sizes:
        out.append("      reads %s %s: %s\n" % (s.kind, s.path, _bound_text(s, {"list": "items", "map": "entries"}.get(s.kind, "bytes"))))
    for u in e.unknown_sizes:
        out.append("      unbounded size: %s (passed to %s, at %d:%d)\n" % (u.expression, u.function, u.line, u.column))
    for c in e.calls[:5]:
        out.append("      %5.1f%%  %s  %s (at %d:%d)\n" % (c.percent, c.function, c.expression, c.line, c.column))
    for f in e.fixes:
        now = "" if f.current is None else " (now %d)" % f.current
        out.append("      fix: %s ≤ %d on %s%s (estimated cost then %s)\n" % (f.set, f.value, f.path, now, _cost_text(f.cost)))
    if e.combined_fix:
        parts = ["%s ≤ %d on %s" % (f.set, f.value, f.path) for f in e.combined_fix]
        out.append("      fix (together): %s (estimated cost then %s)\n" % (", ".join(parts), _cost_text(e.combined_fix[-1].cost)))
    if e.no_fix:
        out.append("      %s\n" % e.no_fix)


def _bound_text(n: BoundNode, unit: str) -> str:
    if n.bound is not None:
        return "%s %d → up to %s %s" % (n.bound_name, n.bound, _group(n.max_size), unit)
    if n.bound_name == "enum":
        return "enum → up to %s %s" % (_group(n.max_size), unit)
    if n.from_request_size and n.bound_name:
        return "no %s → up to %s %s (what fits in a 3 MiB request)" % (n.bound_name, _group(n.max_size), unit)
    if n.from_request_size:
        return "up to %s %s (what fits in a 3 MiB request)" % (_group(n.max_size), unit)
    return "up to %s %s" % (_group(n.max_size), unit)


# --- admit: cmd/celwasm/admit.go ----------------------------------------------------------------

_ADMIT_USAGE = """Usage: celwasm admit -f FILE [-f FILE]... [--old OLD.yaml] [--operation CREATE|UPDATE|DELETE|CONNECT]
                    [--user NAME] [--group G]... [--namespace-name NS] [-o text|json] OBJECT.yaml...

Admits objects as kube-apiserver's admission chain would: every
MutatingAdmissionPolicy, then every ValidatingAdmissionPolicy, with their
bindings, params, match constraints and conditions, variables, messages,
audit annotations and validation actions (k8s.io/apiserver's admission
plugins). The -f files hold policies, bindings, params (ConfigMaps, custom
resources), Namespaces, CRDs (the kinds they serve) and RBAC objects (what
the authorizer variable answers), as multi-document YAML, kind: List, or
JSON, as kubectl apply -f takes them. Policies are defaulted and validated as
when they are created.

The operation is CREATE, or UPDATE for objects with an old object of the same
kind, namespace and name in --old. For DELETE, OBJECT.yaml is the object
being deleted. The user (default kubernetes-admin in system:masters) is
given with all their groups.

-o json prints one object per input object: {"allowed", "message",
"warnings", "auditAnnotations", "patchedObject"} (plus "reason" and "code"
when denied).

Exit status: 0 if every object is admitted, 1 if any is denied or a policy is
invalid (what kube-apiserver would refuse to create), 2 on bad usage or
unreadable input.

Flags:
"""

_OPERATIONS = ("", "CREATE", "UPDATE", "DELETE", "CONNECT")
_VERBS = {"": "created", "CREATE": "created", "UPDATE": "configured", "DELETE": "deleted", "CONNECT": "connected"}
_GERUNDS = {"created": "creating", "configured": "updating", "deleted": "deleting", "connected": "connecting"}


def _resource_name(info: Dict[str, Any]) -> str:
    """cmd/celwasm resourceName: kubectl's name of an object, kind.group/name."""
    kind: str = info["kind"].lower()
    g: str = info["group"]
    if g != "" and "." in g or g in ("apps", "batch", "policy", "autoscaling"):
        kind += "." + g.split("/")[0]
    return kind + "/" + str(info["name"])


def _admit_result_json(r: Dict[str, Any]) -> Dict[str, Any]:
    """One result as the Go CLI writes it: json.Marshal of the Go host's
    AdmitResult (its fields only, reason and code omitted when empty, the
    audit annotations' keys sorted)."""
    out: Dict[str, Any] = {"allowed": r.get("allowed", False), "message": r.get("message") or ""}
    if r.get("reason"):
        out["reason"] = r["reason"]
    if r.get("code"):
        out["code"] = r["code"]
    out["warnings"] = r.get("warnings")
    ann = r.get("auditAnnotations")
    out["auditAnnotations"] = None if ann is None else {k: ann[k] for k in sorted(ann)}
    out["patchedObject"] = r.get("patchedObject")
    return out


def _cmd_admit(args: Sequence[str], stdin: IO[bytes], stdout: IO[bytes], stderr: IO[str]) -> int:
    """cmd/celwasm cmdAdmit: the objects through the admission policies of
    the -f files (Runtime.admit); kubectl's messages or the results as JSON."""
    fs = FlagSet("celwasm admit", stderr, usage=_ADMIT_USAGE)
    files: List[str] = []
    old_files: List[str] = []
    groups: List[str] = []
    opt: Dict[str, Any] = {"operation": "", "user": "", "namespace": "", "compat": "", "o": "text", "engine": "wasmtime"}
    fs.add("f", files.append, "a `file` with policies, bindings, params, namespaces, CRDs and RBAC objects; repeatable", kind="value")
    fs.add("old", old_files.append, "a `file` with the stored objects: an object with the same kind, namespace and name is admitted as an UPDATE of it; repeatable", kind="value")
    fs.add("operation", lambda v: opt.__setitem__("operation", v), "CREATE, UPDATE, DELETE or CONNECT (default CREATE, UPDATE with an old object)")
    fs.add("user", lambda v: opt.__setitem__("user", v), "the requesting user (default kubernetes-admin, groups system:masters and system:authenticated)")
    fs.add("group", groups.append, "a `group` of the user; repeatable", kind="value")
    fs.add("namespace-name", lambda v: opt.__setitem__("namespace", v), 'the namespace of namespaced objects without metadata.namespace (default "default")')
    fs.add("compatibility-version", lambda v: opt.__setitem__("compat", v), "the Kubernetes compatibility `version` of the policies' CEL environment, e.g. 1.36 (default kube-apiserver 1.37's)")
    fs.add("o", lambda v: opt.__setitem__("o", v), "output: text (kubectl's messages) or json", default="text")
    fs.add("engine", lambda v: opt.__setitem__("engine", v), _ENGINE_HELP, default="wasmtime")
    try:
        fs.parse(args)
    except (_Usage, _Help):
        return EXIT_USAGE
    op = opt["operation"].upper()
    if not files or not fs.args:
        stderr.write("celwasm admit: -f and at least one object file are required\n")
        return EXIT_USAGE
    if opt["o"] not in ("text", "json"):
        stderr.write("celwasm admit: -o is text or json\n")
        return EXIT_USAGE
    if op not in _OPERATIONS:
        stderr.write("celwasm admit: --operation %s: want CREATE, UPDATE, DELETE or CONNECT\n" % go_quote_string(opt["operation"]))
        return EXIT_USAGE
    if not _check_engine(stderr, "admit", opt["engine"]):
        return EXIT_USAGE
    ns = opt["namespace"]
    documents: List[bytes] = []
    requests: List[Dict[str, Any]] = []
    items: List[Tuple[Dict[str, Any], str]] = []  # each request's object identity and file
    try:
        for f in files:
            documents += [d for d, _ in _read_objects(f, stdin)]
        olds: Dict[_Key, bytes] = {}
        for f in old_files:
            for d, info in _read_objects(f, stdin):
                k, ok = _key_of(info)
                if ok:
                    olds[k] = d
        for f in fs.args:
            for d, info in _read_objects(f, stdin):
                it: Dict[str, Any] = {"operation": op, "object": d, "namespace": ns}
                k, _ = _key_of(info)
                if op in ("", "UPDATE"):
                    old = olds.get(k)
                    if old is None and k[2] == "":
                        old = olds.get((k[0], k[1], ns or "default", k[3]))
                    if old is not None:
                        it["oldObject"] = old
                if op == "DELETE":
                    it["object"], it["oldObject"] = None, d
                requests.append(it)
                items.append((info, f))
    except _CLIError as e:
        stderr.write("celwasm admit: %s\n" % e)
        return EXIT_USAGE
    try:
        rt = _new_runtime(opt["engine"])
    except (ValueError, CelError) as e:
        return _report(stderr, e)
    request: Dict[str, Any] = {"documents": documents, "requests": requests, "user": opt["user"], "groups": groups, "compatibilityVersion": opt["compat"]}
    with rt:
        try:
            resp = rt.admit(request)
        except CelError as e:
            if e.code not in ("invalid_policy", "bad_request", "invalid_object"):
                return _report(stderr, e)
            stderr.write("error: %s\n" % e.message)
            if isinstance(e, InvalidPolicyError):
                for fe in e.field_errors:
                    stderr.write("* %s: %s\n" % (fe.field, fe.message))
            return EXIT_ERROR if e.code == "invalid_policy" else EXIT_USAGE
    for w in resp.get("warnings") or ():
        stderr.write("Warning: %s\n" % w)
    results: List[Dict[str, Any]] = resp["results"]
    status = EXIT_ERROR if any(not r["allowed"] for r in results) else EXIT_OK
    if opt["o"] == "json":
        stdout.write(_json_out([_admit_result_json(r) for r in results]))
        return status
    out: List[str] = []
    for i, r in enumerate(results):
        info, f = items[i]
        verb = _VERBS[op]
        if op == "" and requests[i].get("oldObject") is not None:
            verb = "configured"
        for w in r.get("warnings") or ():
            stderr.write("Warning: %s\n" % w)
        if not r["allowed"]:
            reason = r.get("reason") or "Forbidden"
            out.append("Error from server (%s): error when %s %s: %s\n" % (reason, _GERUNDS[verb], go_quote_string(f), r.get("message") or ""))
            continue
        out.append("%s %s\n" % (_resource_name(info), verb))
        ann = r.get("auditAnnotations") or {}
        for k in sorted(ann):
            out.append("  audit annotation %s: %s\n" % (k, ann[k]))
        patched = r.get("patchedObject")
        if patched is not None:
            try:
                y = _yaml_out(patched)
            except ValueError:
                continue
            out.append("  mutated by admission to:\n")
            for line in y.rstrip("\n").split("\n"):
                out.append("    " + line + "\n")
    stdout.write("".join(out).encode("utf-8", "surrogateescape"))
    return status


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
