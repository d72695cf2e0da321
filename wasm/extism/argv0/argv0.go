// Package argv0 gives the Extism plugin a program name before any other
// package initialises.
//
// Extism hosts start the plugin's WASI context without arguments, but klog,
// which the Kubernetes CEL libraries import, reads os.Args[0] in a
// package-level variable initialiser and panics on an empty os.Args. Go
// initialises packages in dependency order and, among those ready, in
// import-path order; this package imports only os and its path sorts before
// k8s.io/..., so it runs before klog. The plugin's main imports it first.
package argv0

import "os"

// Name is the program name the plugin reports.
const Name = "celwasm-extism"

func init() {
	if len(os.Args) == 0 {
		os.Args = []string{Name}
	}
}
