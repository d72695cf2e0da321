package celwasm_test

import (
	"context"
	"errors"
	"strings"
	"testing"

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
