"""The celwasm Extism plugin through Extism's Python SDK (extism + extism-sys,
wasmtime inside): bad input, the manifest's timeout_ms and memory.max_pages,
a trap inside the plugin. The host survives each, and a fresh plugin works.

    CELWASM_EXTISM_PLUGIN=build/celwasm-extism.wasm python -m unittest test_sdk
"""

from __future__ import annotations

import json
import os
import time
import unittest
from pathlib import Path

import extism
from extism.extism import CompiledPlugin

from conformance import ROOT, Instance, manifest

PLUGIN = Path(os.environ.get("CELWASM_EXTISM_PLUGIN", ROOT / "build" / "celwasm-extism.wasm"))

LIST_ENV = '"env":{"variables":[{"name":"l","type":"list(int)"}]}'
# A billion iterations, no allocation: runs until stopped.
LONG = '{"expression":"l.all(x, l.all(y, l.all(z, true)))",%s}' % LIST_ENV
# Nine million list elements: hundreds of MiB.
HOG = '{"expression":"l.map(x, l.map(y, y))",%s}' % LIST_ENV
NO_LIMIT = '"costLimit":18446744073709551615'


def lst(n: int) -> str:
    return json.dumps(list(range(n)), separators=(",", ":"))


def handle(p: extism.Plugin, req: str) -> int:
    out = json.loads(p.call("compile", req))
    assert "program" in out, out
    return int(out["program"])


class SDKTest(unittest.TestCase):
    def works(self, p: extism.Plugin) -> None:
        h = handle(p, '{"expression":"x + 1 == 2","env":{"variables":[{"name":"x","type":"int"}]}}')
        self.assertEqual(p.call("eval", '{"program":%d,"activation":{"x":1}}' % h), b'{"value":true,"cost":3}')

    def test_bad_input(self) -> None:
        p = extism.Plugin(CompiledPlugin(manifest(PLUGIN), wasi=True))
        for export, req, code in [
            ("compile", b'{"expression":', "bad_request"),
            ("compile", b'{"expression":"\'\xff\'"}', "bad_request"),
            ("compile", b'{"expression":1}', "bad_request"),
            ("compile", b'{"expression":"x +"}', "compile_error"),
            ("compile", b'{"expression":"1","env":{"extensions":["nope"]}}', "invalid_env"),
            ("eval", b'{"program":999}', "unknown_program"),
            ("eval", b"[]", "bad_request"),
            ("eval_batch", b"", "bad_request"),
            ("validate", b"{}", "bad_request"),
            ("cost", b'{"crd":"x"}', "invalid_crd"),
            ("free", b'{"program":"1"}', "bad_request"),
            ("free", b"1", "bad_request"),
        ]:
            got = p.call(export, req)
            self.assertTrue(got.startswith(b'{"error":{"code":"%s"' % code.encode()), (export, req, got[:200]))
        self.assertEqual(p.call("free", b'{"program":999}'), b'{"freed":false}')
        with self.assertRaises(extism.Error):
            p.call("celwasm_eval", b"")
        self.works(p)
        h = handle(p, '{"expression":"true"}')
        req = '{"program":%d}' % h
        self.assertEqual(p.call("eval", req), b'{"value":true,"cost":0}')
        self.assertEqual(p.call("free", req), b'{"freed":true}')
        self.assertTrue(p.call("eval", req).startswith(b'{"error":{"code":"unknown_program"'))

    def test_timeout(self) -> None:
        compiled = CompiledPlugin(manifest(PLUGIN, timeout_ms=5000), wasi=True)
        p = extism.Plugin(compiled)
        h = handle(p, LONG)
        start = time.monotonic()
        with self.assertRaises(extism.Error) as e:
            p.call("eval", '{"program":%d,%s,"activation":{"l":%s}}' % (h, NO_LIMIT, lst(1000)))
        took = time.monotonic() - start
        self.assertGreater(took, 4.0)
        self.assertLess(took, 60.0)
        self.assertIn("timeout", str(e.exception).lower())
        self.works(extism.Plugin(compiled))

    def test_memory_limit_trap(self) -> None:
        compiled = CompiledPlugin(manifest(PLUGIN, max_pages=1536), wasi=True)
        p = extism.Plugin(compiled)
        h = handle(p, HOG)
        with self.assertRaises(extism.Error) as e:
            p.call("eval", '{"program":%d,%s,"activation":{"l":%s}}' % (h, NO_LIMIT, lst(3000)))
        print("trap:", str(e.exception)[:300])
        self.works(extism.Plugin(compiled))

    def test_memory_limit_too_small(self) -> None:
        # The module's initial memory alone is larger than 16 pages (1 MiB).
        with self.assertRaises(extism.Error) as e:
            p = extism.Plugin(CompiledPlugin(manifest(PLUGIN, max_pages=16), wasi=True))
            p.call("version", b"")
        print("too small:", str(e.exception)[:300])
        self.works(extism.Plugin(CompiledPlugin(manifest(PLUGIN), wasi=True)))


if __name__ == "__main__":
    unittest.main()
