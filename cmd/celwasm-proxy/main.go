// Command celwasm-proxy is a reverse proxy that runs a proxy-wasm HTTP
// filter — by default the celwasm CEL filter, build/celwasm-proxywasm.wasm —
// on every request before forwarding it to a backend. It is the Go
// proxy-wasm host of host/proxywasm on wazero, for trying rules locally and
// for the end-to-end tests; in production the same module runs in Envoy
// (docs/proxy-wasm.md).
//
//	celwasm-proxy --config plugin.json --backend http://127.0.0.1:9000 [--listen 127.0.0.1:8080]
//	celwasm-proxy bench [-n 4000] [-o build/bench]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/celwasm/celwasm/host/proxywasm"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var code int
	if len(os.Args) > 1 && os.Args[1] == "bench" {
		code = bench(ctx, os.Args[2:], os.Stdout, os.Stderr)
	} else {
		code = run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	}
	os.Exit(code)
}

const usage = `usage: celwasm-proxy --config plugin.json --backend URL [flags]
       celwasm-proxy bench [-n N] [-o build/bench]

Runs a proxy-wasm HTTP filter (the celwasm CEL filter by default) on every
request, then forwards it to the backend. Exit status: 0 after a clean
shutdown (SIGINT/SIGTERM), 1 when the filter does not start (the reason is
printed), 2 on bad usage.

flags:
`

// run serves until ctx is done. ready, if not nil, receives the listening
// address.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, ready chan<- string) int {
	fs := flag.NewFlagSet("celwasm-proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	config := fs.String("config", "", "plugin configuration file (PLUGIN_CONFIGURATION; for the celwasm filter, JSON rules)")
	listen := fs.String("listen", "127.0.0.1:8080", "address to listen on")
	backend := fs.String("backend", "", "backend URL requests are forwarded to (http://host:port)")
	modulePath := fs.String("module", "", "proxy-wasm module (default $CELWASM_PROXYWASM_MODULE, build/celwasm-proxywasm.wasm, or celwasm-proxywasm.wasm next to this program)")
	workers := fs.Int("workers", 0, "filter VMs (default GOMAXPROCS)")
	logLevel := fs.String("log-level", "info", "minimum level of the filter's log lines: trace, debug, info, warn, error, critical")
	pluginName := fs.String("plugin-name", "celwasm", "plugin_name (and plugin_root_id) property")
	vmID := fs.String("vm-id", "", "plugin_vm_id property")
	vmConfig := fs.String("vm-config", "", "VM configuration file (VM_CONFIGURATION), optional")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *config == "" || *backend == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	level, err := proxywasm.ParseLogLevel(*logLevel)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm-proxy:", err)
		return 2
	}
	be, err := url.Parse(*backend)
	if err != nil || (be.Scheme != "http" && be.Scheme != "https") || be.Host == "" {
		fmt.Fprintf(stderr, "celwasm-proxy: --backend %q is not an http(s) URL\n", *backend)
		return 2
	}
	pluginConfig, err := os.ReadFile(*config)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm-proxy:", err)
		return 2
	}
	var vmConf []byte
	if *vmConfig != "" {
		if vmConf, err = os.ReadFile(*vmConfig); err != nil {
			fmt.Fprintln(stderr, "celwasm-proxy:", err)
			return 2
		}
	}
	wasm, path, err := readModule(*modulePath)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm-proxy:", err)
		return 1
	}
	start := time.Now()
	mod, err := proxywasm.Compile(ctx, wasm)
	if err != nil {
		fmt.Fprintf(stderr, "celwasm-proxy: %s: %v\n", path, err)
		return 1
	}
	defer mod.Close(context.Background())
	plugin, err := mod.NewPlugin(ctx, proxywasm.PluginConfig{
		Configuration: pluginConfig, VMConfiguration: vmConf,
		Name: *pluginName, VMID: *vmID, Workers: *workers, LogLevel: level,
		Log: func(e proxywasm.LogEntry) {
			fmt.Fprintf(stderr, "%s [%s] %s\n", time.Now().Format("2006-01-02T15:04:05.000"), e.Level, e.Message)
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "celwasm-proxy: %s: %v\n", *config, err)
		return 1
	}
	defer plugin.Close(context.Background())

	l, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm-proxy:", err)
		return 1
	}
	srv := proxywasm.NewServer(proxywasm.NewReverseProxy(plugin, be))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	addr := l.Addr().String()
	fmt.Fprintf(stdout, "celwasm-proxy: filter %s (sha256 %s…) started in %v; listening on http://%s, forwarding to %s\n",
		path, mod.SHA256()[:12], time.Since(start).Round(time.Millisecond), addr, be)
	if ready != nil {
		ready <- addr
	}
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		st, _ := plugin.Stats(false)
		fmt.Fprintf(stdout, "celwasm-proxy: shut down after %d requests (%d answered by the filter, %d VM traps)\n", st.Streams, st.LocalResponses, st.Traps)
		return 0
	case err := <-done:
		if errors.Is(err, http.ErrServerClosed) {
			return 0
		}
		fmt.Fprintln(stderr, "celwasm-proxy:", err)
		return 1
	}
}

// readModule finds the filter module.
func readModule(path string) ([]byte, string, error) {
	var candidates []string
	if path != "" {
		candidates = []string{path}
	} else {
		if p := os.Getenv("CELWASM_PROXYWASM_MODULE"); p != "" {
			candidates = append(candidates, p)
		}
		candidates = append(candidates, filepath.Join("build", "celwasm-proxywasm.wasm"))
		if exe, err := os.Executable(); err == nil {
			candidates = append(candidates, filepath.Join(filepath.Dir(exe), "celwasm-proxywasm.wasm"))
		}
	}
	for _, c := range candidates {
		if b, err := os.ReadFile(c); err == nil {
			return b, c, nil
		} else if path != "" {
			return nil, "", err
		}
	}
	return nil, "", fmt.Errorf("no filter module found (tried %v); build it with `make -C wasm/proxywasm module` or pass --module", candidates)
}
