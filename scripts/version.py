#!/usr/bin/env python3
"""The release version lives in VERSION; every other place that must name it
is listed here. `version.py check` fails when one disagrees (make test);
`version.py set X.Y.Z` rewrites them all (and VERSION)."""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# (file, regex with one group: the version)
PLACES = [
    ("wasm/abi/abi.go", r'const ModuleVersion = "([^"]+)"'),
    ("sdk-js/package.json", r'\n  "version": "([^"]+)"'),
    ("sdk-python/pyproject.toml", r'\nversion = "([^"]+)"'),
    ("sdk-python/src/celwasm/__init__.py", r'\n__version__ = "([^"]+)"'),
    ("CHANGELOG.md", r'\n## ([0-9][^ \n]*)'),  # the newest entry
]


def main() -> int:
    want = (ROOT / "VERSION").read_text().strip()
    if len(sys.argv) == 3 and sys.argv[1] == "set":
        want = sys.argv[2]
        (ROOT / "VERSION").write_text(want + "\n")
        for f, rx in PLACES[:-1]:
            p = ROOT / f
            s = p.read_text()
            m = re.search(rx, s)
            p.write_text(s[: m.start(1)] + want + s[m.end(1):])
        lock = ROOT / "sdk-js/package-lock.json"
        data = json.loads(lock.read_text())
        data["version"] = want
        data["packages"][""]["version"] = want
        lock.write_text(json.dumps(data, indent=2) + "\n")
        print("version set to", want, "- add its CHANGELOG.md entry")
        return 0
    if sys.argv[1:] != ["check"]:
        print("usage: version.py check | set X.Y.Z", file=sys.stderr)
        return 2
    bad = 0
    for f, rx in PLACES:
        m = re.search(rx, (ROOT / f).read_text())
        got = m.group(1) if m else None
        if got != want:
            print(f"version: {f} says {got}, VERSION says {want}", file=sys.stderr)
            bad = 1
    if not bad:
        print(f"version: {want} everywhere ({len(PLACES)} places)")
    return bad


if __name__ == "__main__":
    sys.exit(main())
