#!/bin/sh
# copy-missing.sh [admission] PACKAGE... — copies into the patched copies
# (wasm/third_party/{api,apiserver,apimachinery,apiextensions-apiserver,client-go,kube-openapi,structured-merge-diff,cloudevents-sql})
# every package of those modules that PACKAGE... link but the copies lack, as
# upstream has it (non-test Go files from the module cache), until the module
# build finds them all. With "admission", the build of the admission module
# (the k8s.io/api, client-go and structured-merge-diff copies too). A
# k8s.io/api package copied this way keeps its protobuf methods; if it calls
# those of a patched package, strip it as wasm/third_party/api/PATCHES.md
# says. Run from the repository root.
set -eu
flavour=
if [ "${1:-}" = admission ]; then flavour=admission; shift; fi
mod=build/copy-missing.mod
GO=${GO:-go} ./wasm/third_party/modfile.sh "$mod" $flavour
# Each copy's module path, from its go.mod: "module-path copy-directory" lines.
copies=$(for c in api apiserver apimachinery apiextensions-apiserver client-go kube-openapi structured-merge-diff cloudevents-sql; do
	echo "$(sed -n 's/^module //p' "wasm/third_party/$c/go.mod") $c"
done)
while :; do
	missing=$(GOOS=wasip1 GOARCH=wasm ${GO:-go} list -modfile="$mod" -e -deps \
		-f '{{.ImportPath}} {{if .Error}}ERR{{end}}' "$@" | awk '$2 == "ERR" {print $1}')
	found=
	for p in $missing; do
		copy=$(echo "$copies" | while read -r m c; do
			case $p in "$m"/*) echo "$m $c" ;; esac
		done)
		[ -z "$copy" ] && continue
		found=1
		m=${copy% *}
		rel=${p#"$m"/}
		dir=wasm/third_party/${copy#* }/$rel
		src=$(${GO:-go} mod download -json "$m" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')/$rel
		echo "copy-missing: $p"
		mkdir -p "$dir"
		for f in "$src"/*.go; do
			case $f in *_test.go) ;; *) cp "$f" "$dir/" && chmod 644 "$dir/$(basename "$f")" ;; esac
		done
	done
	[ -z "$found" ] && break
done
