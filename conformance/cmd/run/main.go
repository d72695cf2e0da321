// Command run runs the conformance corpus through one Go host and writes the
// result file out/conformance/<host>.jsonl (conformance/FORMAT.md):
//
//	native    the module's JSON handler (wasm/abi) compiled natively: cel-go
//	          and the Kubernetes libraries in the same environment, the reference
//	wazero    the WebAssembly module on wazero
//	wasmtime  the WebAssembly module on wasmtime-go
//	wazero-interpreter  the WebAssembly module on wazero's interpreter (what
//	          the CLI answers with while its first compilation runs)
//	extism-go the Extism plugin (-module build/celwasm-extism.wasm) through
//	          Extism's Go SDK (wasm/extism/gosdk)
//
// One module instance runs every test in corpus order; a test's program is
// freed after it. A call that traps is recorded as a host error and the
// instance is replaced.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/celwasm/celwasm/conformance/internal/corpus"
	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmtime"
	"github.com/celwasm/celwasm/wasm/abi"
	_ "github.com/celwasm/celwasm/wasm/events/knative" // every filter dialect, as celwasm-full
	"github.com/celwasm/celwasm/wasm/extism/gosdk"
)

func main() {
	host := flag.String("host", "native", "native, wazero, wasmtime, wazero-interpreter or extism-go")
	dir := flag.String("corpus", "conformance/corpus", "corpus directory")
	outDir := flag.String("out", "out/conformance", "result directory")
	wasmPath := flag.String("module", "", "module file (default: the one embedded in the Go host, host/module/celwasm.wasm)")
	flag.Parse()
	if err := run(*host, *dir, *outDir, *wasmPath); err != nil {
		fmt.Fprintln(os.Stderr, "run:", err)
		os.Exit(1)
	}
}

// Module is the module's JSON interface, in-process or in a WebAssembly
// instance.
type Module interface {
	Compile(req []byte) ([]byte, error)
	Eval(req []byte) ([]byte, error)
	Free(handle uint32) error
	Close() error
}

// evalActivator is a Module with celwasm_eval_activation (the Extism
// plugin has none).
type evalActivator interface {
	// EvalActivation returns celwasm_eval_activation's answer as an eval
	// response (a packed bool spelled out).
	EvalActivation(handle uint32, costLimit uint64, activation []byte) ([]byte, error)
}

func run(host, dir, outDir, wasmPath string) error {
	tests, err := corpus.Read(dir)
	if err != nil {
		return err
	}
	wasm := module.Bytes()
	if wasmPath != "" {
		if wasm, err = os.ReadFile(wasmPath); err != nil {
			return err
		}
	}
	start := time.Now()
	var open func() (Module, error)
	switch host {
	case "native":
		open = func() (Module, error) { return &native{h: abi.NewHandler()}, nil }
	case "wazero", "wasmtime", "wazero-interpreter":
		eng, err := newEngine(host, wasm)
		if err != nil {
			return err
		}
		defer eng.Close(context.Background())
		open = func() (Module, error) { return newInstance(eng) }
	case "extism-go":
		if wasmPath == "" {
			return errors.New("extism-go: -module build/celwasm-extism.wasm is required")
		}
		p, err := gosdk.Load(context.Background(), wasmPath, gosdk.Options{})
		if err != nil {
			return err
		}
		defer p.Close(context.Background())
		open = func() (Module, error) { return p.Instance(context.Background()) }
	default:
		return fmt.Errorf("unknown host %q (native, wazero, wasmtime, wazero-interpreter, extism-go)", host)
	}
	loaded := time.Since(start)
	m, err := open()
	if err != nil {
		return err
	}
	defer func() { m.Close() }()

	var out bytes.Buffer
	hostErrors := 0
	for _, t := range tests {
		line, failed := runTest(m, t)
		if failed {
			hostErrors++
			m.Close()
			if m, err = open(); err != nil {
				return err
			}
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(outDir, host+".jsonl")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d tests in %.1fs (module load %.1fs), %d host errors → %s; %d evaluations answered the same through celwasm_eval_activation\n",
		host, len(tests), time.Since(start).Seconds(), loaded.Seconds(), hostErrors, path, crossChecked)
	return nil
}

// runTest runs one test and returns its result line; failed reports a host
// failure, after which the instance must be replaced.
func runTest(m Module, t corpus.Test) (line []byte, failed bool) {
	id, _ := corpus.Marshal(t.ID)
	if t.Skip != "" {
		return fmt.Appendf(nil, `{"id":%s,"skip":true}`, id), false
	}
	hostErr := func(err error) ([]byte, bool) {
		fmt.Fprintf(os.Stderr, "%s: %v\n", t.ID, err)
		return fmt.Appendf(nil, `{"id":%s,"hostError":"trap"}`, id), true
	}
	resp, err := m.Compile(t.Compile)
	if err != nil {
		return hostErr(err)
	}
	handle, compile, ok := stripHandle(resp)
	line = fmt.Appendf(nil, `{"id":%s,"compile":`, id)
	line = append(line, compile...)
	line = append(line, `,"eval":`...)
	if !ok || t.Eval == nil {
		return append(line, "null}"...), false
	}
	req := []byte(`{"program":` + strconv.FormatUint(uint64(handle), 10))
	if ev := bytes.TrimSpace(t.Eval); len(ev) > 2 {
		req = append(req, ',')
		req = append(req, ev[1:]...)
	} else {
		req = append(req, '}')
	}
	resp, err = m.Eval(req)
	if err != nil {
		return hostErr(err)
	}
	// The integer envelope must answer the same bytes (docs/abi.md,
	// eval_activation); a difference is a host error.
	ea, hasEA := m.(evalActivator)
	if act, limit, ok := plainEval(t.Eval); hasEA && ok && !bytes.Contains(resp, []byte(`"code":"invalid_activation"`)) && !bytes.Contains(resp, []byte(`"code":"bad_request"`)) {
		alt, err := ea.EvalActivation(handle, limit, act)
		if err != nil {
			return hostErr(err)
		}
		if !bytes.Equal(alt, resp) {
			return hostErr(fmt.Errorf("celwasm_eval_activation answered %s, celwasm_eval %s", alt, resp))
		}
		crossChecked++
	}
	line = append(line, resp...)
	line = append(line, '}')
	if err := m.Free(handle); err != nil {
		return hostErr(err)
	}
	return line, false
}

// crossChecked counts the evaluations also run through
// celwasm_eval_activation with the same answer.
var crossChecked int

// plainEval returns the activation ({} when absent) and cost limit of an
// eval request that has nothing else (what celwasm_eval_activation takes).
func plainEval(ev []byte) (activation []byte, costLimit uint64, ok bool) {
	var members map[string]json.RawMessage
	if json.Unmarshal(ev, &members) != nil {
		return nil, 0, false
	}
	activation = []byte("{}") // eval's default
	for k, v := range members {
		switch k {
		case "activation":
			activation = v
		case "costLimit":
			n, err := strconv.ParseUint(string(v), 10, 64)
			if err != nil {
				return nil, 0, false
			}
			costLimit = n
		default:
			return nil, 0, false
		}
	}
	return activation, costLimit, true
}

// evalActivationResponse spells out celwasm_eval_activation's result as the
// eval response it stands for.
func evalActivationResponse(packed uint64, resp []byte) []byte {
	if packed>>32 == 0 && packed != 0 {
		v := map[uint64]string{abi.ScalarFalse >> 30: "false", abi.ScalarTrue >> 30: "true"}[packed>>30]
		return fmt.Appendf(nil, `{"value":%s,"cost":%d}`, v, packed&abi.ScalarCostMask)
	}
	return resp
}

// stripHandle turns a successful compile response {"program":N,...} into
// {...} and returns N; other responses are returned as they are.
func stripHandle(resp []byte) (uint32, []byte, bool) {
	const prefix = `{"program":`
	if !bytes.HasPrefix(resp, []byte(prefix)) {
		return 0, resp, false
	}
	rest := resp[len(prefix):]
	i := bytes.IndexByte(rest, ',')
	if i < 0 {
		return 0, resp, false
	}
	n, err := strconv.ParseUint(string(rest[:i]), 10, 32)
	if err != nil {
		return 0, resp, false
	}
	return uint32(n), append([]byte("{"), rest[i+1:]...), true
}

type native struct{ h *abi.Handler }

func (n *native) Compile(req []byte) ([]byte, error) { return bytes.Clone(n.h.Compile(req)), nil }
func (n *native) Eval(req []byte) ([]byte, error)    { return bytes.Clone(n.h.Eval(req)), nil }
func (n *native) EvalActivation(h uint32, limit uint64, act []byte) ([]byte, error) {
	packed, resp := n.h.EvalActivation(h, limit, act)
	return evalActivationResponse(uint64(packed), bytes.Clone(resp)), nil
}
func (n *native) Free(h uint32) error { n.h.Free(h); return nil }
func (n *native) Close() error        { return nil }

// newEngine compiles the module for a runtime, with the Go host's code cache
// ($XDG_CACHE_HOME/celwasm/<runtime>, as celwasm.New uses).
func newEngine(name string, wasm []byte) (celwasm.Engine, error) {
	cache := ""
	if d, err := os.UserCacheDir(); err == nil {
		cache = filepath.Join(d, "celwasm", name)
	}
	cfg := celwasm.EngineConfig{CacheDir: cache, MemoryLimitBytes: celwasm.DefaultMemoryLimit}
	ctx := context.Background()
	switch name {
	case "wasmtime":
		return wasmtime.NewEngine(ctx, celwasm.ModuleBytes(wasm), cfg)
	case "wazero-interpreter":
		return celwasm.NewWazeroInterpreterEngine(ctx, celwasm.ModuleBytes(wasm), cfg)
	}
	return celwasm.NewWazeroEngine(ctx, celwasm.ModuleBytes(wasm), cfg)
}

// instance drives one module instance through its exports (docs/abi.md).
type instance struct {
	in     celwasm.Instance
	buf    uint32
	bufCap uint32
	stderr bytes.Buffer
}

func newInstance(eng celwasm.Engine) (*instance, error) {
	i := &instance{}
	in, err := eng.Instantiate(context.Background(), celwasm.InstanceConfig{Args: []string{"celwasm"}, Stderr: &i.stderr})
	if err != nil {
		return nil, fmt.Errorf("instantiate: %v", err)
	}
	i.in = in
	return i, nil
}

func (i *instance) EvalActivation(h uint32, limit uint64, act []byte) ([]byte, error) {
	return i.call(celwasm.ExportEvalActivation, act, h, uint32(limit), uint32(limit>>32))
}

// call writes req into the request buffer and calls fn with the arguments
// lead, then the buffer's address and req's length.
func (i *instance) call(fn celwasm.Export, req []byte, lead ...uint32) ([]byte, error) {
	ctx := context.Background()
	n := uint32(len(req))
	if n > i.bufCap {
		if i.bufCap > 0 {
			if _, err := i.in.Call(ctx, celwasm.ExportDealloc, i.buf); err != nil {
				return nil, i.fail(err)
			}
		}
		c := max(n, 64<<10)
		p, err := i.in.Call(ctx, celwasm.ExportAlloc, c)
		if err != nil {
			i.bufCap = 0
			return nil, i.fail(err)
		}
		i.buf, i.bufCap = uint32(p), c
	}
	mem := i.in.Memory()
	if uint64(i.buf)+uint64(n) > uint64(len(mem)) {
		return nil, errors.New("request buffer outside guest memory")
	}
	copy(mem[i.buf:], req)
	res, err := i.in.Call(ctx, fn, append(lead, i.buf, n)...)
	if err != nil {
		return nil, i.fail(err)
	}
	if fn == celwasm.ExportEvalActivation && res>>32 == 0 {
		return evalActivationResponse(res, nil), nil
	}
	ptr, size := uint32(res>>32), uint32(res)
	mem = i.in.Memory()
	if uint64(ptr)+uint64(size) > uint64(len(mem)) {
		return nil, errors.New("response outside guest memory")
	}
	return bytes.Clone(mem[ptr : ptr+size]), nil
}

func (i *instance) fail(err error) error {
	tail := i.stderr.Bytes()
	if len(tail) > 2000 {
		tail = tail[len(tail)-2000:]
	}
	return fmt.Errorf("%v; guest stderr: %q", err, tail)
}

func (i *instance) Compile(req []byte) ([]byte, error) { return i.call(celwasm.ExportCompile, req) }
func (i *instance) Eval(req []byte) ([]byte, error)    { return i.call(celwasm.ExportEval, req) }
func (i *instance) Free(h uint32) error {
	_, err := i.in.Call(context.Background(), celwasm.ExportFree, h)
	return err
}
func (i *instance) Close() error { return i.in.Close(context.Background()) }
