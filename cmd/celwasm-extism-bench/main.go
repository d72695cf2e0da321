// Command celwasm-extism-bench measures what Extism's calling convention
// adds to a call of the celwasm engine: the eval of the program `true`
// through the Extism plugin (build/celwasm-extism.wasm, Extism's Go SDK) and
// through the raw ABI of the main module (build/celwasm.wasm,
// celwasm_eval), both on wazero (the same version, the same process). It
// writes build/bench/extism.json in the common benchmark format:
//
//	go run ./cmd/celwasm-extism-bench -plugin build/celwasm-extism.wasm -module build/celwasm.wasm
//
// Each side runs -rounds rounds of -calls calls; a round's time per call is
// one sample, and the median of the samples is reported. The raw side
// writes the request into a guest buffer from celwasm_alloc once and reads
// the response out of guest memory, as a host does.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/celwasm/celwasm/internal/benchdoc"

	extism "github.com/extism/go-sdk"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/wasm/extism/gosdk"
)

const (
	compileReq = `{"expression":"true"}`
	wantResp   = `{"value":true,"cost":0}`
)

func main() {
	pluginPath := flag.String("plugin", "build/celwasm-extism.wasm", "the Extism plugin")
	modulePath := flag.String("module", "build/celwasm.wasm", "the raw module")
	out := flag.String("o", "build/bench", "output directory (writes extism.json)")
	rounds := flag.Int("rounds", 15, "rounds per side")
	calls := flag.Int("calls", 2000, "calls per round")
	flag.Parse()
	if err := run(*pluginPath, *modulePath, *out, *rounds, *calls); err != nil {
		fmt.Fprintln(os.Stderr, "celwasm-extism-bench:", err)
		os.Exit(1)
	}
}

// sampler times rounds of calls of f and returns each round's µs per call.
func sampler(rounds, calls int, f func() error) ([]float64, error) {
	for range calls / 10 { // warm-up
		if err := f(); err != nil {
			return nil, err
		}
	}
	samples := make([]float64, rounds)
	for r := range samples {
		start := time.Now()
		for range calls {
			if err := f(); err != nil {
				return nil, err
			}
		}
		samples[r] = float64(time.Since(start).Microseconds()) / float64(calls)
	}
	return samples, nil
}

func median(s []float64) float64 {
	c := append([]float64(nil), s...)
	sort.Float64s(c)
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func fileSHA(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

func run(pluginPath, modulePath, out string, rounds, calls int) error {
	res := benchdoc.New("extism", "Extism: the plugin's call overhead against the raw ABI", "make -C wasm/extism bench")
	ctx := context.Background()

	// Extism: one instance, one program, eval of it over and over.
	p, err := gosdk.Load(ctx, pluginPath, gosdk.Options{})
	if err != nil {
		return err
	}
	defer p.Close(ctx)
	in, err := p.Instance(ctx)
	if err != nil {
		return err
	}
	defer in.Close()
	resp, err := in.Compile([]byte(compileReq))
	if err != nil {
		return err
	}
	var c struct{ Program uint32 }
	if err := json.Unmarshal(resp, &c); err != nil || c.Program == 0 {
		return fmt.Errorf("extism compile: %s", resp)
	}
	extismReq := []byte(fmt.Sprintf(`{"program":%d}`, c.Program))
	extismSamples, err := sampler(rounds, calls, func() error {
		r, err := in.Eval(extismReq)
		if err == nil && string(r) != wantResp {
			err = fmt.Errorf("extism eval: %s", r)
		}
		return err
	})
	if err != nil {
		return err
	}

	// The raw ABI on wazero.
	wasm, err := os.ReadFile(modulePath)
	if err != nil {
		return err
	}
	cache := ""
	if d, err := os.UserCacheDir(); err == nil {
		cache = filepath.Join(d, "celwasm", "wazero")
	}
	eng, err := celwasm.NewWazeroEngine(ctx, celwasm.ModuleBytes(wasm), celwasm.EngineConfig{CacheDir: cache, MemoryLimitBytes: celwasm.DefaultMemoryLimit})
	if err != nil {
		return err
	}
	defer eng.Close(ctx)
	ri, err := eng.Instantiate(ctx, celwasm.InstanceConfig{Args: []string{"celwasm"}, Stderr: os.Stderr})
	if err != nil {
		return err
	}
	defer ri.Close(ctx)
	bufAddr, err := ri.Call(ctx, celwasm.ExportAlloc, 64<<10)
	if err != nil {
		return err
	}
	buf := uint32(bufAddr)
	rawCall := func(fn celwasm.Export, req []byte) ([]byte, error) {
		copy(ri.Memory()[buf:], req)
		res, err := ri.Call(ctx, fn, buf, uint32(len(req)))
		if err != nil {
			return nil, err
		}
		ptr, n := uint32(res>>32), uint32(res)
		return bytes.Clone(ri.Memory()[ptr : ptr+n]), nil
	}
	resp, err = rawCall(celwasm.ExportCompile, []byte(compileReq))
	if err != nil {
		return err
	}
	c.Program = 0
	if err := json.Unmarshal(resp, &c); err != nil || c.Program == 0 {
		return fmt.Errorf("raw compile: %s", resp)
	}
	rawReq := []byte(fmt.Sprintf(`{"program":%d}`, c.Program))
	rawSamples, err := sampler(rounds, calls, func() error {
		r, err := rawCall(celwasm.ExportEval, rawReq)
		if err == nil && string(r) != wantResp {
			err = fmt.Errorf("raw eval: %s", r)
		}
		return err
	})
	if err != nil {
		return err
	}

	em, rm := median(extismSamples), median(rawSamples)
	pluginSHA, err := fileSHA(pluginPath)
	if err != nil {
		return err
	}
	moduleSHA, err := fileSHA(modulePath)
	if err != nil {
		return err
	}
	res.Context = append(res.Context,
		"github.com/extism/go-sdk "+goSDKVersion()+" (Extism runtime "+strings.TrimSpace(extism.RuntimeVersion())+") and the raw ABI, both on wazero "+wazeroVersion(),
		"plugin "+filepath.Base(pluginPath)+" sha256 "+pluginSHA,
		"module "+filepath.Base(modulePath)+" sha256 "+moduleSHA,
		fmt.Sprintf("workload: eval of the compiled program `true` (request %s, response %s); %d rounds of %d calls per side, one instance each; median of the rounds' µs per call", rawReq, wantResp, rounds, calls),
	)
	res.AddTable("eval of `true`, µs per call", "path", "p50 µs", "min µs", "max µs").Rows = [][]any{
		{"Extism plugin (go-sdk: input, call, output)", round2(em), round2(minOf(extismSamples)), round2(maxOf(extismSamples))},
		{"raw ABI (celwasm_eval)", round2(rm), round2(minOf(rawSamples)), round2(maxOf(rawSamples))},
	}
	res.Metrics = map[string]float64{
		"extism.call_overhead_us": round2(em - rm),
		"extism.eval_true_us":     round2(em),
		"extism.raw_eval_true_us": round2(rm),
	}
	f, err := res.Write(out)
	if err != nil {
		return err
	}
	fmt.Printf("extism: eval of true %.2f µs, raw ABI %.2f µs, overhead %.2f µs → %s\n", em, rm, em-rm, f)
	return nil
}

func minOf(s []float64) float64 { c := append([]float64(nil), s...); sort.Float64s(c); return c[0] }
func maxOf(s []float64) float64 {
	c := append([]float64(nil), s...)
	sort.Float64s(c)
	return c[len(c)-1]
}

// goSDKVersion and wazeroVersion are the module versions built in.
func goSDKVersion() string  { return depVersion("github.com/extism/go-sdk") }
func wazeroVersion() string { return depVersion("github.com/tetratelabs/wazero") }
