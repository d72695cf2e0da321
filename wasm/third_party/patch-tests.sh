#!/bin/sh
# patch-tests.sh COPY... — the import paths of the packages of the patched
# copies in wasm/third_party (apiserver, apimachinery, api, client-go,
# apiextensions-apiserver, kube-openapi, structured-merge-diff, cloudevents-sql) that carry a *_patch_test.go, for
# go test -modfile -run Patch (make test-go).
# Run from the repository root.
set -eu
for c in "$@"; do
	m=$(sed -n 's/^module //p' "wasm/third_party/$c/go.mod")
	(cd "wasm/third_party/$c" && find . -name '*_patch_test.go' -printf '%h\n') | sort -u |
		sed "s|^\.|$m|"
done
