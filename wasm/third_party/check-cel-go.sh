#!/usr/bin/env bash
# Checks that wasm/third_party/cel-go is upstream cel-go v0.29.2 (from the Go
# module cache) without its tests, examples and build files, plus the patches
# in wasm/third_party/cel-go/patches (described in PATCHES.md), applied in
# order. Any other difference fails.
#
#   wasm/third_party/check-cel-go.sh           check
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fork=$here/cel-go
version=v0.29.2
upstream=$(go mod download -json "github.com/google/cel-go@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$upstream" ] || { echo "check-cel-go: no module directory for cel-go@$version" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
cp -r "$upstream" "$tmp/cel-go"
chmod -R u+w "$tmp/cel-go"
cd "$tmp/cel-go"

# What the fork leaves out of upstream: repository and Bazel files, docs,
# tests and their data, examples, the vendor tree, the parser's grammar sources.
rm -rf .bazelrc .bazelversion .gitattributes .github .gitignore CODE_OF_CONDUCT.md CONTRIBUTING.md \
	MODULE.bazel PULL_REQUEST_TEMPLATE.md README.md bazel cloudbuild.yaml repositories.bzl \
	examples scripts test vendor ext/README.md
find . \( -name '*_test.go' -o -name BUILD.bazel \) -delete
find . -type d -name testdata -prune -exec rm -rf {} +
rm -f parser/gen/CEL.g4 parser/gen/*.interp parser/gen/*.tokens parser/gen/generate.sh

for p in "$fork"/patches/*.patch; do
	git apply --whitespace=nowarn "$p" || { echo "check-cel-go: $(basename "$p") does not apply to cel-go $version" >&2; exit 1; }
done

if ! diff -r --exclude=PATCHES.md --exclude=patches . "$fork"; then
	echo "check-cel-go: wasm/third_party/cel-go differs from cel-go $version + patches/*.patch (diff above: < expected, > fork)" >&2
	exit 1
fi
echo "check-cel-go: wasm/third_party/cel-go = cel-go $version + $(ls "$fork"/patches/*.patch | wc -l) patches"
