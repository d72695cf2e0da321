package envoy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/host/envoy"
)

// TestWASIImports lists every WASI import of both modules and fails unless
// Envoy provides each with the same signature (envoy.WASI, proven by
// TestWASITableMatchesEnvoy).
func TestWASIImports(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, path := range []string{filepath.Join(root, "build", "celwasm.wasm"), module} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			wasm, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (make wasm builds it)", err)
			}
			imports, err := envoy.Imports(context.Background(), wasm)
			if err != nil {
				t.Fatal(err)
			}
			var table strings.Builder
			n := 0
			for _, im := range imports {
				if im.Module != envoy.WASIModule {
					continue
				}
				n++
				want, ok := envoy.WASI[im.Name]
				status := "ok"
				switch {
				case !ok:
					status = "MISSING in Envoy"
					t.Errorf("%s.%s is not provided by Envoy %s", im.Module, im.Name, envoy.Version)
				case want != im.Signature:
					status = "MISMATCH: Envoy has " + want
					t.Errorf("%s.%s: the module imports %s, Envoy %s provides %s", im.Module, im.Name, im.Signature, envoy.Version, want)
				}
				fmt.Fprintf(&table, "  %-24s %-36s %s\n", im.Name, im.Signature, status)
			}
			if n == 0 {
				t.Fatalf("no WASI imports found in %s", path)
			}
			t.Logf("%d WASI imports of %s:\n%s", n, filepath.Base(path), table.String())
		})
	}
}

// TestWASITableMatchesEnvoy loads probe modules into the running Envoy:
// one importing every function of envoy.WASI with the table's signature
// must load; one importing WASI's own path_symlink must be refused with an
// import type mismatch (so the check above can fail).
func TestWASITableMatchesEnvoy(t *testing.T) {
	dir := t.TempDir()
	good, err := envoy.BuildWASIProbe(filepath.Join(dir, "good"), envoy.WASI)
	if err != nil {
		t.Fatal(err)
	}
	wasi := map[string]string{}
	for k, v := range envoy.WASI {
		wasi[k] = v
	}
	wasi["path_symlink"] = "i32 i32 i32 i32 i32 -> i32"
	bad, err := envoy.BuildWASIProbe(filepath.Join(dir, "bad"), wasi)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Update(baseListeners)
	probe := func(name, path string) error {
		return shared.Update(append(append([]envoy.Listener{}, baseListeners...),
			envoy.Listener{Name: name, Plugin: "probe", Module: path, VMID: name}))
	}
	if err := probe("wasi-probe", good); err != nil {
		t.Errorf("the probe importing envoy.WASI did not load: %v", err)
	}
	if err := probe("wasi-probe-5-param-symlink", bad); err == nil {
		t.Errorf("the probe importing WASI's 5-parameter path_symlink loaded")
	} else if !shared.WaitLog("error", "wasi_snapshot_preview1.path_symlink, want: i32 i32 i32 i32 i32 -> i32, but host exports: i32 i32 i32 i32 -> i32") {
		t.Errorf("no import type mismatch in Envoy's log:\n%s", tail(shared.Log(), 20))
	}
}
