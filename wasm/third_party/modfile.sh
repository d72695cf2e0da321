#!/bin/sh
# modfile.sh OUT.mod [admission] — writes the go.mod (and OUT.sum) that the
# WebAssembly module builds use (go build -modfile=OUT.mod): the repository's
# go.mod plus replace directives for the patched copies that only the modules
# link (Kubernetes' and CloudEvents SQL's). With "admission", also the k8s.io/api, client-go and
# structured-merge-diff copies, which only the admission module links or
# patches (the other modules' bytes stay as they are).
# Native code — the engine's tests, the hosts and the kube-apiserver reference
# of the differential test (conformance/crdref) — keeps go.mod, upstream code.
# See wasm/third_party/*/PATCHES.md and RATIONALE.md.
# Run from the repository root.
set -eu
out=$1
mkdir -p "$(dirname "$out")"
# Module builds run side by side (make -j2), so each writes its own temporary
# files and renames them into place: a build never reads a half-written file.
tmp=$out.$$.tmp
cp go.mod "$tmp"
cp go.sum "$tmp.sum"
${GO:-go} mod edit -replace=k8s.io/apiserver=./wasm/third_party/apiserver \
	-replace=k8s.io/apimachinery=./wasm/third_party/apimachinery \
	-replace=k8s.io/kube-openapi=./wasm/third_party/kube-openapi \
	-replace=k8s.io/apiextensions-apiserver=./wasm/third_party/apiextensions-apiserver \
	-replace=github.com/cloudevents/sdk-go/sql/v2=./wasm/third_party/cloudevents-sql "$tmp"
if [ "${2:-}" = admission ]; then
	${GO:-go} mod edit -replace=k8s.io/api=./wasm/third_party/api \
		-replace=k8s.io/client-go=./wasm/third_party/client-go \
		-replace=sigs.k8s.io/structured-merge-diff/v6=./wasm/third_party/structured-merge-diff "$tmp"
fi
mv "$tmp.sum" "${out%.mod}.sum"
mv "$tmp" "$out"
