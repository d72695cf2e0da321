"""The celwasm WebAssembly module on wasmtime-py: loading and caching the
compiled module (:class:`Module`) and the raw ABI of one instance
(:class:`Instance`), as docs/abi.md specifies."""

from __future__ import annotations

import ctypes
import os
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import Any, Callable, List, Optional, Tuple, Union

import wasmtime

from ._errors import InvalidArgumentError, TrapError

__all__ = ["Module", "Instance", "DEFAULT_MEMORY_LIMIT", "default_cache_dir", "wasmtime_version"]

#: Each instance's linear memory cap, in bytes (1 GiB, as the Go host).
DEFAULT_MEMORY_LIMIT = 1 << 30

EXPORTS = (
    "celwasm_alloc",
    "celwasm_dealloc",
    "celwasm_compile",
    "celwasm_eval",
    "celwasm_free",
    "celwasm_version",
    "celwasm_interrupt_flag",
    "celwasm_eval_batch",
    "celwasm_validate",
    "celwasm_cost",
    "celwasm_input",
    "celwasm_eval_activation",
    "celwasm_admit",
)
ALLOC, DEALLOC, COMPILE, EVAL, FREE, VERSION, INTERRUPT_FLAG, EVAL_BATCH, VALIDATE, COST, INPUT, EVAL_ACTIVATION, ADMIT = range(13)
_SIGNATURES: "tuple[tuple[list[str], list[str]], ...]" = (
    (["i32"], ["i32"]),
    (["i32"], []),
    (["i32", "i32"], ["i64"]),
    (["i32", "i32"], ["i64"]),
    (["i32"], ["i32"]),
    ([], ["i64"]),
    ([], ["i32"]),
    (["i32", "i32"], ["i64"]),
    (["i32", "i32"], ["i64"]),
    (["i32", "i32"], ["i64"]),
    (["i32", "i32"], ["i64"]),
    (["i32", "i32", "i32", "i32", "i32"], ["i64"]),
    (["i32", "i32"], ["i64"]),
)
#: celwasm_eval_activation's packed bool result (docs/abi.md): below 2^32,
#: bits 30-31 the value (1 false, 2 true), bits 0-29 the cost.
_SCALAR_FALSE, _SCALAR_TRUE, _SCALAR_COST_MASK = 1, 2, (1 << 30) - 1
_MIN_BUFFER = 64 << 10
_STDERR_TAIL = 2048

# wasmtime-py's Func.__call__ looks the function type up and converts every
# value on each call (~20 µs); the unchecked C entry point with a reusable
# argument array costs ~0.3 µs. It is private API of wasmtime-py, so it is
# feature-detected, the signatures are checked at instantiation, and the
# public path remains the fallback (CELWASM_SLOW_CALLS=1 forces it).
#
# The entry point is called through a function pointer of its own without
# ctypes argtypes: wasmtime-py's binding declares them, and converting five
# arguments through them costs ~0.5 µs a call, more than the call itself.
# Every argument is then a ctypes object of the declared C type (pointers,
# a c_size_t), so nothing is converted; _RAW_ARGTYPES is the declaration
# this relies on, checked against wasmtime-py's.
try:
    from wasmtime import _bindings as _wb
    from wasmtime._ffi import dll as _dll
    from wasmtime._error import WasmtimeError as _WasmtimeError
    from wasmtime._trap import Trap as _Trap

    _RAW_ARGTYPES = [
        ctypes.POINTER(_wb.wasmtime_context_t),
        ctypes.POINTER(_wb.wasmtime_func_t),
        ctypes.POINTER(_wb.wasmtime_val_raw_t),
        ctypes.c_size_t,
        ctypes.POINTER(ctypes.POINTER(_wb.wasm_trap_t)),
    ]
    _declared = _wb._wasmtime_func_call_unchecked
    if list(_declared.argtypes) != _RAW_ARGTYPES or _declared.restype != ctypes.POINTER(_wb.wasmtime_error_t):
        raise AttributeError("wasmtime_func_call_unchecked has another signature")
    if ctypes.sizeof(_wb.wasmtime_val_raw_t) != 16:
        raise AttributeError("wasmtime_val_raw_t is not 16 bytes")
    _raw_call: Any = _dll["wasmtime_func_call_unchecked"]
    _raw_call.restype = ctypes.c_void_p
    _ErrorPtr: Any = ctypes.POINTER(_wb.wasmtime_error_t)
    _TrapPtr: Any = ctypes.POINTER(_wb.wasm_trap_t)
    _ARGS_LEN = [ctypes.c_size_t(n) for n in range(6)]
    _FAST = os.environ.get("CELWASM_SLOW_CALLS", "") in ("", "0")
except (ImportError, AttributeError, TypeError):  # pragma: no cover - other wasmtime-py layouts
    _raw_call = None
    _FAST = False

_wasmtime_version: Optional[str] = None

#: Module's default for ``tier_up``; the CLI sets it to False.
_default_tier_up = True


def wasmtime_version() -> str:
    """The installed wasmtime-py version (it names the cache files: serialized
    code only loads into the same wasmtime)."""
    global _wasmtime_version
    if _wasmtime_version is None:
        try:
            from importlib.metadata import version

            _wasmtime_version = version("wasmtime")
        except Exception:  # pragma: no cover
            _wasmtime_version = "unknown"
    return _wasmtime_version


def _machine() -> str:
    """The machine name in cache file names: platform.machine(), which on
    POSIX is os.uname().machine, read directly there to spare a warm start
    importing platform (~3 ms)."""
    if hasattr(os, "uname"):
        return os.uname().machine.lower() or "unknown"
    import platform

    return platform.machine().lower() or "unknown"


def default_cache_dir() -> Optional[Path]:
    """Where compiled modules are cached: ``$CELWASM_CACHE_DIR`` if set (empty
    disables the cache), else the user cache directory as Go's
    ``os.UserCacheDir`` picks it (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux,
    ``~/Library/Caches`` on macOS, ``%LocalAppData%`` on Windows) +
    ``celwasm/wasmtime-py``."""
    env = os.environ.get("CELWASM_CACHE_DIR")
    if env is not None:
        return Path(env) if env else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        root = Path(base) if base else None
    elif sys.platform == "darwin":
        root = Path.home() / "Library" / "Caches"
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    if root is None:
        return None
    return root / "celwasm" / "wasmtime-py"


#: The modules (RATIONALE.md, "Two modules"): the expression module every
#: Runtime loads; the one that serves every request but admit, loaded only
#: for what the first answers with code ``needs_module`` (CRD validation,
#: Knative's attrs and cesql filters); and the admission module, loaded only
#: for admission policies (``Runtime.admit``).
EXPR_MODULE = "celwasm"
FULL_MODULE = "celwasm-full"
ADMISSION_MODULE = "celwasm-admission"
MODULES = (EXPR_MODULE, FULL_MODULE, ADMISSION_MODULE)
#: The environment variable that names each module's file instead of the packaged one.
_PATH_ENV = {EXPR_MODULE: "CELWASM_WASM", FULL_MODULE: "CELWASM_FULL_WASM", ADMISSION_MODULE: "CELWASM_ADMISSION_WASM"}


def _packaged_module(name: str = EXPR_MODULE) -> Path:
    return Path(__file__).with_name(name + ".wasm")


def packaged_sha256(name: str) -> str:
    """The recorded sha256 of a packaged module ("" when not packaged)."""
    try:
        return _packaged_module(name).with_name(name + ".wasm.sha256").read_text().strip()
    except OSError:
        return ""


def _config(compiler: str) -> wasmtime.Config:
    config = wasmtime.Config()
    if compiler == "winch":
        # wasmtime-py's Config.strategy knows only auto/cranelift; the C
        # API's wasmtime_strategy_t has WINCH = 2 (AUTO 0, CRANELIFT 1).
        wasmtime._ffi.wasmtime_config_strategy_set(config.ptr(), 2)
    else:
        config.cranelift_opt_level = "speed"
    # The interrupt flag is written from a watchdog thread while a call
    # runs, through a pointer into linear memory: the memory must not move
    # (wasmtime reserves the 4 GiB range of a 32-bit memory up front).
    config.memory_may_move = False
    return config


class Module:
    """The celwasm module compiled by wasmtime, ready to instantiate.

    Args:
        path: the ``.wasm`` file; default ``$CELWASM_WASM`` (``$CELWASM_FULL_WASM``
            for ``name="celwasm-full"``, ``$CELWASM_ADMISSION_WASM`` for
            ``name="celwasm-admission"``) or the module shipped in the package.
        name: which module: ``"celwasm"`` (expressions, the default),
            ``"celwasm-full"`` (every request but admit) or
            ``"celwasm-admission"`` (admission policies).
        cache_dir: directory for the serialized compiled module; default
            :func:`default_cache_dir`. ``""`` disables the cache.
        compiler: ``"auto"``, ``"cranelift"`` or ``"winch"``; default
            ``$CELWASM_COMPILER`` or ``"auto"``. ``"cranelift"`` is wasmtime's
            optimising compiler: 15–30 s for this module on two cores when
            nothing is cached. ``"winch"`` is its baseline compiler: about 3 s,
            code about 20% slower, a cache file of about the same size.
            ``"auto"`` uses cached Cranelift code when there is some;
            otherwise Winch code (cached, or compiled in ~3 s), while a
            background thread compiles Cranelift code on one core, caches it
            and puts it in place (:attr:`compiler` becomes ``"cranelift"``,
            :attr:`generation` grows): instances made after that run it, and a
            :class:`Runtime` replaces its older instances as they come back to
            its pool. Each compiler has its own cache file.
        tier_up: with ``"auto"``, whether to start that background
            compilation; default True, unless the process turned it off
            (the CLI does: a process that ends after one command would not
            live to use the code).
        on_compile: called once, before compiling in the foreground, when
            nothing usable is cached (a first run: ~3 s with Winch, 15–60 s
            with Cranelift), with the cache directory the compiled code will
            be written to (None: caching is off). The CLI prints its progress
            line from it.

    A cached copy (serialized wasmtime code, ~70 MB, keyed by the module's
    sha256, the wasmtime version, the machine and the compiler) loads in a
    few tens of milliseconds. Cache files are written atomically (temporary
    file + rename); a file that does not load (another wasmtime, truncated,
    other engine settings) is compiled again and replaced. Once the
    Cranelift code is cached, the Winch file is removed.

    Attributes:
        sha256: hex sha256 of the module bytes.
        path: the module file.
        compiler: the compiler of the code instances are made from now.
        generation: incremented each time the code in use is replaced.
        cache_path: the cache file of the code in use, or None when caching
            is off.
        from_cache: whether the code first used came from the cache.
        load_seconds: time spent compiling or deserializing before the
            module was ready.

    Raises:
        TrapError: the module cannot be read or compiled.
        InvalidArgumentError: an unknown ``name`` or ``compiler``.
    """

    def __init__(
        self,
        path: Union[str, "os.PathLike[str]", None] = None,
        *,
        name: str = EXPR_MODULE,
        cache_dir: Union[str, "os.PathLike[str]", None] = None,
        compiler: Optional[str] = None,
        on_compile: Optional[Callable[[Optional[Path]], None]] = None,
        tier_up: Optional[bool] = None,
    ) -> None:
        t0 = time.perf_counter()
        if compiler is None:
            compiler = os.environ.get("CELWASM_COMPILER") or "auto"
        if compiler not in ("auto", "cranelift", "winch"):
            raise InvalidArgumentError("compiler must be 'auto', 'cranelift' or 'winch', not %r" % (compiler,))
        if name not in MODULES:
            raise InvalidArgumentError("name must be %r, %r or %r, not %r" % (EXPR_MODULE, FULL_MODULE, ADMISSION_MODULE, name))
        self.name: str = name
        if path is None:
            env = os.environ.get(_PATH_ENV[name])
            path = env if env else _packaged_module(name)
        self.path = Path(path)
        wasm: Optional[bytes] = None
        sha_file = self.path.with_name(self.path.name + ".sha256")
        sha = ""
        if self.path == _packaged_module(name) and sha_file.exists():
            # Shipped next to the packaged module by the build; saves reading
            # and hashing the module when the cache hits.
            sha = sha_file.read_text().strip()
        if len(sha) != 64:
            wasm = self._read()
            import hashlib  # here: only a module without its recorded sha256 needs it

            sha = hashlib.sha256(wasm).hexdigest()
        self.sha256: str = sha

        cdir: Optional[Path]
        if cache_dir is None:
            cdir = default_cache_dir()
        else:
            cdir = Path(cache_dir) if str(cache_dir) else None
        self._cache_dir = cdir
        self._lock = threading.Lock()
        self.generation: int = 0
        self._tiered = threading.Event()

        # What to try, in order: (compiler, may it come only from the cache).
        if compiler == "auto":
            tries = [("cranelift", True), ("winch", False)]
        else:
            tries = [(compiler, False)]
        self.from_cache = False
        self.cache_path: Optional[Path] = None
        mod: Optional[wasmtime.Module] = None
        engine: Optional[wasmtime.Engine] = None
        for c, cache_only in tries:
            cached = self._cached_files(c)
            if cache_only and not cached:
                continue  # no engine for a compiler whose code is not cached
            engine = wasmtime.Engine(_config(c))
            for cpath in cached:
                try:
                    mod = wasmtime.Module.deserialize_file(engine, str(cpath))
                except Exception:
                    continue  # another wasmtime or other settings: wasmtime refuses it
                self.from_cache = True
                self.cache_path = cpath
                try:
                    os.utime(cpath)  # marks it in use (see _prune)
                except OSError:
                    pass
                break
            if mod is None and not cache_only:
                if wasm is None:
                    wasm = self._read()
                if on_compile is not None:
                    on_compile(cdir)
                try:
                    mod = wasmtime.Module(engine, wasm)
                except Exception as e:
                    raise TrapError("compile module %s: %s" % (self.path, e)) from None
                self.cache_path = self._cache_file(c)
                if self.cache_path is not None:
                    _write_atomic(self.cache_path, mod)
                    _prune(self.cache_path, keep_modules=tuple(packaged_sha256(m) for m in MODULES), version=wasmtime_version())
            if mod is not None:
                self.compiler: str = c
                break
        assert mod is not None and engine is not None
        self.engine = engine
        self.module: wasmtime.Module = mod
        self.linker = wasmtime.Linker(engine)
        self.linker.define_wasi()
        self.load_seconds: float = time.perf_counter() - t0
        if tier_up is None:
            tier_up = _default_tier_up
        if compiler == "auto" and self.compiler == "winch" and tier_up:
            threading.Thread(target=self._tier_up, name="celwasm-cranelift", daemon=True).start()
        else:
            self._tiered.set()

    def _read(self) -> bytes:
        try:
            return self.path.read_bytes()
        except OSError as e:
            raise TrapError("read module %s: %s" % (self.path, e)) from None

    def _cache_file(self, compiler: str, version: Optional[str] = None) -> Optional[Path]:
        if self._cache_dir is None:
            return None
        machine = _machine()
        suffix = "-winch" if compiler == "winch" else ""
        return self._cache_dir / ("%s-wasmtime-%s-%s%s.cwasm" % (self.sha256, version or wasmtime_version(), machine, suffix))

    def _cached_files(self, compiler: str) -> List[Path]:
        """This module's cache files for ``compiler`` from any wasmtime
        version, most recently used first. wasmtime refuses code that another
        version or other settings compiled, so finding them this way spares
        a warm start the ~25 ms importlib.metadata takes to tell the
        installed wasmtime's version; that is needed only to name a file."""
        pattern = self._cache_file(compiler, version="*")
        if pattern is None:
            return []
        found = []
        try:
            for p in pattern.parent.glob(pattern.name):
                try:
                    found.append((p.stat().st_mtime, p))
                except OSError:
                    pass  # removed meanwhile
        except OSError:
            return []
        return [p for _, p in sorted(found, key=lambda t: t[0], reverse=True)]

    def _tier_up(self) -> None:
        """Compiles the Cranelift code on one core, caches it and puts it in
        place of the Winch code (compiler "auto"). On any failure the Winch
        code stays."""
        try:
            import hashlib

            wasm = self._read()
            if hashlib.sha256(wasm).hexdigest() != self.sha256:
                return  # the file changed since it was loaded
            config = _config("cranelift")
            config.parallel_compilation = False  # leave the other cores to the caller
            engine = wasmtime.Engine(config)
            mod = wasmtime.Module(engine, wasm)
            cpath = self._cache_file("cranelift")
            if cpath is not None:
                _write_atomic(cpath, mod)
                winch = self.cache_path  # the Winch code this module started on
                if winch is not None and winch != cpath and cpath.exists():
                    try:
                        winch.unlink()
                    except OSError:
                        pass
            linker = wasmtime.Linker(engine)
            linker.define_wasi()
            with self._lock:
                self.engine, self.module, self.linker = engine, mod, linker
                self.compiler, self.cache_path = "cranelift", cpath
                self.generation += 1
        except Exception:
            pass
        finally:
            self._tiered.set()

    def wait_tier_up(self, timeout: Optional[float] = None) -> bool:
        """Waits until no background compilation is left (compiler "auto"
        after a Winch start; otherwise at once) and tells whether the code in
        use is Cranelift's. ``timeout`` in seconds, None: no limit."""
        self._tiered.wait(timeout)
        return self.compiler == "cranelift"

    def instantiate(self, *, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> "Instance":
        """A fresh, initialised instance (see :class:`Instance`)."""
        return Instance(self, memory_limit=memory_limit)

    def __repr__(self) -> str:
        return "<celwasm.Module %s %s sha256=%s from_cache=%s>" % (self.name, self.path, self.sha256[:12], self.from_cache)

    @property
    def size(self) -> int:
        """The module file's size in bytes."""
        return self.path.stat().st_size


def _write_atomic(path: Path, mod: wasmtime.Module) -> None:
    try:
        data = mod.serialize()
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except Exception:
        pass  # the cache is an optimisation: a read-only home still works


def _prune(keep: Path, *, keep_modules: "tuple[str, ...]", version: str, unused_for: float = 3600.0) -> None:
    """Removes other modules' cache files (~75 MB each) not used for an hour,
    except those the packaged modules (``keep_modules``, sha256 hex: the
    other modules of this release are loaded only when needed) compiled with
    this wasmtime (``version``): wasmtime refuses code of another version, so
    after an upgrade those files are dead weight. A process that has one
    mapped keeps its copy (POSIX unlink semantics; on Windows the removal
    fails and is ignored)."""
    now = time.time()
    kept = tuple(k for k in keep_modules if k)
    this_wasmtime = "-wasmtime-%s-" % version

    def packaged(name: str) -> bool:
        return name.startswith(kept) and this_wasmtime in name

    try:
        for p in keep.parent.glob("*.cwasm"):
            if p.name != keep.name and not packaged(p.name) and now - p.stat().st_mtime > unused_for:
                try:
                    p.unlink()
                except OSError:
                    pass
    except OSError:
        pass


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class Instance:
    """One instance of the module: the raw ABI of docs/abi.md.

    Single threaded: one call at a time (``interrupt`` excepted, which any
    thread may call). Requests and responses are the module's UTF-8 JSON bytes.
    After a trap (``TrapError``) the instance is dead; make a new one.

    Args:
        module: the compiled module.
        memory_limit: cap on linear memory in bytes; growing past it fails
            inside the guest (Go: out of memory), which traps.
    """

    def __init__(self, module: Module, *, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> None:
        self.dead = False
        self.module = module
        fd, self._stderr_path = tempfile.mkstemp(prefix="celwasm-stderr-")
        os.close(fd)
        self._finalizer = weakref.finalize(self, _remove, self._stderr_path)
        with module._lock:
            engine, wmod, linker, gen = module.engine, module.module, module.linker, module.generation
        #: the module's generation whose code this instance runs.
        self.generation: int = gen
        store = wasmtime.Store(engine)
        self._store = store
        try:
            wasi = wasmtime.WasiConfig()
            # klog reads os.Args[0] during package initialisation.
            wasi.argv = ["celwasm"]
            # A file, not stderr_custom: a Python callback registered with
            # wasmtime's WASI makes libwasmtime panic at interpreter exit.
            wasi.stderr_file = self._stderr_path
            store.set_wasi(wasi)
            if memory_limit and memory_limit > 0:
                store.set_limits(memory_size=memory_limit)
            with module._lock:
                inst = linker.instantiate(store, wmod)
            exports = inst.exports(store)
            init = exports["_initialize"]
            assert isinstance(init, wasmtime.Func)
            init(store)
            funcs: List[wasmtime.Func] = []
            fast = _FAST
            for name, (params, results) in zip(EXPORTS, _SIGNATURES):
                f = exports[name]
                if not isinstance(f, wasmtime.Func):
                    raise TrapError("module export %s is not a function" % name)
                ty = f.type(store)
                if [str(p) for p in ty.params] != params or [str(r) for r in ty.results] != results:
                    raise TrapError("module export %s has an unexpected signature" % name)
                funcs.append(f)
            mem = exports["memory"]
            if not isinstance(mem, wasmtime.Memory):
                raise TrapError("module exports no memory")
        except TrapError:
            self._close_store()
            raise
        except Exception as e:
            msg = "instantiate: %s%s" % (e, self._stderr_suffix())
            self._close_store()
            raise TrapError(msg) from None
        self._funcs = funcs
        self._mem = mem
        self._base = ctypes.addressof(mem.data_ptr(store).contents)
        self._mem_len = 0
        self._mem_view = memoryview(b"")
        self._refresh_memory()
        self._fast = fast
        if fast:
            self._ctx = store._context()
            self._frefs = [ctypes.byref(f._func) for f in funcs]
            # Five 16-byte wasmtime_val_raw_t; arguments are stored and the
            # result read through integer views of the same bytes.
            self._args = (_wb.wasmtime_val_raw_t * 5)()
            self._a32 = (ctypes.c_uint32 * 20).from_buffer(self._args)
            self._a64 = (ctypes.c_uint64 * 10).from_buffer(self._args)
            self._trap = _TrapPtr()
            self._trap_ref = ctypes.byref(self._trap)
        self._buf = 0
        self._buf_cap = 0
        flag = self._call(INTERRUPT_FLAG)
        if flag % 4 != 0 or flag + 4 > self._mem_len:
            self.close()
            raise TrapError("interrupt flag at a bad address %d" % flag)
        self._flag = ctypes.c_uint32.from_address(self._base + flag)

    # --- raw calls -------------------------------------------------------

    def _call(self, idx: int, a: int = 0, b: int = 0) -> int:
        """Calls an export with i32 arguments; returns its result zero-extended
        (0 for none). Raises TrapError (and marks the instance dead)."""
        if self.dead:
            raise TrapError("instance is dead")
        if self._fast:
            a32 = self._a32
            a32[0] = a
            a32[4] = b
            err = _raw_call(self._ctx, self._frefs[idx], self._args, _ARGS_LEN[2], self._trap_ref)
            if err or self._trap:
                self._fail_raw(err)
            res = _SIGNATURES[idx][1]
            if not res:
                return 0
            if res[0] == "i64":
                return self._a64[0]
            return a32[0]
        nparams = len(_SIGNATURES[idx][0])
        params = (a, b)[:nparams]
        params = tuple(x - (1 << 32) if x >= 1 << 31 else x for x in params)
        try:
            r = self._funcs[idx](self._store, *params)
        except Exception as e:
            self._die("%s: %s" % (EXPORTS[idx], e))
        if r is None:
            return 0
        return int(r) & (0xFFFFFFFFFFFFFFFF if _SIGNATURES[idx][1][0] == "i64" else 0xFFFFFFFF)

    def _fail_raw(self, err: Optional[int]) -> None:
        if err:
            e: Exception = _WasmtimeError._from_ptr(ctypes.cast(err, _ErrorPtr))
        else:
            e = _Trap._from_ptr(self._trap)
            self._trap = _TrapPtr()
            self._trap_ref = ctypes.byref(self._trap)
        try:
            text = str(e.message) if hasattr(e, "message") else str(e)
        except Exception:
            text = type(e).__name__
        self._die(text)

    def _die(self, what: str) -> None:
        # The store stays open until close(): a watchdog may still hold the
        # interrupt flag's address until the caller disarms it.
        self.dead = True
        first = what.strip().splitlines()[0] if what.strip() else what
        fatal, tail = self._stderr_info()
        msg = "wasmtime instance failed and was replaced: %s" % first
        if fatal:
            msg += "; guest: %s" % fatal
        raise TrapError(msg, details="%s\n--- guest stderr (tail) ---\n%s" % (what, tail))

    def _stderr_info(self) -> "tuple[str, str]":
        """The Go runtime's "fatal error: ..."/"panic: ..." line, if any, and
        the last 2 KiB of the guest's stderr."""
        try:
            with open(self._stderr_path, "rb") as f:
                head = f.read(64 << 10)
                f.seek(0, os.SEEK_END)
                size = f.tell()
                f.seek(max(0, size - _STDERR_TAIL))
                tail = f.read()
        except OSError:
            return "", ""
        fatal = ""
        for line in head.splitlines():
            if line.startswith((b"fatal error:", b"panic:", b"runtime: out of memory")):
                fatal = line.decode("utf-8", "replace").strip()
                break
        return fatal, tail.decode("utf-8", "replace")

    def _stderr_suffix(self) -> str:
        fatal, tail = self._stderr_info()
        if fatal:
            return "; guest: %s" % fatal
        tail = tail.strip()
        return "; guest stderr: %r" % tail[-300:] if tail else ""

    def request(self, idx: int, payload: bytes) -> bytes:
        """Writes ``payload`` into the instance's request buffer, calls the
        export ``idx`` (``COMPILE``, ``EVAL``, ``EVAL_BATCH``, ``VALIDATE``, ``COST``, ``INPUT`` or ``ADMIT``) and returns a copy of the
        response bytes. Clears the interrupt flag first."""
        if self.dead:
            raise TrapError("instance is dead")
        n = len(payload)
        if n > self._buf_cap:
            self._grow(n)
        if self._buf + n > self._mem_len:
            self._die("request buffer outside guest memory")
        self._mem_view[self._buf : self._buf + n] = payload
        self._flag.value = 0
        if not self._fast:
            return self._read(self._call(idx, self._buf, n))
        # The fast path of _call, inlined: this is every evaluation.
        a32 = self._a32
        a32[0] = self._buf
        a32[4] = n
        err = _raw_call(self._ctx, self._frefs[idx], self._args, _ARGS_LEN[2], self._trap_ref)
        if err or self._trap:
            self._fail_raw(err)
        r = self._a64[0]
        ptr = r >> 32
        size = r & 0xFFFFFFFF
        if ptr + size > self._mem_len:
            self._refresh_memory()
            if ptr + size > self._mem_len:
                self._die("response [%d, +%d) outside guest memory" % (ptr, size))
        return self._mem_view[ptr : ptr + size].tobytes()

    def eval_activation(self, handle: int, cost_limit: int, activation: bytes) -> "Union[bytes, Tuple[bool, int]]":
        """``celwasm_eval_activation``: the activation object's JSON bytes
        alone, the handle and cost limit (0: the default) as arguments.
        Returns ``(value, cost)`` for a bool result the module packed into
        the return value, else the eval response bytes."""
        if self.dead:
            raise TrapError("instance is dead")
        n = len(activation)
        if n > self._buf_cap:
            self._grow(n)
        if self._buf + n > self._mem_len:
            self._die("request buffer outside guest memory")
        self._mem_view[self._buf : self._buf + n] = activation
        self._flag.value = 0
        lo, hi = cost_limit & 0xFFFFFFFF, cost_limit >> 32
        if self._fast:
            a32 = self._a32
            a32[0] = handle
            a32[4] = lo
            a32[8] = hi
            a32[12] = self._buf
            a32[16] = n
            err = _raw_call(self._ctx, self._frefs[EVAL_ACTIVATION], self._args, _ARGS_LEN[5], self._trap_ref)
            if err or self._trap:
                self._fail_raw(err)
            r = self._a64[0]
        else:
            params = tuple(x - (1 << 32) if x >= 1 << 31 else x for x in (handle, lo, hi, self._buf, n))
            try:
                r = int(self._funcs[EVAL_ACTIVATION](self._store, *params)) & 0xFFFFFFFFFFFFFFFF
            except Exception as e:
                self._die("celwasm_eval_activation: %s" % e)
        if 0 < r < 1 << 32:
            kind = r >> 30
            if kind == _SCALAR_TRUE:
                return True, r & _SCALAR_COST_MASK
            if kind == _SCALAR_FALSE:
                return False, r & _SCALAR_COST_MASK
            self._die("celwasm_eval_activation returned a malformed result %#x" % r)
        return self._read(r)

    def _refresh_memory(self) -> None:
        """Reads the linear memory's length again (it grows during calls) and
        makes the byte view requests are written to and responses read from:
        slicing a memoryview costs a fifth of a ctypes memmove/string_at
        call. The memory's host address is fixed for the instance's life."""
        n = self._mem.data_len(self._store)
        if n != self._mem_len:
            self._mem_len = n
            self._mem_view = memoryview((ctypes.c_ubyte * n).from_address(self._base)).cast("B")

    def _grow(self, n: int) -> None:
        if n > 0xFFFFFFFF:
            raise InvalidArgumentError("request larger than 4 GiB")
        cap = max(n, 2 * self._buf_cap, _MIN_BUFFER)
        if cap > 0xFFFFFFFF:
            cap = n
        if self._buf_cap:
            self._buf_cap = 0
            self._call(DEALLOC, self._buf)
        ptr = self._call(ALLOC, cap)
        self._buf, self._buf_cap = ptr, cap
        self._refresh_memory()

    def _read(self, r: int) -> bytes:
        ptr, size = r >> 32, r & 0xFFFFFFFF
        if ptr + size > self._mem_len:
            self._refresh_memory()
            if ptr + size > self._mem_len:
                self._die("response [%d, +%d) outside guest memory" % (ptr, size))
        return self._mem_view[ptr : ptr + size].tobytes()

    def compile(self, request: bytes) -> bytes:
        """``celwasm_compile``: compile request JSON → response JSON."""
        return self.request(COMPILE, request)

    def eval(self, request: bytes) -> bytes:
        """``celwasm_eval``: eval request JSON → response JSON."""
        return self.request(EVAL, request)

    def eval_batch(self, request: bytes) -> bytes:
        """``celwasm_eval_batch``: header line + NDJSON items → one response line per item."""
        return self.request(EVAL_BATCH, request)

    def validate(self, request: bytes) -> bytes:
        """``celwasm_validate``: validate request JSON → response JSON."""
        return self.request(VALIDATE, request)

    def cost(self, request: bytes) -> bytes:
        """``celwasm_cost``: cost request JSON → response JSON."""
        return self.request(COST, request)

    def input(self, request: bytes) -> bytes:
        """``celwasm_input``: a header line and a file's bytes → a header line
        and one line per document, object, event, key or text (docs/abi.md,
        "input")."""
        return self.request(INPUT, request)

    def admit(self, request: bytes) -> bytes:
        """``celwasm_admit``: admit request JSON → response JSON (docs/abi.md,
        "admit"; only celwasm-admission serves it)."""
        return self.request(ADMIT, request)

    def free(self, handle: int) -> bool:
        """``celwasm_free``: releases a program handle; True if it was known."""
        return self._call(FREE, handle) == 1

    def version(self) -> bytes:
        """``celwasm_version``: the version JSON."""
        return self._read(self._call(VERSION))

    def interrupt(self) -> None:
        """Stores 1 in the interrupt flag: the running evaluation stops with
        ``canceled`` at its next CEL function call. Safe from any thread (an
        aligned 32-bit store into memory that does not move)."""
        if not self.dead:
            self._flag.value = 1

    @property
    def memory_size(self) -> int:
        """The linear memory's current size in bytes."""
        if self.dead:
            return 0
        return self._mem.data_len(self._store)

    @property
    def memory_base(self) -> int:
        """The linear memory's host address (fixed for the instance's life)."""
        if self.dead:
            return 0
        return ctypes.addressof(self._mem.data_ptr(self._store).contents)

    def _close_store(self) -> None:
        store = getattr(self, "_store", None)
        if store is not None:
            self._store = None  # type: ignore[assignment]
            try:
                store.close()
            except Exception:  # pragma: no cover
                pass
        self._finalizer()

    def close(self) -> None:
        """Releases the instance (its store and memory)."""
        self.dead = True
        self._close_store()

