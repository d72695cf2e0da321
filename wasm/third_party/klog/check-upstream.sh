#!/usr/bin/env bash
# Checks that this directory is k8s.io/klog/v2 at the version go.mod requires
# (from the Go module cache, downloaded if needed) plus patches/*.patch, and
# nothing else: every non-test Go file of each copied package, LICENSE, go.mod
# and go.sum. See PATCHES.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
version=$(cd "$root" && go list -m -f '{{.Version}}' k8s.io/klog/v2)
upstream=$(cd "$root" && go mod download -json "k8s.io/klog/v2@$version" | jq -r .Dir)
[ -d "$upstream" ] || { echo "klog check: no module directory for k8s.io/klog/v2@$version"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "$upstream/LICENSE" "$upstream/go.mod" "$upstream/go.sum" "$tmp/"
# The packages are the directories holding Go files here.
(cd "$here" && find . -name '*.go' -not -path './patches/*' -printf '%h\n' | sort -u) | while read -r dir; do
	mkdir -p "$tmp/$dir"
	for f in "$upstream/$dir"/*.go; do
		case "$f" in *_test.go) ;; *) cp "$f" "$tmp/$dir/" ;; esac
	done
done
chmod -R u+w "$tmp"
for p in "$here"/patches/*.patch; do
	patch -s -p1 -d "$tmp" < "$p"
done
if ! diff -r -x PATCHES.md -x patches -x check-upstream.sh "$tmp" "$here"; then
	echo "klog check: $here is not k8s.io/klog/v2@$version + patches/*.patch"
	exit 1
fi
echo "klog check: wasm/third_party/klog = k8s.io/klog/v2@$version + $(cd "$here/patches" && echo *.patch)"
