// Package argv0 gives the filter module a program name before any other
// package initialises.
//
// proxy-wasm hosts pass no arguments (the ABI requires args_sizes_get to
// report zero), but klog, which the Kubernetes CEL libraries import, reads
// os.Args[0] in a package-level variable initialiser and panics on an empty
// os.Args. Go initialises packages in dependency order and, among those
// ready, in import-path order; this package imports only os and its path
// sorts before k8s.io/..., so it runs before klog. The module's main imports
// it first; the Envoy tests (host/envoy) would fail at VM start if the
// order changed.
package argv0

import "os"

// Name is the program name the filter module reports.
const Name = "celwasm-proxywasm"

func init() {
	if len(os.Args) == 0 {
		os.Args = []string{Name}
	}
}
