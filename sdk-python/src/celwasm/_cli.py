"""``python -m celwasm``: the Go CLI (cmd/celwasm) in Python, printing the same
bytes for the same arguments.

    python -m celwasm eval -e EXPR [--var NAME=TYPE]... [--k8s-version 1.34] [-i FILE|-]
    python -m celwasm check -e EXPR [--var NAME=TYPE]...
    python -m celwasm version

Exit status: 0 on a result, 1 on a compile or evaluation error, 2 on bad usage.
Flags are parsed as Go's ``flag`` package does (``-x``/``--x``, ``-x=v``,
``-x v``; parsing stops at the first non-flag argument).
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ._errors import CelError, CompileError
from ._gocompat import InputError, go_parse_uint, object_keys, read_documents, select_path
from ._runtime import DEFAULT_COST_LIMIT, Env, Runtime, shared_module
from ._text import format_text

USAGE = """celwasm: CEL (cel-go + the Kubernetes CEL libraries) through WebAssembly

Usage:
  python -m celwasm eval -e EXPR [flags] [-i FILE|-]   evaluate; prints the result as canonical JSON
  python -m celwasm check -e EXPR [flags]              type-check; prints the output type and cost estimate
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
