"""Shared fixtures: one Runtime per session on the real module (no mocks)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Iterator, Optional

import pytest

import celwasm

HERE = Path(__file__).resolve().parent
SDK = HERE.parent
REPO = SDK.parent
TESTDATA = REPO / "conformance" / "testdata"
FIXTURES = HERE / "fixtures"
sys.path.insert(0, str(SDK / "tools"))

# The session's modules are Cranelift's, so that no background tier-up
# replaces instances while tests count them; test_cache.py tests "auto".
os.environ.setdefault("CELWASM_COMPILER", "cranelift")


def without_compile_line(stderr: str) -> str:
    """stderr without the first-run progress line: which CLI compiles a module first
    (and so says so) depends on whose cache is warm, not on what they answer."""
    return "".join(line for line in stderr.splitlines(True)
                   if not line.startswith("celwasm: compiling the WebAssembly module"))


def go_cli() -> Optional[str]:
    """The Go CLI (built by `make -C .. cli`), or None."""
    p = os.environ.get("CELWASM_GO_CLI") or str(REPO / "build" / "celwasm")
    if os.path.exists(p) and os.access(p, os.X_OK):
        return p
    return shutil.which("celwasm")


@pytest.fixture(scope="session")
def module() -> celwasm.Module:
    from celwasm._runtime import shared_module

    return shared_module()


@pytest.fixture(scope="session")
def rt(module: celwasm.Module) -> Iterator[celwasm.Runtime]:
    r = celwasm.Runtime(instances=2, module=module)
    yield r
    r.close()


@pytest.fixture(scope="session")
def cel_env(rt: celwasm.Runtime) -> celwasm.Env:
    """cel-go's standard environment with one dyn variable x."""
    return rt.env({"x": "dyn"}, base="cel")
