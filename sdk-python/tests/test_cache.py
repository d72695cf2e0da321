"""The compiled-module cache: keyed by the module's sha256, the wasmtime version
and the machine; written atomically; a bad file is compiled again."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import wasmtime

import celwasm
from celwasm import Module
from celwasm._module import _machine, default_cache_dir, packaged_sha256, wasmtime_version

# A small module: the cache logic is the same for it, and it compiles in
# milliseconds (the real one takes 15-30 s).
TINY = wasmtime.wat2wasm('(module (func (export "f") (result i32) i32.const 42))')


def test_cache_miss_then_hit_then_corrupt(tmp_path: Path) -> None:
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(TINY)
    cache = tmp_path / "cache"
    m1 = Module(wasm, cache_dir=cache, compiler="cranelift")
    sha = hashlib.sha256(TINY).hexdigest()
    assert m1.sha256 == sha and not m1.from_cache
    assert m1.cache_path is not None and m1.cache_path.exists()
    assert m1.cache_path.parent == cache
    assert sha in m1.cache_path.name and wasmtime_version() in m1.cache_path.name
    assert [p.name for p in cache.iterdir()] == [m1.cache_path.name]  # no temporary files left

    m2 = Module(wasm, cache_dir=cache, compiler="cranelift")
    assert m2.from_cache

    # Replace the file (a new inode, as the cache itself does: wasmtime maps
    # the file, so it must never be truncated in place while in use).
    bad = cache / "bad"
    bad.write_bytes(b"not a serialized module")
    os.replace(bad, m1.cache_path)
    m3 = Module(wasm, cache_dir=cache, compiler="cranelift")
    assert not m3.from_cache
    assert Module(wasm, cache_dir=cache, compiler="cranelift").from_cache  # rewritten


def test_cache_file_of_another_wasmtime_is_passed_over(tmp_path: Path) -> None:
    # A warm start finds cache files by pattern, whatever wasmtime version
    # names them, and lets wasmtime refuse code it did not compile.
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(TINY)
    cache = tmp_path / "cache"
    m1 = Module(wasm, cache_dir=cache, compiler="cranelift")
    assert m1.cache_path is not None
    other = cache / m1.cache_path.name.replace("-wasmtime-%s-" % wasmtime_version(), "-wasmtime-0.0.1-")
    assert other != m1.cache_path
    other.write_bytes(b"code of another wasmtime")
    os.utime(m1.cache_path, (1, 1))  # the other file is the most recently used
    m2 = Module(wasm, cache_dir=cache, compiler="cranelift")
    assert m2.from_cache and m2.cache_path == m1.cache_path
    assert other.exists()  # another virtualenv's wasmtime may still use it


def test_cache_disabled(tmp_path: Path) -> None:
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(TINY)
    m = Module(wasm, cache_dir="")
    assert m.cache_path is None and not m.from_cache


def test_unwritable_cache_dir_still_works(tmp_path: Path) -> None:
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(TINY)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    m = Module(wasm, cache_dir=blocker / "sub")  # cannot be created
    assert not m.from_cache


def test_default_cache_dir_follows_xdg(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CELWASM_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert default_cache_dir() == tmp_path / "celwasm" / "wasmtime-py"
    monkeypatch.setenv("CELWASM_CACHE_DIR", str(tmp_path / "x"))
    assert default_cache_dir() == tmp_path / "x"
    monkeypatch.setenv("CELWASM_CACHE_DIR", "")
    assert default_cache_dir() is None


def test_second_process_loads_the_real_module_from_the_cache(module: celwasm.Module) -> None:
    # This process compiled (or loaded) the packaged module with the default
    # cache; a new process must deserialize it rather than compile.
    if module.cache_path is None:
        return
    code = (
        "import celwasm, json;"
        "rt = celwasm.default_runtime();"
        "v = celwasm.Env({'x': 'int'}).compile('x * 2').evaluate({'x': 21});"
        "print(json.dumps([rt.module.from_cache, v, rt.module.load_seconds]))"
    )
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300, check=True)
    from_cache, value, seconds = __import__("json").loads(out.stdout)
    assert from_cache is True and value == 42
    assert seconds < 10


def test_other_modules_unused_for_an_hour_are_pruned(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    old, recent = cache / ("0" * 64 + "-old.cwasm"), cache / ("1" * 64 + "-recent.cwasm")
    old.write_bytes(b"x")
    recent.write_bytes(b"y")
    os.utime(old, (0, 0))
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(TINY)
    m = Module(wasm, cache_dir=cache, compiler="cranelift")  # a compile writes, then prunes
    assert m.cache_path is not None and m.cache_path.exists()
    assert not old.exists() and recent.exists()


def test_packaged_modules_code_of_another_wasmtime_is_pruned(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    sha = packaged_sha256("celwasm-full")
    machine = _machine()
    ours = cache / ("%s-wasmtime-%s-%s.cwasm" % (sha, wasmtime_version(), machine))
    older = cache / ("%s-wasmtime-0.0.1-%s.cwasm" % (sha, machine))
    for p in (ours, older):
        p.write_bytes(b"x")
        os.utime(p, (0, 0))
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(TINY)
    Module(wasm, cache_dir=cache, compiler="cranelift")  # a compile writes, then prunes
    assert ours.exists()  # the packaged module's code for this wasmtime stays, however old
    assert not older.exists()  # code no wasmtime of this install can load goes


def test_winch_has_its_own_cache_file(tmp_path: Path, monkeypatch) -> None:
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(TINY)
    cache = tmp_path / "cache"
    c = Module(wasm, cache_dir=cache, compiler="cranelift")
    w = Module(wasm, cache_dir=cache, compiler="winch")
    assert c.compiler == "cranelift" and w.compiler == "winch" and not w.from_cache
    assert w.cache_path is not None and w.cache_path.name.endswith("-winch.cwasm") and w.cache_path != c.cache_path
    assert w.cache_path.exists() and c.cache_path is not None
    assert w.cache_path.read_bytes() != c.cache_path.read_bytes()  # another compiler's code
    monkeypatch.setenv("CELWASM_COMPILER", "winch")
    again = Module(wasm, cache_dir=cache)
    assert again.compiler == "winch" and again.from_cache and again.cache_path == w.cache_path
    try:
        Module(wasm, cache_dir=cache, compiler="llvm")
    except celwasm.InvalidArgumentError:
        pass
    else:
        raise AssertionError("an unknown compiler was accepted")


def test_auto_starts_with_winch_and_tiers_up_to_cranelift(tmp_path: Path) -> None:
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(TINY)
    cache = tmp_path / "cache"
    # tier_up=True: the CLI tests that run in this process turn the default off.
    m = Module(wasm, cache_dir=cache, compiler="auto", tier_up=True)
    assert not m.from_cache
    winch = cache / ("%s-wasmtime-%s-%s-winch.cwasm" % (m.sha256, wasmtime_version(), os.uname().machine.lower()))
    assert m.wait_tier_up(timeout=120)  # Cranelift code in place
    assert m.compiler == "cranelift" and m.generation == 1
    assert m.cache_path is not None and m.cache_path.exists() and not m.cache_path.name.endswith("-winch.cwasm")
    assert not winch.exists()  # the Winch file goes once Cranelift's is cached
    # A later process finds the Cranelift code: no Winch, no background work.
    again = Module(wasm, cache_dir=cache, compiler="auto")
    assert again.from_cache and again.compiler == "cranelift" and again.generation == 0
    assert again.wait_tier_up(timeout=0)


def test_auto_loads_cached_winch_code_then_tiers_up(tmp_path: Path) -> None:
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(TINY)
    cache = tmp_path / "cache"
    w = Module(wasm, cache_dir=cache, compiler="winch")
    assert w.cache_path is not None and w.cache_path.exists()
    m = Module(wasm, cache_dir=cache, compiler="auto", tier_up=True)
    assert m.from_cache  # the Winch file, with no foreground compilation
    assert m.wait_tier_up(timeout=120) and m.compiler == "cranelift" and m.generation == 1
    assert not w.cache_path.exists()


def test_auto_without_tier_up_stays_on_winch(tmp_path: Path) -> None:
    wasm = tmp_path / "tiny.wasm"
    wasm.write_bytes(TINY)
    cache = tmp_path / "cache"
    m = Module(wasm, cache_dir=cache, compiler="auto", tier_up=False)
    assert m.compiler == "winch" and not m.wait_tier_up(timeout=0) and m.generation == 0
    assert [p.name for p in cache.iterdir()] == [m.cache_path.name] if m.cache_path else True


def test_runtime_replaces_instances_of_older_code(module: celwasm.Module) -> None:
    # After a tier-up the module's generation grows; the Runtime's pooled
    # instances still run the old code and are replaced as they come back,
    # with their programs compiled again in the new instance.
    m = Module(module.path, cache_dir=module.cache_path.parent if module.cache_path else "", compiler="cranelift")
    rt = celwasm.Runtime(instances=1, module=m)
    try:
        prg = rt.env({"x": "int"}).compile("x * 2")
        assert prg.evaluate({"x": 21}) == 42
        first = rt._live
        with m._lock:
            m.generation += 1  # what _tier_up does after swapping the code
        assert prg.evaluate({"x": 4}) == 8  # runs on the old instance, which then goes
        assert rt._live == ()
        assert prg.evaluate({"x": 5}) == 10  # a new instance, the program compiled again
        assert len(rt._live) == 1 and rt._live[0] is not first[0]
        assert rt._live[0].instance.generation == m.generation
    finally:
        rt.close()


def test_a_process_may_exit_during_the_background_compilation(module: celwasm.Module, tmp_path: Path) -> None:
    # The real module on an empty cache: Winch code first, Cranelift being
    # compiled in a daemon thread when the interpreter exits.
    code = (
        "import celwasm, json, sys;"
        "m = celwasm.Module(sys.argv[1], cache_dir=sys.argv[2], compiler='auto');"
        "rt = celwasm.Runtime(instances=1, module=m);"
        "v = rt.env({'x': 'int'}).compile('x * 2').evaluate({'x': 21});"
        "print(json.dumps([m.compiler, m.from_cache, v]))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(module.path), str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert __import__("json").loads(out.stdout) == ["winch", False, 42]
    assert "panic" not in out.stderr.lower() and "fatal" not in out.stderr.lower(), out.stderr


def test_winch_compiles_the_real_module_to_the_same_results(module: celwasm.Module, tmp_path: Path) -> None:
    # Winch (wasmtime's baseline compiler) compiles the real module several
    # times faster than Cranelift; the results must be the same bytes.
    w = Module(module.path, cache_dir=tmp_path, compiler="winch")
    cases = [
        ({"self": "map(string, dyn)"}, "self.items.all(i, i.name.startsWith('a')) && quantity(self.q).isLessThan(quantity('1Gi'))",
         {"self": {"q": "768Mi", "items": [{"name": "a%d" % i} for i in range(20)]}}),
        ({"x": "dyn"}, "x.map(k, x[k] * 2)", {"x": {"b": 1, "a": 2}}),
        ({"s": "string"}, "format.dns1123Label().validate(s).hasValue()", {"s": "Not_A-Label-"}),
    ]
    rw, rc = celwasm.Runtime(instances=1, module=w), celwasm.Runtime(instances=1, module=module)
    try:
        for decls, expr, act in cases:
            a = rw.env(decls).compile(expr).eval(act)
            b = rc.env(decls).compile(expr).eval(act)
            assert (a.json, a.cost) == (b.json, b.cost), expr
    finally:
        rw.close()
        rc.close()
