package proxywasm

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// LogLevel is proxy_log_level_t.
type LogLevel uint32

const (
	LevelTrace LogLevel = iota
	LevelDebug
	LevelInfo
	LevelWarn
	LevelError
	LevelCritical
)

var levelNames = [...]string{"trace", "debug", "info", "warn", "error", "critical"}

func (l LogLevel) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("level(%d)", uint32(l))
}

// ParseLogLevel parses a level name.
func ParseLogLevel(s string) (LogLevel, error) {
	for i, n := range levelNames {
		if strings.EqualFold(s, n) {
			return LogLevel(i), nil
		}
	}
	return 0, fmt.Errorf("unknown log level %q (trace, debug, info, warn, error, critical)", s)
}

// LogEntry is one line the guest logged (proxy_log, or a line it wrote to
// stdout (info) or stderr (error) through WASI, as Envoy maps them).
type LogEntry struct {
	Level   LogLevel
	Worker  int
	Message string
}

// PluginConfig configures a plugin: the configuration buffers the guest
// reads and the host's side.
type PluginConfig struct {
	// Configuration is PLUGIN_CONFIGURATION (for the celwasm filter: the
	// rules, JSON).
	Configuration []byte
	// VMConfiguration is VM_CONFIGURATION.
	VMConfiguration []byte
	// Name, RootID and VMID are the plugin_name, plugin_root_id and
	// plugin_vm_id properties.
	Name, RootID, VMID string
	// Workers is the number of VMs (Envoy runs one per worker thread);
	// default GOMAXPROCS. VMs after the first start on first use.
	Workers int
	// Log receives the guest's log lines at or above LogLevel; default:
	// standard error.
	Log func(LogEntry)
	// LogLevel is the minimum level passed to Log (default info).
	LogLevel LogLevel
}

// StartError is a VM that did not start: the guest refused its VM or plugin
// configuration, or trapped while starting. Logs holds what it logged at
// warn or above, where the guest explains why.
type StartError struct {
	Phase string // "instantiate", "vm_start" or "configure"
	Err   error  // a trap or host error, if any
	Logs  []string
}

func (e *StartError) Error() string {
	var b strings.Builder
	switch e.Phase {
	case "configure":
		b.WriteString("the plugin refused its configuration (proxy_on_configure returned false)")
	case "vm_start":
		b.WriteString("the plugin refused its VM configuration (proxy_on_vm_start returned false)")
	default:
		b.WriteString("the module did not start")
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	for _, l := range e.Logs {
		b.WriteString("\n  ")
		b.WriteString(l)
	}
	return b.String()
}

// Plugin is a configured proxy-wasm HTTP filter: a set of worker VMs, each
// with its root context configured. It is safe for concurrent use.
type Plugin struct {
	m       *Module
	cfg     PluginConfig
	workers []*worker
	next    atomic.Uint32

	// Counters.
	streams, localResponses, traps, restarts atomic.Uint64
}

type worker struct {
	p   *Plugin
	idx int
	mu  sync.Mutex
	vm  *vm
}

// NewPlugin starts the first VM (so a configuration the guest refuses fails
// here, with a *StartError carrying the guest's reason).
func (m *Module) NewPlugin(ctx context.Context, cfg PluginConfig) (*Plugin, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Log == nil {
		cfg.Log = func(e LogEntry) {
			fmt.Fprintf(os.Stderr, "%s [wasm %s worker %d] %s\n", time.Now().Format(time.RFC3339), e.Level, e.Worker, e.Message)
		}
	}
	if cfg.RootID == "" {
		cfg.RootID = cfg.Name
	}
	p := &Plugin{m: m, cfg: cfg}
	for i := 0; i < cfg.Workers; i++ {
		p.workers = append(p.workers, &worker{p: p, idx: i})
	}
	w := p.workers[0]
	w.mu.Lock()
	_, err := w.ensureVM(ctx)
	w.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Close closes every VM.
func (p *Plugin) Close(ctx context.Context) error {
	for _, w := range p.workers {
		w.mu.Lock()
		if w.vm != nil {
			w.vm.close(ctx)
			w.vm = nil
		}
		w.mu.Unlock()
	}
	return nil
}

// rootContextID is the id of every VM's single root context; stream ids
// start after it.
const rootContextID = 1

// vm is one module instance with its root context.
type vm struct {
	w     *worker
	mod   api.Module
	mem   api.Memory
	ctx   context.Context // carries the vm to host functions
	fns   struct{ alloc, create, vmStart, configure, reqHeaders, done, log, del, stats api.Function }
	stack [8]uint64
	// allocStack is for proxy_on_memory_allocate, called from host
	// functions while a call on stack is in progress.
	allocStack [1]uint64

	nextID uint32
	// cur is the stream of the callback in progress (nil in root
	// callbacks); buffer is the configuration buffer readable in
	// proxy_on_vm_start / proxy_on_configure.
	cur    *Stream
	buffer []byte
	// startLogs collects warn+ lines while the VM starts, for StartError.
	startLogs *[]string
	stdout    *lineWriter
	stderr    *lineWriter
	dead      bool
}

type vmKey struct{}

func vmFrom(ctx context.Context) *vm {
	v, _ := ctx.Value(vmKey{}).(*vm)
	return v
}

// ensureVM returns the worker's VM, starting one if needed. Call with w.mu
// held.
func (w *worker) ensureVM(ctx context.Context) (*vm, error) {
	if w.vm != nil {
		return w.vm, nil
	}
	v, err := w.p.startVM(ctx, w)
	if err != nil {
		return nil, err
	}
	w.vm = v
	return v, nil
}

func (p *Plugin) startVM(ctx context.Context, w *worker) (*vm, error) {
	v := &vm{w: w, nextID: rootContextID}
	var logs []string
	v.startLogs = &logs
	v.ctx = context.WithValue(context.Background(), vmKey{}, v)
	v.stdout = &lineWriter{v: v, level: LevelInfo}
	v.stderr = &lineWriter{v: v, level: LevelError}
	// As Envoy: no arguments, no environment (the ABI wants
	// args_sizes_get to report none).
	mc := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions("_initialize").
		WithStdout(v.stdout).
		WithStderr(v.stderr).
		WithSysWalltime().
		WithSysNanotime().
		WithSysNanosleep().
		WithRandSource(rand.Reader)
	mod, err := p.m.rt.InstantiateModule(v.ctx, p.m.compiled, mc)
	if err != nil {
		v.flush()
		return nil, &StartError{Phase: "instantiate", Err: err, Logs: logs}
	}
	v.mod, v.mem = mod, mod.Memory()
	f := &v.fns
	f.alloc = mod.ExportedFunction("proxy_on_memory_allocate")
	if f.alloc == nil {
		f.alloc = mod.ExportedFunction("malloc")
	}
	f.create = mod.ExportedFunction("proxy_on_context_create")
	f.vmStart = mod.ExportedFunction("proxy_on_vm_start")
	f.configure = mod.ExportedFunction("proxy_on_configure")
	f.reqHeaders = mod.ExportedFunction("proxy_on_request_headers")
	f.done = mod.ExportedFunction("proxy_on_done")
	f.log = mod.ExportedFunction("proxy_on_log")
	f.del = mod.ExportedFunction("proxy_on_delete")
	f.stats = mod.ExportedFunction("celwasm_proxywasm_stats")
	if f.alloc == nil || f.create == nil {
		mod.Close(ctx)
		return nil, &StartError{Phase: "instantiate", Err: errors.New("the module exports neither proxy_on_memory_allocate nor malloc, or no proxy_on_context_create")}
	}
	if main := mod.ExportedFunction("main"); main != nil {
		// ABI: main is called after _initialize when both exist.
		if _, err := main.Call(v.ctx, 0, 0); err != nil {
			mod.Close(ctx)
			return nil, &StartError{Phase: "instantiate", Err: err, Logs: logs}
		}
	}
	fail := func(phase string, err error) (*vm, error) {
		v.flush()
		mod.Close(ctx)
		return nil, &StartError{Phase: phase, Err: err, Logs: logs}
	}
	if _, err := v.call(f.create, rootContextID, 0); err != nil {
		return fail("instantiate", err)
	}
	if f.vmStart != nil {
		v.buffer = p.cfg.VMConfiguration
		r, err := v.call(f.vmStart, rootContextID, uint64(len(p.cfg.VMConfiguration)))
		v.buffer = nil
		if err != nil {
			return fail("vm_start", err)
		}
		if uint32(r) == 0 {
			return fail("vm_start", nil)
		}
	}
	if f.configure != nil {
		v.buffer = p.cfg.Configuration
		r, err := v.call(f.configure, rootContextID, uint64(len(p.cfg.Configuration)))
		v.buffer = nil
		if err != nil {
			return fail("configure", err)
		}
		if uint32(r) == 0 {
			return fail("configure", nil)
		}
	}
	v.flush()
	v.startLogs = nil
	return v, nil
}

// call calls a guest export with i32 arguments and returns its first result.
func (v *vm) call(fn api.Function, args ...uint64) (uint64, error) {
	st := v.stack[:]
	copy(st, args)
	if err := fn.CallWithStack(v.ctx, st); err != nil {
		v.flush()
		return 0, err
	}
	return st[0], nil
}

func (v *vm) close(ctx context.Context) {
	v.dead = true
	v.flush()
	v.mod.Close(ctx)
}

// trapped discards a VM whose guest trapped; the worker starts a new one on
// its next request.
func (w *worker) trapped(ctx context.Context, v *vm, err error) {
	w.p.traps.Add(1)
	w.p.log(LogEntry{Level: LevelCritical, Worker: w.idx, Message: "VM trapped and is replaced: " + err.Error()})
	v.close(ctx)
	if w.vm == v {
		w.vm = nil
		w.p.restarts.Add(1)
	}
}

func (p *Plugin) log(e LogEntry) {
	if e.Level >= p.cfg.LogLevel {
		p.cfg.Log(e)
	}
}

// guestLog handles one line from the guest.
func (v *vm) guestLog(level LogLevel, msg string) {
	if v.startLogs != nil && level >= LevelWarn {
		*v.startLogs = append(*v.startLogs, level.String()+": "+msg)
	}
	v.w.p.log(LogEntry{Level: level, Worker: v.w.idx, Message: msg})
}

func (v *vm) flush() {
	if v.stdout != nil {
		v.stdout.flush()
		v.stderr.flush()
	}
}

// lineWriter turns the guest's WASI stdout/stderr into log lines.
type lineWriter struct {
	v     *vm
	level LogLevel
	buf   []byte
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.v.guestLog(l.level, string(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
	if len(l.buf) > 64<<10 {
		l.flush()
	}
	return len(p), nil
}

func (l *lineWriter) flush() {
	if len(l.buf) > 0 {
		l.v.guestLog(l.level, string(l.buf))
		l.buf = l.buf[:0]
	}
}

// ---------------------------------------------------------------------------
// Streams.

// LocalResponse is a response the guest sent with proxy_send_local_response
// instead of letting the request go upstream.
type LocalResponse struct {
	Status  int
	Details string
	Body    []byte
	Headers []Pair
}

// Write writes the response; like Envoy, a non-empty body without a
// content-type gets text/plain.
func (lr *LocalResponse) Write(w http.ResponseWriter) {
	h := w.Header()
	for _, p := range lr.Headers {
		h.Add(p.Key, p.Value)
	}
	if len(lr.Body) > 0 && h.Get("Content-Type") == "" {
		h.Set("Content-Type", "text/plain")
	}
	h.Set("Content-Length", fmt.Sprint(len(lr.Body)))
	w.WriteHeader(lr.Status)
	w.Write(lr.Body)
}

// Stream is one HTTP request's stream context on a VM.
type Stream struct {
	p       *Plugin
	w       *worker
	vm      *vm
	id      uint32
	req     *http.Request
	start   time.Time
	headers headerMap
	// modified is set when the guest changed the request headers.
	modified bool
	local    *LocalResponse
	paused   bool
}

// ErrPaused is returned when the guest paused a request without sending a
// local response: resuming (proxy_continue_stream) is not implemented by
// this host, so the request fails (closed).
var ErrPaused = errors.New("the filter paused the request without a local response; this host does not implement resuming")

// FilterRequest runs the filter's request callbacks for r: it creates a
// stream context and calls proxy_on_request_headers. On return either
// LocalResponse is set (the filter answered) or r carries the filter's
// header changes and may go upstream. The caller must Close the stream when
// the request is done (proxy_on_done / proxy_on_log / proxy_on_delete).
// An error (a trap, a VM that cannot start, a pause) means the request must
// not go upstream.
func (p *Plugin) FilterRequest(r *http.Request) (*Stream, error) {
	w := p.workers[int(p.next.Add(1)-1)%len(p.workers)]
	s := &Stream{p: p, w: w, req: r, start: time.Now()}
	if r.Header.Get("X-Request-Id") == "" {
		// Envoy generates a request id before the filters run.
		r.Header.Set("X-Request-Id", newUUID())
	}
	s.headers = requestHeaderMap(r)
	p.streams.Add(1)

	w.mu.Lock()
	defer w.mu.Unlock()
	ctx := r.Context()
	v, err := w.ensureVM(ctx)
	if err != nil {
		return nil, err
	}
	v.nextID++
	if v.nextID == 0 || v.nextID == rootContextID {
		v.nextID = rootContextID + 1
	}
	s.vm, s.id = v, v.nextID
	v.cur = s
	defer func() { v.cur = nil }()
	if _, err := v.call(v.fns.create, uint64(s.id), rootContextID); err != nil {
		w.trapped(ctx, v, err)
		return nil, fmt.Errorf("proxy_on_context_create: %w", err)
	}
	if v.fns.reqHeaders != nil {
		action, err := v.call(v.fns.reqHeaders, uint64(s.id), uint64(s.headers.len()), boolArg(r.ContentLength == 0 && r.Body == http.NoBody))
		if err != nil {
			w.trapped(ctx, v, err)
			return nil, fmt.Errorf("proxy_on_request_headers: %w", err)
		}
		s.paused = uint32(action) == 1
	}
	if s.local != nil {
		p.localResponses.Add(1)
		return s, nil
	}
	if s.paused {
		s.closeLocked(ctx)
		return nil, ErrPaused
	}
	if s.modified {
		s.headers.applyTo(r)
	}
	return s, nil
}

func boolArg(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// LocalResponse is the filter's response, or nil when the request may go
// upstream.
func (s *Stream) LocalResponse() *LocalResponse { return s.local }

// Close ends the stream context: proxy_on_done, proxy_on_log,
// proxy_on_delete.
func (s *Stream) Close() {
	s.w.mu.Lock()
	defer s.w.mu.Unlock()
	s.closeLocked(context.Background())
}

func (s *Stream) closeLocked(ctx context.Context) {
	v := s.vm
	if v == nil || v.dead || s.w.vm != v {
		return // the VM was replaced; the context died with it
	}
	s.vm = nil
	v.cur = s
	defer func() { v.cur = nil }()
	if v.fns.done != nil {
		r, err := v.call(v.fns.done, uint64(s.id))
		if err != nil {
			s.w.trapped(ctx, v, err)
			return
		}
		if uint32(r) == 0 {
			// proxy_done is not implemented: finalize anyway.
			v.guestLog(LevelDebug, fmt.Sprintf("proxy_on_done(%d) returned false; finalizing the context anyway", s.id))
		}
	}
	for _, fn := range []api.Function{v.fns.log, v.fns.del} {
		if fn == nil {
			continue
		}
		if _, err := v.call(fn, uint64(s.id)); err != nil {
			s.w.trapped(ctx, v, err)
			return
		}
	}
}

func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// ---------------------------------------------------------------------------
// Statistics.

// VMStats describes one worker's VM.
type VMStats struct {
	Worker int
	// Started is false for a worker whose VM has not started yet.
	Started bool
	// MemoryBytes is the VM's linear memory size.
	MemoryBytes uint64
	// Guest holds the celwasm filter's own report (celwasm_proxywasm_stats:
	// Go heap after a collection, live contexts), when the module has it.
	Guest map[string]uint64
}

// Stats reports the plugin's counters.
type Stats struct {
	Streams, LocalResponses, Traps, Restarts uint64
	VMs                                      []VMStats
}

// Stats collects statistics; with guest set it also asks each VM for its
// own report (which runs a garbage collection in the guest).
func (p *Plugin) Stats(guest bool) (Stats, error) {
	s := Stats{Streams: p.streams.Load(), LocalResponses: p.localResponses.Load(), Traps: p.traps.Load(), Restarts: p.restarts.Load()}
	for _, w := range p.workers {
		w.mu.Lock()
		vs := VMStats{Worker: w.idx}
		if v := w.vm; v != nil {
			vs.Started = true
			vs.MemoryBytes = uint64(v.mem.Size())
			if guest && v.fns.stats != nil {
				r, err := v.call(v.fns.stats)
				if err != nil {
					w.mu.Unlock()
					return s, err
				}
				b, ok := v.mem.Read(uint32(r>>32), uint32(r))
				if !ok || json.Unmarshal(b, &vs.Guest) != nil {
					w.mu.Unlock()
					return s, fmt.Errorf("celwasm_proxywasm_stats returned no valid report")
				}
				vs.MemoryBytes = uint64(v.mem.Size())
			}
		}
		w.mu.Unlock()
		s.VMs = append(s.VMs, vs)
	}
	return s, nil
}
