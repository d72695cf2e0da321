// Package gosdk runs the celwasm Extism plugin (build/celwasm-extism.wasm)
// with Extism's Go host SDK, github.com/extism/go-sdk, on wazero: the Go one
// of the three SDKs the plugin is tested with (docs/extism.md). The
// conformance runner (conformance/cmd/run -host extism-go), the SDK tests and
// the call-overhead benchmark use it.
package gosdk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"
)

// Options are the manifest settings the tests vary.
type Options struct {
	// TimeoutMs is the manifest's timeout_ms: a call running longer fails
	// (0: none).
	TimeoutMs uint64
	// MaxPages is the manifest's memory.max_pages, in 64 KiB pages (0: no
	// limit beyond wasm32's).
	MaxPages uint32
}

// Plugin is the compiled plugin; Instance makes instances of it.
type Plugin struct {
	compiled *extism.CompiledPlugin
}

// Load compiles the plugin file with WASI on (the plugin is a WASI
// reactor). Compiled code is cached in $XDG_CACHE_HOME/celwasm/extism-wazero.
func Load(ctx context.Context, path string, o Options) (*Plugin, error) {
	manifest := extism.Manifest{
		Wasm:    []extism.Wasm{extism.WasmFile{Path: path}},
		Timeout: o.TimeoutMs,
	}
	if o.MaxPages > 0 {
		manifest.Memory = &extism.ManifestMemory{MaxPages: o.MaxPages}
	}
	rc := wazero.NewRuntimeConfig()
	if d, err := os.UserCacheDir(); err == nil {
		cache, err := wazero.NewCompilationCacheWithDir(filepath.Join(d, "celwasm", "extism-wazero"))
		if err != nil {
			return nil, err
		}
		rc = rc.WithCompilationCache(cache)
	}
	c, err := extism.NewCompiledPlugin(ctx, manifest, extism.PluginConfig{EnableWasi: true, RuntimeConfig: rc}, nil)
	if err != nil {
		return nil, err
	}
	return &Plugin{compiled: c}, nil
}

// Close releases the compiled plugin and its runtime.
func (p *Plugin) Close(ctx context.Context) error { return p.compiled.Close(ctx) }

// Instance is one plugin instance: its programs, one call at a time.
type Instance struct {
	p *extism.Plugin
}

// Instance makes a new instance.
func (p *Plugin) Instance(ctx context.Context) (*Instance, error) {
	in, err := p.compiled.Instance(ctx, extism.PluginInstanceConfig{})
	if err != nil {
		return nil, err
	}
	return &Instance{p: in}, nil
}

// Call calls an export with a request and returns its response. An error is
// an Extism call failure (a trap, the timeout); the instance is then
// unusable. Error objects of docs/abi.md are responses, not errors.
func (i *Instance) Call(ctx context.Context, export string, req []byte) ([]byte, error) {
	rc, out, err := i.p.CallWithContext(ctx, export, req)
	if err != nil {
		return nil, err
	}
	if rc != 0 {
		return nil, fmt.Errorf("%s returned %d: %s", export, rc, i.p.GetError())
	}
	return out, nil
}

// Compile, Eval and Free are the conformance runner's interface.
func (i *Instance) Compile(req []byte) ([]byte, error) {
	return i.Call(context.Background(), "compile", req)
}

func (i *Instance) Eval(req []byte) ([]byte, error) {
	return i.Call(context.Background(), "eval", req)
}

// Free frees a program; a response other than {"freed":true} is an error.
func (i *Instance) Free(handle uint32) error {
	out, err := i.Call(context.Background(), "free", []byte(`{"program":`+strconv.FormatUint(uint64(handle), 10)+`}`))
	if err != nil {
		return err
	}
	if string(out) != `{"freed":true}` {
		return fmt.Errorf("free %d: %s", handle, out)
	}
	return nil
}

// Close releases the instance.
func (i *Instance) Close() error { return i.p.Close(context.Background()) }
