// Command soak evaluates one program a million times on one instance of the
// Go host (wazero or wasmtime-go), every input different and every result
// checked, and prints the guest's linear memory and the process RSS after a
// warm-up (the first quarter) and at the end as one JSON line (make soak; docs/reliability.md).
//
//	go run ./internal/soak -engine wasmtime -evals 1000000
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/wasmtime"
)

func rss() uint64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseUint(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

func main() {
	engine := flag.String("engine", "wasmtime", "wazero or wasmtime")
	evals := flag.Int("evals", 1_000_000, "evaluations")
	heapProfile := flag.String("memprofile", "", "write a heap profile here at the end")
	flag.Parse()
	ctx := context.Background()
	opts := []celwasm.Option{celwasm.WithInstances(1)}
	if *engine == "wasmtime" {
		opts = append(opts, wasmtime.Option())
	}
	rt, err := celwasm.New(ctx, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer rt.Close(ctx)
	prg, err := rt.NewEnv(celwasm.Variable("self", "dyn")).Compile(ctx,
		"self.items.filter(i, i.ok).map(i, i.name + '-' + string(self.id))")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	warm, step := *evals/4, max(*evals/10, 1)
	var warmGuest, warmRSS uint64
	var act, want []byte
	for i := 0; i < *evals; i++ {
		act = fmt.Appendf(act[:0], `{"self":{"id":%d,"items":[{"name":"a","ok":true},{"name":"b%d","ok":%t},{"name":"c","ok":false}]}}`, i, i, i%2 == 0)
		res, err := prg.Eval(ctx, act)
		if err != nil {
			fmt.Fprintln(os.Stderr, "eval", i, err)
			os.Exit(1)
		}
		want = fmt.Appendf(want[:0], `["a-%d"`, i)
		if i%2 == 0 {
			want = fmt.Appendf(want, `,"b%d-%d"`, i, i)
		}
		want = append(want, ']')
		if !bytes.Equal(res.JSON, want) {
			fmt.Fprintf(os.Stderr, "eval %d: got %s, want %s\n", i, res.JSON, want)
			os.Exit(1)
		}
		if i+1 == warm {
			warmGuest, warmRSS = rt.MemoryBytes(), rss()
		}
		if (i+1)%step == 0 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			fmt.Fprintf(os.Stderr, "soak go-%s: %d evaluations, guest %d bytes, RSS %d bytes, Go heap %d bytes, Go sys %d bytes, goroutines %d\n",
				*engine, i+1, rt.MemoryBytes(), rss(), ms.HeapInuse, ms.Sys, runtime.NumGoroutine())
		}
	}
	if *heapProfile != "" {
		runtime.GC()
		if f, err := os.Create(*heapProfile); err == nil {
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
	out, _ := json.Marshal(map[string]any{"host": "go-" + *engine, "evals": *evals,
		"guestWarm": warmGuest, "guestEnd": rt.MemoryBytes(), "rssWarm": warmRSS, "rssEnd": rss()})
	fmt.Println(string(out))
}
