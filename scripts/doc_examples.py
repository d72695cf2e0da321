#!/usr/bin/env python3
"""Runs the JavaScript and Python examples of README.md as a new user would:
against the packages `make dist` built, installed into a fresh npm project
and a fresh virtualenv outside the source tree. A line ending in a comment
that shows a value (`expr;  // true`, `expr  # True`) is checked: the
expression must print that value. The JavaScript examples also compile as
TypeScript with `tsc --strict` against the installed package's types.

    python3 scripts/doc_examples.py DIST_DIR
"""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
VERSION = (ROOT / "VERSION").read_text().strip()


def blocks(md: str, lang: str):
    return re.findall(r"```%s\n(.*?)```" % lang, (ROOT / md).read_text(), flags=re.S)


def js_checked(src: str) -> str:
    out = []
    for line in src.splitlines():
        m = re.match(r"^(\s*)(.+?);\s*//\s*(.+?)\s*$", line)
        if m and not re.match(r"^(const|let|var|import|await\s+\w+\s*=)\b", m.group(2)) and "=" not in m.group(2).split("(")[0]:
            out.append(f"{m.group(1)}__check({m.group(2)}, {m.group(3)!r});")
        else:
            out.append(re.sub(r"\s*//.*$", "", line) if line.lstrip().startswith("import") else line)
    return "\n".join(out) + "\n"


def py_checked(src: str) -> str:
    out = []
    for line in src.splitlines():
        m = re.match(r"^(\s*)([^#=]+?\))\s*#\s*(.+?)\s*$", line)
        if m:
            out.append(f"{m.group(1)}__check({m.group(2)}, {m.group(3)!r})")
        else:
            out.append(line)
    return "\n".join(out) + "\n"


JS_CHECK = """function __check(got, want) {
  const text = typeof got === 'string' ? JSON.stringify(got) : String(got);
  if (text !== want) throw new Error(`README example: got ${text}, the README shows ${want}`);
  console.log(`ok: ${text}`);
}
"""
TS_CHECK = JS_CHECK.replace("function __check(got, want)", "function __check(got: unknown, want: string)")
PY_CHECK = """def __check(got, want):
    if repr(got) != want:
        raise SystemExit("README example: got %r, the README shows %s" % (got, want))
    print("ok:", repr(got))
"""


def run(cmd, cwd):
    print("+", " ".join(map(str, cmd)), flush=True)
    subprocess.run(cmd, cwd=cwd, check=True)


def main() -> int:
    dist = pathlib.Path(sys.argv[1]).resolve()
    tgz = dist / f"celwasm-{VERSION}.tgz"
    whl = next(dist.glob(f"celwasm-{VERSION}-*.whl"))
    js, py = blocks("README.md", "js"), blocks("README.md", "python")
    if not js or not py:
        print("README.md has no js or python example", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        app = tmp / "js"
        app.mkdir()
        (app / "package.json").write_text('{"name": "readme-example", "private": true, "type": "module"}\n')
        run(["npm", "install", "--silent", "--no-audit", "--no-fund", str(tgz)], app)
        tsc = ROOT / "sdk-js/node_modules/.bin/tsc"
        for i, src in enumerate(js):
            (app / f"example{i}.mjs").write_text(JS_CHECK + js_checked(src))
            run(["node", f"example{i}.mjs"], app)
            (app / f"example{i}.mts").write_text(TS_CHECK + js_checked(src) + "export {};\n")
            run([str(tsc), "--strict", "--noEmit", "--module", "nodenext", "--target", "es2022",
                 "--types", "node", "--typeRoots", str(ROOT / "sdk-js/node_modules/@types"), f"example{i}.mts"], app)
        venv = tmp / "venv"
        run([sys.executable, "-m", "venv", str(venv)], tmp)
        run([str(venv / "bin/python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(whl)], tmp)
        for i, src in enumerate(py):
            (tmp / f"example{i}.py").write_text(PY_CHECK + py_checked(src))
            run([str(venv / "bin/python"), f"example{i}.py"], tmp)
    print(f"README examples: {len(js)} JavaScript (and as TypeScript), {len(py)} Python, from {dist.name}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
