package celwasm_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmtime"
)

// A warm wasmtime start finds the compiled code by the module's recorded
// sha256 and never reads (or hashes) the 23 MB module; a cold one reads it.
func TestWasmtimeWarmStartDoesNotReadTheModule(t *testing.T) {
	ctx := context.Background()
	cache := celwasm.DefaultCacheDir("wasmtime")
	if cache == "" {
		t.Skip("no user cache directory")
	}
	reads := 0
	src := celwasm.EngineModule{SHA256: module.Expr.SHA256(), Bytes: func() ([]byte, error) {
		reads++
		return module.Expr.Load()
	}}
	cfg := celwasm.EngineConfig{CacheDir: cache, MemoryLimitBytes: celwasm.DefaultMemoryLimit}
	// The first engine compiles if this machine has nothing cached yet.
	eng, err := wasmtime.NewEngine(ctx, src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	eng.Close(ctx)
	reads = 0
	eng, err = wasmtime.NewEngine(ctx, src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	if reads != 0 {
		t.Fatalf("warm start read the module %d times", reads)
	}
	in, err := eng.Instantiate(ctx, celwasm.InstanceConfig{Args: []string{"celwasm"}})
	if err != nil {
		t.Fatal(err)
	}
	in.Close(ctx)

	// Another sha256 has no cached code: the engine must read the module,
	// and a read error is reported, not hidden.
	bad := celwasm.EngineModule{SHA256: "00" + module.Expr.SHA256()[2:], Bytes: func() ([]byte, error) {
		return nil, errors.New("no module here")
	}}
	if _, err := wasmtime.NewEngine(ctx, bad, cfg); err == nil || !strings.Contains(err.Error(), "no module here") {
		t.Fatalf("cold start with an unreadable module: %v", err)
	}
}

// QuickCompileOption's code (Cranelift opt level none) is cached under its
// own name, beside NewEngine's, and gives the same results and costs.
func TestWasmtimeQuickCompile(t *testing.T) {
	ctx := context.Background()
	cache := celwasm.DefaultCacheDir("wasmtime")
	if cache == "" {
		t.Skip("no user cache directory")
	}
	cases := []struct{ expr, activation string }{
		{"self.spec.replicas >= 1 && self.spec.replicas <= 10", `{"self":{"spec":{"replicas":3}}}`},
		{"self.items.map(i, i.name.upperAscii()).filter(n, n.matches('^[A-Z]+-[0-9]$'))", `{"self":{"items":[{"name":"a-1"},{"name":"b-x"}]}}`},
		{"quantity(self.q).isGreaterThan(quantity('1Gi')) ? 1.5 / 0.0 : -1.0", `{"self":{"q":"2Gi"}}`},
		{"self.x / 0", `{"self":{"x":1}}`},
	}
	results := func(opt celwasm.Option) []string {
		// WithCacheDir takes the base: the runtime adds the module directory.
		rt, err := celwasm.New(ctx, celwasm.WithInstances(1), celwasm.WithCacheDir(filepath.Dir(cache)), opt)
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close(ctx)
		env := rt.NewEnv(celwasm.Variable("self", "dyn"))
		var out []string
		for _, c := range cases {
			p, err := env.Compile(ctx, c.expr)
			if err != nil {
				t.Fatalf("%s: %v", c.expr, err)
			}
			r, err := p.Eval(ctx, []byte(c.activation))
			if err != nil {
				out = append(out, "error: "+err.Error())
				continue
			}
			out = append(out, fmt.Sprintf("%s cost %d", r.JSON, r.Cost))
		}
		return out
	}
	quick, speed := results(wasmtime.QuickCompileOption()), results(wasmtime.Option())
	if strings.Join(quick, "\n") != strings.Join(speed, "\n") {
		t.Fatalf("opt level none:\n%s\nopt level speed:\n%s", strings.Join(quick, "\n"), strings.Join(speed, "\n"))
	}
	for _, quick := range []bool{true, false} {
		if _, err := os.Stat(filepath.Join(cache, cacheFile(quick))); err != nil {
			t.Errorf("no cached code %s: %v", cacheFile(quick), err)
		}
	}
}

// cacheFile is the name under which wasmtime caches the expression
// module's code: opt level none (QuickCompileOption) or speed (Option).
func cacheFile(quick bool) string {
	s := module.Expr.SHA256() + "-" + wasmtime.Version + "-" + runtime.GOARCH
	if quick {
		s += "-o0"
	}
	return s + ".cwasm"
}

// WithBeforeCompile is called when wasmtime has no code for this module and
// compiler setting, even if the cache directory holds the other setting's
// code (a service's opt level speed code beside the CLI's), and not when the
// code is read back. TestWasmtimeQuickCompile fills the shared cache first.
func TestBeforeCompileWasmtime(t *testing.T) {
	ctx := context.Background()
	shared := celwasm.DefaultCacheDir("wasmtime")
	if shared == "" {
		t.Skip("no user cache directory")
	}
	base := t.TempDir()
	dir := celwasm.ModuleCacheDir(base, module.Expr.SHA256())
	for _, quick := range []bool{false, true} {
		b, err := os.ReadFile(filepath.Join(shared, cacheFile(quick)))
		if err != nil {
			t.Skipf("shared cache not filled: %v", err)
		}
		if err := os.WriteFile(filepath.Join(dir, cacheFile(quick)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func(opt celwasm.Option) []string {
		var calls []string
		rt, err := celwasm.New(ctx, celwasm.WithInstances(1), celwasm.WithCacheDir(base), opt,
			celwasm.WithBeforeCompile(func(m, d string) { calls = append(calls, m+" "+d) }))
		if err != nil {
			t.Fatal(err)
		}
		rt.Close(ctx)
		return calls
	}
	if c := load(wasmtime.Option()); len(c) != 0 {
		t.Errorf("speed code cached: called %q", c)
	}
	if c := load(wasmtime.QuickCompileOption()); len(c) != 0 {
		t.Errorf("opt level none code cached: called %q", c)
	}
	// Only the speed code: the quick engine compiles, and says so.
	os.Remove(filepath.Join(dir, cacheFile(true)))
	if c := load(wasmtime.QuickCompileOption()); len(c) != 1 || c[0] != "celwasm "+dir {
		t.Errorf("opt level none code missing: called %q, want once with %q", c, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, cacheFile(true))); err != nil {
		t.Errorf("compiled code not cached: %v", err)
	}
}

// ModuleCacheDir removes the compiled code of modules unused for an hour,
// but never that of an embedded module (all three).
func TestModuleCacheDirKeepsEmbeddedModules(t *testing.T) {
	base := t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	other := strings.Repeat("ab", 32)
	for _, sha := range []string{module.Expr.SHA256(), module.Full.SHA256(), module.Admission.SHA256(), other} {
		dir := filepath.Join(base, sha[:16])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(dir, old, old); err != nil {
			t.Fatal(err)
		}
	}
	celwasm.ModuleCacheDir(base, strings.Repeat("cd", 32))
	for _, m := range []*module.Module{module.Expr, module.Full, module.Admission} {
		if _, err := os.Stat(filepath.Join(base, m.SHA256()[:16])); err != nil {
			t.Errorf("%s's cache directory was removed: %v", m.Name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(base, other[:16])); !os.IsNotExist(err) {
		t.Errorf("an unused module's cache directory was kept: %v", err)
	}
}
