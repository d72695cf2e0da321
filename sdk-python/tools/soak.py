"""Evaluates one program a million times (CELWASM_SOAK_EVALS) on one instance of the
Python SDK, every input different and every result checked; prints the guest's linear
memory and the process RSS after a warm-up (the first quarter) and at the end as one JSON
line (make soak; docs/reliability.md)."""

import json
import os
import sys

import celwasm


def rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def main() -> int:
    evals = int(os.environ.get("CELWASM_SOAK_EVALS", "1000000"))
    rt = celwasm.Runtime(instances=1)
    prg = rt.env({"self": "dyn"}).compile("self.items.filter(i, i.ok).map(i, i.name + '-' + string(self.id))")
    warm, step = evals // 4, max(1, evals // 10)
    guest_warm = rss_warm = 0
    for i in range(evals):
        act = '{"self":{"id":%d,"items":[{"name":"a","ok":true},{"name":"b%d","ok":%s},{"name":"c","ok":false}]}}' % (
            i, i, "true" if i % 2 == 0 else "false")
        got = prg.eval(act).json
        want = ('["a-%d","b%d-%d"]' % (i, i, i) if i % 2 == 0 else '["a-%d"]' % i).encode()
        if got != want:
            print("eval %d: got %r, want %r" % (i, got, want), file=sys.stderr)
            return 1
        if i + 1 == warm:
            guest_warm, rss_warm = rt.memory_bytes, rss()
        if (i + 1) % step == 0:
            print("soak python: %d evaluations, guest %d bytes, RSS %d bytes" % (i + 1, rt.memory_bytes, rss()), file=sys.stderr)
    print(json.dumps({"host": "python", "evals": evals, "guestWarm": guest_warm, "guestEnd": rt.memory_bytes,
                      "rssWarm": rss_warm, "rssEnd": rss()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
