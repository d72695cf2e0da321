#!/usr/bin/env python3
"""Runs every example of README.md, sdk-js/README.md and sdk-python/README.md as
a new user would, against the packages `make dist` built, installed into a fresh
npm project and a fresh virtualenv outside the source tree:

- sh: each command runs (README.md's from the repository root with build/celwasm,
  the SDK READMEs' in the example directory with the installed packages). A
  trailing `# → TEXT` is the output the command must print; `(exit N)` in the
  comment its exit status, 0 otherwise.
- Transcript blocks (lines starting with `$ `): each command's output must match
  the lines shown; a line `...` stands for any lines, a line ending in `...` for
  any line starting with what precedes it.
- js: in Node, and compiled as TypeScript with `tsc --strict` against the
  installed package's types. A line `expr;  // VALUE` whose VALUE is a literal
  (`true`, `'bool'`, `{ min: 3n }`) is checked: expr must equal it.
- python: in the virtualenv. A line `expr  # VALUE` whose VALUE is a Python
  literal is checked the same way.
- html, and js blocks marked `<!-- doc-example: browser -->`: in Chromium, the page
  served over HTTP from the npm project (scripts/doc_browser.mjs).
- go: README.md's complete programs run in internal/doctest (make test-go), from
  a clean clone; json: must parse.

A comment line `<!-- doc-example: continues -->` before a block runs it after the
previous block of its language in the same file (they share names);
`<!-- doc-example: not run: REASON -->` says why a block cannot run here. Examples
name files a user would have (trigger.yaml, crd.yaml); FIXTURES maps them to the
repository's test data, and PRELUDE_* defines the few values the text leaves to
the reader (an `event`, a `stored` object). Every block is accounted for: the run
fails on a block it cannot classify and prints what ran, what was compared, and
what was not run and why.

    python3 scripts/doc_examples.py DIST_DIR CLI
"""
import ast
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
VERSION = (ROOT / "VERSION").read_text().strip()
READMES = ["README.md", "sdk-js/README.md", "sdk-python/README.md"]
YAML_JS = "yaml@2.9.1"        # the SDK READMEs parse YAML with these, as sdk-js and sdk-python's tests do
PYYAML = "PyYAML==6.0.3"

TD = "conformance/testdata"
FIXTURES = {
    "deployment.yaml": f"{TD}/k8s/deployment.yaml",
    "event.json": f"{TD}/knative/pull-request.json",
    "trigger.yaml": f"{TD}/knative/trigger.yaml",
    "events.ndjson": f"{TD}/knative/events.ndjson",
    "pipelinerun.json": f"{TD}/tekton/pipelinerun-context.json",
    "crd.yaml": f"{TD}/crd/kep/crd.yaml",
    "webapp.yaml": f"{TD}/k8s/webapp.yaml",
    "webapps.yaml": f"{TD}/crd/kep/valid.yaml",
    "objects.yaml": f"{TD}/crd/kep/new-valid.yaml",
    "stored.yaml": f"{TD}/crd/kep/old.yaml",
}

# Values the examples leave to the reader, defined only when a block uses the name.
PRELUDE_JS = {
    "event": "const event{T} = JSON.parse(__readFileSync('event.json', 'utf8'));",
    "ndjson": "const ndjson{T} = __readFileSync('events.ndjson', 'utf8').trim();",
    "stored": "const stored{T} = __parseAllDocuments(__readFileSync('stored.yaml', 'utf8'))[0].toJSON();",
    "edited": "const edited{T} = __parseAllDocuments(__readFileSync('objects.yaml', 'utf8'))[0].toJSON();",
}
PRELUDE_JS_HEAD = ("import { readFileSync as __readFileSync } from 'node:fs';\n"
                   "import { parseAllDocuments as __parseAllDocuments } from 'yaml';\n")
PRELUDE_BROWSER = {
    "event": "const event = await (await fetch('/event.json')).json();",
}
PRELUDE_PY = {
    "event": "event = __json.load(open('event.json'))",
    "stored": "stored = next(__yaml.safe_load_all(open('stored.yaml')))",
    "new": "new = next(__yaml.safe_load_all(open('objects.yaml')))",
}
PRELUDE_PY_HEAD = "import json as __json, yaml as __yaml\n"

# Shell lines that set up what this run sets up itself, or that cannot run inside it.
NOT_RUN = [
    (r"^make test\b", "the command that runs these checks"),
    (r"^make dist\b", "ran before these checks: its files are what is installed here"),
    (r"^(npm|pip) install \./dist/|^pip install dist/", "done here: the file is installed into a fresh project / virtualenv"),
    (r"^(npm|pip) install celwasm\b", "not published to the registry yet (the local file is installed instead)"),
    (r"^go get ", "internal/doctest (make test-go) builds the README's Go program against a clean clone"),
    (r"^make -C sdk-js (test|bench|build)\b", "part of make test / make bench"),
    (r"^cd sdk-js && npx vite preview\b", "starts a server that runs until stopped; make -C sdk-js test loads the playground in Chromium"),
]


class Block:
    def __init__(self, md, line, lang, text, directive):
        self.md, self.line, self.lang, self.text, self.directive = md, line, lang, text, directive
        self.where = f"{md}:{line}"


def blocks(md):
    lines = (ROOT / md).read_text().splitlines()
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while not lines[j].startswith("```"):
            j += 1
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        d = re.match(r"^<!-- doc-example: (.*?) -->$", lines[k].strip()) if k >= 0 else None
        prev = "\n".join(lines[max(0, i - 3):i])
        out.append(Block(md, i + 1, m.group(1), "\n".join(lines[i + 1:j]) + "\n",
                         d.group(1) if d else ("output" if re.search(r"^Output:\s*$", prev, re.M) else "")))
        i = j + 1
    return out


# ---- checks inside code -------------------------------------------------------------------------

JS_LITERAL = re.compile(r"""^(-?\d+n?|true|false|null|'[^'…]*'|"[^"…]*"|[\[{][^…]*[\]}])$""")


def js_checked(src):
    out = []
    for line in src.splitlines():
        m = re.match(r"^(\s*)(.+?);\s*//\s*(.+?)\s*$", line)
        if m:
            value = re.sub(r"\s{2,}\(.*\)$", "", m.group(3))
            expr = m.group(2)
            if (c := re.fullmatch(r"console\.log\((.*)\)", expr)) and "," not in c.group(1):
                expr = c.group(1)       # console.log(x); // v: x must be v
            if (JS_LITERAL.match(value) and not re.match(r"^(const|let|var|import|for|if|await\s+\w+\s*=)\b", expr)
                    and not re.match(r"^[\w.\s]+=[^=]", expr) and expr.count("(") == expr.count(")")):
                out.append(f"{m.group(1)}__check({expr}, {value});")
                continue
        out.append(line)
    return "\n".join(out) + "\n"


JS_CHECK = """function __canon(v{T}){R} {
  if (typeof v === 'bigint') return v.toString() + 'n';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(__canon).join(',') + ']';
  return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + __canon((v as any)[k])).join(',') + '}';
}
function __check(got{T}, want{T}) {
  if (__canon(got) !== __canon(want)) throw new Error(`README example: got ${__canon(got)}, the README shows ${__canon(want)}`);
  console.log(`ok: ${__canon(got)}`);
}
"""


def js_check(ts):
    src = JS_CHECK.replace("{T}", ": unknown" if ts else "").replace("{R}", ": string" if ts else "")
    return src if ts else src.replace("(v as any)", "v")


def py_checked(src):
    out = []
    for line in src.splitlines():
        m = re.match(r"^(\s*)([^#]+?)\s+#\s*(.+?)\s*$", line)
        if m:
            value = re.sub(r"\s{2,}\(.*\)$", "", m.group(3))
            try:
                ast.parse(m.group(2).strip(), mode="eval")
                want = ast.literal_eval(value)
                expr = m.group(2).strip()
                if not expr.startswith("print(") and "=" not in re.sub(r"==|!=|<=|>=|\"[^\"]*\"|'[^']*'", "", expr):
                    out.append(f"{m.group(1)}__check(({expr}), {want!r})")
                    continue
            except (SyntaxError, ValueError):
                pass
        out.append(line)
    return "\n".join(out) + "\n"


PY_CHECK = """def __check(got, want):
    if got != want:
        raise SystemExit("README example: got %r, the README shows %r" % (got, want))
    print("ok:", repr(got))
"""


def uses(src, name):
    return re.search(r"(?<![\w.'\"])%s\b(?!\s*[:=][^=])" % re.escape(name), src) and not re.search(
        r"\b(const|let|var)\s+%s\b|^\s*%s\s*=[^=]" % (re.escape(name), re.escape(name)), src, re.M)


# ---- shell ----------------------------------------------------------------------------------------

def shell_commands(text):
    cmds, cur = [], ""
    for line in text.splitlines():
        cur += line
        if cur.endswith("\\"):
            cur = cur[:-1] + " "
            continue
        if cur.strip() and not cur.strip().startswith("#"):
            cmds.append(cur.strip())
        cur = ""
    return cmds


def split_comment(cmd):
    quote = None
    for i, c in enumerate(cmd):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and i > 0 and cmd[i - 1] in " \t":
            return cmd[:i].rstrip(), cmd[i + 1:].strip()
    return cmd, ""


def transcript_regex(expected):
    parts = []
    for line in expected:
        if line.strip() in ("...", "…"):
            parts.append(r"(?:.*\n)*?")
        elif line.endswith("...") or line.endswith("…"):
            parts.append(re.escape(line.rstrip(".…")) + r".*\n")
        else:
            parts.append(re.escape(line) + r"\n")
    return re.compile("".join(parts))


class Runner:
    def __init__(self, dist, cli, tmp):
        self.dist, self.cli, self.tmp = dist, cli, tmp
        self.ran, self.compared, self.not_run, self.failures = [], 0, [], []
        self.last = {}

    def fail(self, b, msg):
        self.failures.append(f"{b.where}: {msg}")
        print(f"FAIL {b.where}: {msg}", file=sys.stderr, flush=True)

    def setup(self):
        self.app = self.tmp / "app"
        self.app.mkdir()
        for name, src in FIXTURES.items():
            shutil.copy(ROOT / src, self.app / name)
        (self.app / "package.json").write_text('{"name": "readme-examples", "private": true, "type": "module"}\n')
        tgz = self.dist / f"celwasm-{VERSION}.tgz"
        run(["npm", "install", "--silent", "--no-audit", "--no-fund", str(tgz), YAML_JS], self.app)
        self.venv = self.tmp / "venv"
        run([sys.executable, "-m", "venv", str(self.venv)], self.tmp)
        whl = next(self.dist.glob(f"celwasm-{VERSION}-*.whl"))
        run([str(self.venv / "bin/python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(whl), PYYAML], self.tmp)
        self.env = dict(os.environ, PATH=f"{self.venv / 'bin'}:{os.environ['PATH']}")

    def sh(self, b, cwd):
        for cmd in shell_commands(b.text):
            code, comment = split_comment(cmd)
            reason = next((r for pat, r in NOT_RUN if re.search(pat, code)), None)
            if reason:
                self.not_run.append(f"{b.where} `{code}`: {reason}")
                continue
            if code.startswith("build/celwasm") or code.startswith("make "):
                code = code.replace("build/celwasm", str(self.cli), 1) if cwd != ROOT else code
            p = subprocess.run(["bash", "-c", code], cwd=cwd, env=self.env, capture_output=True, text=True)
            want_exit = int(m.group(1)) if (m := re.search(r"\bexit (\d)\b", comment)) else 0
            self.ran.append(f"{b.where} `{code}`")
            if p.returncode != want_exit:
                self.fail(b, f"`{code}` exited {p.returncode}, the README implies {want_exit}\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
                continue
            if comment.startswith("→"):
                want = re.sub(r"\s*\(exit \d\)$", "", comment[1:].strip())
                self.compared += 1
                if p.stdout.strip() != want:
                    self.fail(b, f"`{code}` printed {p.stdout.strip()!r}, the README shows {want!r}")

    def transcript(self, b):
        cmds, cur = [], None
        for line in b.text.splitlines():
            if line.startswith("$ "):
                cur = (line[2:], [])
                cmds.append(cur)
            elif cur:
                cur[1].append(line)
        for cmd, expected in cmds:
            p = subprocess.run(["bash", "-c", cmd + " 2>&1"], cwd=ROOT, env=self.env, capture_output=True, text=True)
            self.ran.append(f"{b.where} `{cmd}`")
            self.compared += 1
            if p.returncode >= 2:
                self.fail(b, f"`{cmd}` exited {p.returncode}\n{p.stdout[-2000:]}")
            elif not transcript_regex(expected).fullmatch(p.stdout):
                self.fail(b, f"`{cmd}` printed:\n{p.stdout}\nwhich does not match the README's:\n" + "\n".join(expected))

    def source(self, b):
        src = b.text
        if b.directive == "continues":
            prev = self.last.get((b.md, b.lang))
            if prev is None:
                raise SystemExit(f"{b.where}: continues, but no earlier {b.lang} block")
            src = prev + src
        self.last[(b.md, b.lang)] = src
        return src

    def js(self, b, i):
        src = self.source(b)
        for ts in (False, True):
            pre = "".join(PRELUDE_JS[n].replace("{T}", ": any" if ts else "") + "\n" for n in PRELUDE_JS if uses(src, n))
            body = js_checked(src)
            path = self.app / f"example{i}.{'mts' if ts else 'mjs'}"
            path.write_text(PRELUDE_JS_HEAD + js_check(ts) + pre + body + ("export {};\n" if ts else ""))
            if ts:
                tsc = ROOT / "sdk-js/node_modules/.bin/tsc"
                cmd = [str(tsc), "--strict", "--noEmit", "--module", "nodenext", "--target", "es2022",
                       "--types", "node", "--typeRoots", str(ROOT / "sdk-js/node_modules/@types"), path.name]
            else:
                cmd = ["node", path.name]
            p = subprocess.run(cmd, cwd=self.app, env=self.env, capture_output=True, text=True)
            self.ran.append(f"{b.where} js ({'tsc --strict' if ts else 'node'})")
            self.compared += 0 if ts else p.stdout.count("ok: ")
            if p.returncode:
                self.fail(b, f"{' '.join(cmd[:1])}: exit {p.returncode}\n{p.stdout[-3000:]}{p.stderr[-3000:]}")

    def python(self, b, i):
        src = self.source(b)
        pre = "".join(PRELUDE_PY[n] + "\n" for n in PRELUDE_PY if uses(src, n))
        path = self.app / f"example{i}.py"
        path.write_text(PRELUDE_PY_HEAD + PY_CHECK + pre + py_checked(src))
        p = subprocess.run([str(self.venv / "bin/python"), path.name], cwd=self.app, env=self.env, capture_output=True, text=True)
        self.ran.append(f"{b.where} python")
        self.compared += p.stdout.count("ok: ")
        if p.returncode:
            self.fail(b, f"python: exit {p.returncode}\n{p.stdout[-3000:]}{p.stderr[-3000:]}")

    def browser_page(self, b, i):
        """Writes the page for an html block, or for a js block inside the README's import map."""
        if b.lang == "html":
            html = b.text
            m = re.search(r'(<script type="module">\n)(.*?)(</script>)', html, re.S)
            script = m.group(2)
            importmap = html[:m.start()]
        else:
            script = self.source(b)
            importmap = self.importmap
        pre = "".join(PRELUDE_BROWSER[n] + "\n" for n in PRELUDE_BROWSER if uses(script, n))
        imports = "".join(l + "\n" for l in script.splitlines() if l.lstrip().startswith("import "))
        rest = "\n".join(l for l in script.splitlines() if not l.lstrip().startswith("import "))
        body = (imports + js_check(False) + "try {\n" + pre + js_checked(rest) +
                "window.__docExample = 'ok';\n} catch (e) { window.__docExample = 'error: ' + (e && e.stack || e); }\n")
        page = f"<!doctype html>\n<link rel=\"icon\" href=\"data:,\">\n{importmap}<script type=\"module\">\n{body}</script>\n"
        name = f"example{i}.html"
        (self.app / name).write_text(page)
        return name


def run(cmd, cwd):
    print("+", " ".join(map(str, cmd)), flush=True)
    subprocess.run(cmd, cwd=cwd, check=True)


def main():
    dist, cli = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    all_blocks = [b for md in READMES for b in blocks(md)]
    with tempfile.TemporaryDirectory() as tmp:
        r = Runner(dist, cli, pathlib.Path(tmp))
        r.setup()
        html = [b for b in all_blocks if b.lang == "html"]
        r.importmap = re.search(r"(<script type=\"importmap\">.*?</script>\n)", html[0].text, re.S).group(1) if html else ""
        pages = []
        for i, b in enumerate(all_blocks):
            print(f"== {b.where} ({b.lang or 'text'}{', ' + b.directive if b.directive else ''})", flush=True)
            if b.directive.startswith("not run:"):
                r.not_run.append(f"{b.where} ({b.lang}): {b.directive[len('not run:'):].strip()}")
            elif b.lang == "sh":
                r.sh(b, ROOT if b.md == "README.md" else r.app)
            elif b.lang == "" and b.directive == "output":
                r.not_run.append(f"{b.where}: the Go program's output, compared by internal/doctest (make test-go)")
            elif b.lang == "" and b.text.startswith("$ "):
                r.transcript(b)
            elif b.lang == "go":
                if "package main" not in b.text:
                    r.fail(b, "a Go example that is not a complete program cannot run")
                r.not_run.append(f"{b.where} (go): built and run by internal/doctest (make test-go) from a clean clone")
            elif b.lang == "json":
                json.loads(b.text)
                r.ran.append(f"{b.where} json (parsed)")
            elif b.lang == "html" or (b.lang == "js" and b.directive in ("browser", "browser, continues")):
                pages.append((b, r.browser_page(b, i)))
            elif b.lang == "js":
                r.js(b, i)
            elif b.lang == "python":
                r.python(b, i)
            else:
                r.fail(b, f"no way to run a ```{b.lang} block; mark it <!-- doc-example: not run: REASON -->")
        if pages:
            cmd = ["node", str(ROOT / "scripts/doc_browser.mjs"), str(r.app)] + [p for _, p in pages]
            p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
            print(p.stderr, end="", file=sys.stderr)
            results = dict(line.split("\t", 1) for line in p.stdout.splitlines() if "\t" in line)
            for b, page in pages:
                r.ran.append(f"{b.where} {b.lang} (Chromium)")
                res = results.get(page, f"no result (exit {p.returncode})")
                if not res.startswith("ok"):
                    r.fail(b, f"in Chromium: {res}")
                else:
                    r.compared += int(res.split()[1]) if len(res.split()) > 1 else 0
    print(f"\nREADME examples: {len(r.ran)} runs, {r.compared} outputs compared, {len(r.not_run)} not run:")
    for n in r.not_run:
        print("  not run:", n)
    if r.failures:
        print(f"\n{len(r.failures)} failures:\n" + "\n".join(r.failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
