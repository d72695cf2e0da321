// Package celwasm runs CEL (cel-go with the Kubernetes CEL libraries) from
// the celwasm WebAssembly module, so that Go programs get the same results,
// byte for byte, as every other celwasm host.
//
// The API follows cel-go's shape: a Runtime loads the module; an Env
// (declarations, Kubernetes compatibility version, extensions) compiles an
// expression into a Program; Program.Eval evaluates it against an activation
// and returns the canonical JSON of the value and its actual cost.
//
//	rt, err := celwasm.New(ctx)
//	env := rt.NewEnv(celwasm.Variable("self", "map(string, dyn)"))
//	prg, err := env.Compile(ctx, "self.replicas <= self.maxReplicas")
//	res, err := prg.Eval(ctx, []byte(`{"self":{"replicas":3,"maxReplicas":5}}`))
//	fmt.Println(string(res.JSON), res.Cost) // true 5
//
// Two modules (RATIONALE.md, "Two modules"): a Runtime loads the expression
// module (compile, eval, batches, CEL filters, when); the first request it
// cannot serve — CRD validation or cost, a filter reading Knative's attrs or
// cesql — loads the module that serves everything (celwasm-full) into a
// second pool, with the same options and compile cache.
//
// A Runtime is safe for concurrent use: it keeps a pool of instances, each
// single threaded; a Program compiled once is compiled again lazily in every
// instance that evaluates it. A call whose context is canceled or whose
// instance traps loses that instance, which is replaced; the caller gets an
// *Error and nothing else is affected.
package celwasm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/celwasm/celwasm/wire"

	"github.com/celwasm/celwasm/host/internal/cachedir"
	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmrt"
)

// Defaults.
const (
	// DefaultMemoryLimit caps each instance's linear memory: 1 GiB.
	DefaultMemoryLimit = 1 << 30
	// DefaultCostLimit is kube-apiserver's PerCallLimit, in cost units.
	DefaultCostLimit = 1_000_000
)

type options struct {
	instances   int
	cacheDir    *string
	memoryLimit uint64
	factory     EngineFactory
	engineName  string
	wasm        []byte
	fullWasm    []byte
	fullSHA     func() string // sha256 of fullWasm, hashed once
	stderr      *os.File
	gcPercent   int
	beforeLoad  func(module, cacheDir string)
	compiling   func(module, cacheDir string)
	full        bool // this Runtime runs celwasm-full (no further module)
	admission   bool // this Runtime runs celwasm-admission
}

// Option configures a Runtime.
type Option func(*options)

// WithInstances sets the most instances the pool keeps (default GOMAXPROCS).
func WithInstances(n int) Option { return func(o *options) { o.instances = n } }

// WithCacheDir sets the compiled-code cache directory; "" disables caching.
// Default: $XDG_CACHE_HOME/celwasm/<engine> (os.UserCacheDir).
func WithCacheDir(dir string) Option { return func(o *options) { o.cacheDir = &dir } }

// WithMemoryLimit caps each instance's linear memory in bytes (default 1 GiB).
// An instance that needs more traps and is replaced.
func WithMemoryLimit(bytes uint64) Option { return func(o *options) { o.memoryLimit = bytes } }

// WithEngine selects the WebAssembly runtime (default wazero). name labels
// the cache directory, e.g. "wasmtime".
func WithEngine(name string, f EngineFactory) Option {
	return func(o *options) { o.factory, o.engineName = f, name }
}

// WithModule runs the given module bytes instead of the embedded expression
// module.
func WithModule(wasm []byte) Option { return func(o *options) { o.wasm = wasm } }

// WithFullModule runs the given module bytes instead of the embedded
// celwasm-full, the module loaded for requests the first one answers with
// code "needs_module".
func WithFullModule(wasm []byte) Option {
	return func(o *options) {
		o.fullWasm = wasm
		o.fullSHA = sync.OnceValue(func() string { return sum256(wasm) })
	}
}

// WithBeforeLoad calls f before a module is loaded, whether it is compiled
// or read back from the compile cache: module is its name ("celwasm",
// "celwasm-full", "celwasm-admission"), cacheDir its compile cache
// directory ("" without one).
func WithBeforeLoad(f func(module, cacheDir string)) Option {
	return func(o *options) { o.beforeLoad = f }
}

// WithBeforeCompile calls f before a module is compiled, which takes 5-60 s
// (a first run, or no cache directory), and not when its compiled code is
// read back from the cache; the arguments are WithBeforeLoad's. wasmtime
// calls it when its cache has no code for this module, wasmtime version and
// compiler setting; wazero, which does not tell, when the cache directory is
// missing or empty. The CLI prints its progress line from here.
func WithBeforeCompile(f func(module, cacheDir string)) Option {
	return func(o *options) { o.compiling = f }
}

// WithGuestGC sets the garbage collection target of the Go runtime inside
// each instance (GOGC; by default 100 in the expression module, Go's own,
// and 200 in celwasm-full, which validates CRDs). A higher value trades
// memory for fewer collections, which pays off for allocation-heavy work
// such as CRD validation; with 400, an instance running nested map
// comprehensions grew from 31 MiB to 117 MiB of linear memory, and
// celwasm-full's default costs about 20 MiB per instance over 100
// (RATIONALE.md, "celwasm-full collects at GOGC 200").
func WithGuestGC(percent int) Option { return func(o *options) { o.gcPercent = percent } }

// WithGuestStderr copies the guest's stderr to f (default: kept only for
// trap messages).
func WithGuestStderr(f *os.File) Option { return func(o *options) { o.stderr = f } }

// Runtime is a loaded celwasm module with a pool of instances.
type Runtime struct {
	sha    string // the module's sha256, hex
	size   int    // the module's size, bytes
	engine Engine
	opts   options

	idle  chan *instance
	slots chan struct{}

	mu     sync.Mutex
	live   map[*instance]struct{}
	closed atomic.Bool // read without mu on every call

	nextProgram atomic.Uint64

	full      lazyRuntime // celwasm-full, loaded on first need
	admission lazyRuntime // celwasm-admission, loaded on first admit
}

// lazyRuntime is the Runtime of a module loaded on first need.
type lazyRuntime struct {
	mu sync.Mutex
	rt *Runtime
}

// get returns l's Runtime, loading it with r's options changed by set.
func (l *lazyRuntime) get(ctx context.Context, r *Runtime, set func(*options)) (*Runtime, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.closed.Load() {
		return nil, &Error{Code: CodeClosed, Message: "runtime is closed"}
	}
	if l.rt == nil {
		o := r.opts
		set(&o)
		rt, err := New(ctx, func(dst *options) { *dst = o })
		if err != nil {
			return nil, err
		}
		l.rt = rt
	}
	return l.rt, nil
}

// loaded returns l's Runtime, nil when it is not loaded.
func (l *lazyRuntime) loaded() *Runtime {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rt
}

// close closes l's Runtime if it was loaded.
func (l *lazyRuntime) close(ctx context.Context) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rt != nil {
		l.rt.Close(ctx)
	}
}

// New compiles the module (from the cache when possible) and creates the
// first instance, so that a broken setup fails here.
func New(ctx context.Context, opts ...Option) (*Runtime, error) {
	o := options{instances: runtime.GOMAXPROCS(0), memoryLimit: DefaultMemoryLimit, factory: NewWazeroEngine, engineName: "wazero"}
	for _, opt := range opts {
		opt(&o)
	}
	if o.instances < 1 {
		o.instances = 1
	}
	name, src, size := module.Expr.Name, wasmrt.Module{}, 0
	embedded := func(m *module.Module) {
		name, src, size = m.Name, EmbeddedModule(m), m.Size()
	}
	switch {
	case o.admission:
		embedded(module.Admission)
	case o.full && o.fullWasm == nil:
		embedded(module.Full)
	case o.full:
		wasm := o.fullWasm
		name, size = module.Full.Name, len(wasm)
		src = wasmrt.Module{SHA256: o.fullSHA(), Bytes: func() ([]byte, error) { return wasm, nil }}
	case o.wasm == nil:
		embedded(module.Expr)
	default:
		src, size = wasmrt.ModuleBytes(o.wasm), len(o.wasm)
	}
	sha := src.SHA256
	cacheDir := ""
	if o.cacheDir != nil {
		cacheDir = *o.cacheDir
	} else if d, err := os.UserCacheDir(); err == nil {
		cacheDir = filepath.Join(d, "celwasm", o.engineName)
	}
	if cacheDir != "" {
		cacheDir = ModuleCacheDir(cacheDir, sha)
	}
	if o.beforeLoad != nil {
		o.beforeLoad(name, cacheDir)
	}
	cfg := EngineConfig{CacheDir: cacheDir, MemoryLimitBytes: o.memoryLimit}
	if o.compiling != nil {
		cfg.Compiling = func() { o.compiling(name, cacheDir) }
	}
	eng, err := o.factory(ctx, src, cfg)
	if err != nil {
		return nil, &Error{Code: CodeTrap, Message: "load module: " + err.Error(), Err: err}
	}
	r := &Runtime{
		sha:    sha,
		size:   size,
		engine: eng,
		opts:   o,
		idle:   make(chan *instance, o.instances),
		slots:  make(chan struct{}, o.instances),
		live:   map[*instance]struct{}{},
	}
	r.slots <- struct{}{}
	in, err := r.newInstance(ctx)
	if err != nil {
		eng.Close(ctx)
		return nil, err
	}
	r.idle <- in
	return r, nil
}

// MemoryBytes is the linear memory of the runtime's idle instances, in bytes
// (an instance busy in a call is not counted). WebAssembly memory only
// grows, so it is the most any call has needed, up to WithMemoryLimit.
func (r *Runtime) MemoryBytes() uint64 {
	var taken []*instance
	var n uint64
	for {
		select {
		case in := <-r.idle:
			taken = append(taken, in)
			n += uint64(len(in.Memory()))
			continue
		default:
		}
		break
	}
	for _, in := range taken {
		r.idle <- in
	}
	return n
}

// fullRuntime returns the Runtime of celwasm-full, loading it on first use;
// a Runtime that runs celwasm-full returns itself.
func (r *Runtime) fullRuntime(ctx context.Context) (*Runtime, error) {
	if r.opts.full {
		return r, nil
	}
	return r.full.get(ctx, r, func(o *options) { o.full = true })
}

// admissionRuntime returns the Runtime of celwasm-admission, loading it on
// first use.
func (r *Runtime) admissionRuntime(ctx context.Context) (*Runtime, error) {
	if r.opts.admission {
		return r, nil
	}
	return r.admission.get(ctx, r, func(o *options) { o.admission, o.full = true, false })
}

// FullLoaded reports whether celwasm-full has been loaded.
func (r *Runtime) FullLoaded() bool {
	return r.full.loaded() != nil || r.opts.full
}

// Engine returns the name of the WebAssembly runtime in use.
func (r *Runtime) Engine() string { return r.engine.Name() }

// Close releases every instance and the compiled module. Calls still in
// flight fail; later calls fail with code "closed".
func (r *Runtime) Close(ctx context.Context) error {
	if r.closed.Swap(true) {
		return nil
	}
	r.full.close(ctx)
	r.admission.close(ctx)
	for {
		select {
		case in := <-r.idle:
			r.discard(ctx, in)
			continue
		default:
		}
		break
	}
	return r.engine.Close(ctx)
}

// instance is one module instance with the host's bookkeeping.
type instance struct {
	Instance
	handles map[uint64]uint32 // program id -> guest handle
	pending []uint64          // program ids closed since last use (guarded by Runtime.mu)
	// hasPending: pending is not empty (set with Runtime.mu held), so that
	// acquire takes the lock only when there is something to free.
	hasPending atomic.Bool
	buf        uint32 // guest request buffer
	bufCap     uint32
	scratch    []byte
	args       [maxArgs]uint32
	stderr     *tail
	flag       *uint32             // the guest's interrupt flag
	dead       bool                // discarded after a failure; never returned to the pool
	ranger     wasmrt.MemoryRanger // the Instance, when it is one
}

func (r *Runtime) newInstance(ctx context.Context) (*instance, error) {
	t := &tail{}
	var w = &teeWriter{t: t}
	if r.opts.stderr != nil {
		w.f = r.opts.stderr
	}
	cfg := InstanceConfig{Args: []string{"celwasm"}, Stderr: w}
	if r.opts.gcPercent != 0 {
		cfg.Env = append(cfg.Env, "GOGC="+strconv.Itoa(r.opts.gcPercent))
	}
	raw, err := r.engine.Instantiate(context.WithoutCancel(ctx), cfg)
	if err != nil {
		return nil, &Error{Code: CodeTrap, Message: "instantiate: " + err.Error() + t.suffix(), Err: err}
	}
	in := &instance{Instance: raw, handles: map[uint64]uint32{}, stderr: t}
	in.ranger, _ = raw.(wasmrt.MemoryRanger)
	addr, err := raw.Call(ctx, ExportInterruptFlag)
	if err == nil {
		in.flag = raw.Flag(uint32(addr))
	}
	if err != nil || in.flag == nil {
		raw.Close(ctx)
		return nil, &Error{Code: CodeTrap, Message: fmt.Sprintf("instantiate: no interrupt flag (%v)", err), Err: err}
	}
	r.mu.Lock()
	r.live[in] = struct{}{}
	r.mu.Unlock()
	return in, nil
}

// acquire takes an instance from the pool (or makes one); the caller
// returns it with put.
func (r *Runtime) acquire(ctx context.Context) (*instance, error) {
	if ctx.Err() != nil {
		return nil, ctxError(ctx)
	}
	if r.closed.Load() {
		return nil, &Error{Code: CodeClosed, Message: "runtime is closed"}
	}
	var in *instance
	select {
	case in = <-r.idle:
	default:
		select {
		case in = <-r.idle:
		case r.slots <- struct{}{}:
			var err error
			if in, err = r.newInstance(ctx); err != nil {
				<-r.slots
				return nil, err
			}
		case <-ctx.Done():
			return nil, ctxError(ctx)
		}
	}
	if !in.hasPending.Load() {
		return in, nil
	}
	r.mu.Lock()
	pending := in.pending
	in.pending = nil
	in.hasPending.Store(false)
	r.mu.Unlock()
	for _, id := range pending {
		if h, ok := in.handles[id]; ok {
			delete(in.handles, id)
			if _, err := in.Call(context.WithoutCancel(ctx), ExportFree, h); err != nil {
				r.discard(ctx, in)
				return r.acquire(ctx)
			}
		}
	}
	return in, nil
}

// put returns an instance to the pool, unless it was discarded.
func (r *Runtime) put(in *instance) {
	if in.dead {
		return
	}
	if r.closed.Load() {
		r.discard(context.Background(), in)
		return
	}
	r.idle <- in
}

func (r *Runtime) discard(ctx context.Context, in *instance) {
	if in.dead {
		return
	}
	in.dead = true
	r.mu.Lock()
	delete(r.live, in)
	r.mu.Unlock()
	in.Close(context.WithoutCancel(ctx))
	<-r.slots
}

// call sends one request to an export that takes (ptr, len) and returns a
// packed response, and copies the response out. When the instance fails it
// is discarded (in.dead) and a typed error returned; the caller still puts it.
func (r *Runtime) call(ctx context.Context, in *instance, fn Export, req []byte) ([]byte, error) {
	res, err := r.callPacked(ctx, in, fn, req)
	if err != nil {
		return nil, err
	}
	return r.response(ctx, in, res)
}

// callPacked writes req into the instance's request buffer and calls fn
// with the arguments lead (at most 3), then the buffer's address and req's
// length; it returns the export's result.
func (r *Runtime) callPacked(ctx context.Context, in *instance, fn Export, req []byte, lead ...uint32) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, ctxError(ctx)
	}
	n := uint32(len(req))
	if uint64(len(req)) > uint64(^uint32(0)) {
		return 0, &Error{Code: CodeInvalidArgument, Message: "request larger than 4 GiB"}
	}
	if n > in.bufCap {
		newCap := max(n, 2*in.bufCap, 64<<10)
		if in.bufCap > 0 {
			if _, err := in.Call(ctx, ExportDealloc, in.buf); err != nil {
				return 0, r.fail(ctx, in, err)
			}
		}
		ptr, err := in.Call(ctx, ExportAlloc, newCap)
		if err != nil {
			in.bufCap = 0
			return 0, r.fail(ctx, in, err)
		}
		in.buf, in.bufCap = uint32(ptr), newCap
	}
	dst, ok := in.memoryRange(in.buf, n)
	if !ok {
		return 0, r.fail(ctx, in, errors.New("request buffer outside guest memory"))
	}
	copy(dst, req)
	atomic.StoreUint32(in.flag, 0)
	var stop func() bool
	if ctx.Done() != nil {
		flag := in.flag
		stop = context.AfterFunc(ctx, func() { atomic.StoreUint32(flag, 1) })
	}
	args := append(in.args[:0], lead...)
	res, err := in.Call(ctx, fn, append(args, in.buf, n)...)
	if stop != nil {
		stop()
	}
	if err != nil {
		return 0, r.fail(ctx, in, err)
	}
	return res, nil
}

// response copies out the response whose packed address and length res is.
func (r *Runtime) response(ctx context.Context, in *instance, res uint64) ([]byte, error) {
	ptr, size := uint32(res>>32), uint32(res)
	b, ok := in.memoryRange(ptr, size)
	if !ok {
		return nil, r.fail(ctx, in, fmt.Errorf("response [%d, +%d) outside guest memory", ptr, size))
	}
	return bytes.Clone(b), nil
}

// memoryRange is the n bytes at ptr in the instance's linear memory, or
// false when they are not all inside it.
func (in *instance) memoryRange(ptr, n uint32) ([]byte, bool) {
	if in.ranger != nil {
		return in.ranger.MemoryRange(ptr, n)
	}
	mem := in.Memory()
	if uint64(ptr)+uint64(n) > uint64(len(mem)) {
		return nil, false
	}
	return mem[ptr : ptr+n], true
}

// fail discards an instance after a failed call and builds the caller's error.
func (r *Runtime) fail(ctx context.Context, in *instance, err error) error {
	r.discard(ctx, in)
	if ctx.Err() != nil {
		return ctxError(ctx)
	}
	return &Error{Code: CodeTrap, Message: fmt.Sprintf("%s instance failed and was replaced: %s%s", r.engine.Name(), summarize(err), in.stderr.suffix()), Err: err}
}

// summarize keeps a runtime error readable: wasmtime appends a backtrace of
// every wasm frame (thousands for a stack overflow) before the cause.
func summarize(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	if len(lines) <= 3 {
		return strings.Join(lines, "; ")
	}
	last := strings.TrimSpace(lines[len(lines)-1])
	return strings.TrimSpace(lines[0]) + " … (" + strconv.Itoa(len(lines)-2) + " lines) … " + last
}

func ctxError(ctx context.Context) error {
	err := ctx.Err()
	code := CodeCanceled
	if errors.Is(err, context.DeadlineExceeded) {
		code = CodeDeadlineExceeded
	}
	return &Error{Code: code, Message: err.Error(), Err: err}
}

// decodeError returns the *Error of an error response, or nil.
func decodeError(resp []byte) error {
	if !bytes.HasPrefix(resp, []byte(`{"error":`)) {
		return nil
	}
	var e struct {
		Error *Error `json:"error"`
	}
	if err := json.Unmarshal(resp, &e); err != nil || e.Error == nil {
		return &Error{Code: CodeInternal, Message: "malformed error response: " + string(resp)}
	}
	return e.Error
}

// VersionInfo describes the module (wire.VersionInfo: ABI, module, cel-go,
// Kubernetes and Go versions, compatibility versions, extensions, default
// cost limit) and the runtime.
type VersionInfo struct {
	wire.VersionInfo
	// ModuleSHA256 is the hex sha256 of the module bytes in use.
	ModuleSHA256 string `json:"moduleSha256"`
	// Modules describes the three modules: the expression module, then
	// celwasm-full and celwasm-admission (loaded or not).
	Modules []ModuleInfo `json:"modules"`
	// Engine is the WebAssembly runtime: "wazero", "wasmtime" or
	// "wazero-interpreter" (Engine.Name).
	Engine string `json:"engine"`
}

// Version asks the module for its versions.
func (r *Runtime) Version(ctx context.Context) (*VersionInfo, error) {
	in, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer r.put(in)
	res, err := in.Call(ctx, ExportVersion)
	if err != nil {
		return nil, r.fail(ctx, in, err)
	}
	mem := in.Memory()
	ptr, size := uint32(res>>32), uint32(res)
	if uint64(ptr)+uint64(size) > uint64(len(mem)) {
		return nil, r.fail(ctx, in, errors.New("version response outside guest memory"))
	}
	var v VersionInfo
	if err := json.Unmarshal(mem[ptr:ptr+size], &v); err != nil {
		return nil, &Error{Code: CodeInternal, Message: "version: " + err.Error()}
	}
	v.ModuleSHA256 = r.sha
	v.Engine = r.engine.Name()
	v.Modules = []ModuleInfo{{Name: module.Expr.Name, Size: r.size, SHA256: r.sha, Loaded: true}}
	full := ModuleInfo{Name: module.Full.Name}
	if rt := r.full.loaded(); rt != nil {
		full.Size, full.SHA256, full.Loaded = rt.size, rt.sha, true
	} else if r.opts.fullWasm != nil {
		full.Size, full.SHA256 = len(r.opts.fullWasm), r.opts.fullSHA()
	} else {
		full.Size, full.SHA256 = module.Full.Size(), module.Full.SHA256()
	}
	adm := ModuleInfo{Name: module.Admission.Name}
	if rt := r.admission.loaded(); rt != nil {
		adm.Size, adm.SHA256, adm.Loaded = rt.size, rt.sha, true
	} else {
		adm.Size, adm.SHA256 = module.Admission.Size(), module.Admission.SHA256()
	}
	v.Modules = append(v.Modules, full, adm)
	return &v, nil
}

// ModuleInfo describes one module.
type ModuleInfo struct {
	// Name is "celwasm" (expressions), "celwasm-full" (every request but
	// admit) or "celwasm-admission" (admit).
	Name string `json:"name"`
	// Size is the module's size in bytes, uncompressed.
	Size int `json:"size"`
	// SHA256 is the hex sha256 of the module's bytes.
	SHA256 string `json:"sha256"`
	// Loaded reports whether this Runtime has loaded the module.
	Loaded bool `json:"loaded"`
}

func sum256(wasm []byte) string {
	sum := sha256.Sum256(wasm)
	return hex.EncodeToString(sum[:])
}

// DefaultCacheDir is where a Runtime with the given engine name ("wazero",
// "wasmtime") caches the embedded module's compiled code by default.
func DefaultCacheDir(engine string) string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return ModuleCacheDir(filepath.Join(d, "celwasm", engine), module.SHA256())
}

// ModuleCacheDir returns base/<first 16 hex digits of the module's sha256>
// and removes the cache directories of other modules under base that were
// last used more than an hour ago (each holds 100+ MB of compiled code);
// the embedded modules' directories stay.
func ModuleCacheDir(base, sha string) string {
	return cachedir.ForModule(base, sha, module.Expr.SHA256(), module.Full.SHA256(), module.Admission.SHA256())
}

// tail keeps the last bytes a guest wrote to stderr, for trap messages.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = t.buf[len(t.buf)-tailSize:]
	}
	t.mu.Unlock()
	return len(p), nil
}

func (t *tail) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := bytes.TrimSpace(t.buf)
	if len(s) == 0 {
		return ""
	}
	return "; guest stderr: " + strconv.Quote(string(s))
}

type teeWriter struct {
	t *tail
	f *os.File
}

func (w *teeWriter) Write(p []byte) (int, error) {
	w.t.Write(p)
	if w.f != nil {
		w.f.Write(p)
	}
	return len(p), nil
}
