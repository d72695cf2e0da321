package proxywasm_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/celwasm/celwasm/host/proxywasm"
)

// Load: at least 20,000 requests through the proxy, a mix of allowed and
// denied, from 8 concurrent clients over 2 worker VMs. No request may fail,
// every stream context must be gone at the end, and the filter instances'
// memory must stay flat: linear memory and the guest's live Go heap (after
// a collection) are measured after a warm-up and after the load.
func TestLoadMemoryFlat(t *testing.T) {
	if raceEnabled {
		t.Skip("the load test runs without the race detector (make -C wasm/proxywasm test)")
	}
	if testing.Short() {
		t.Skip("-short")
	}
	const (
		warmup = 2000 // per warm-up round
		// At most 15 rounds (30,000 requests) to reach a steady linear
		// memory size; the measured load starts after.
		maxWarmupRounds = 15
		requests        = 20000
		clients         = 8
		workers         = 2
		// Bounds after warm-up: the linear memory of a VM (about 28 MiB)
		// may grow by 4 MiB (the guest's GC settling its heap goal), the
		// live Go heap after a collection by 256 KiB: leaking 16 bytes
		// per request would exceed it.
		maxMemoryGrowth = 4 << 20
		maxHeapGrowth   = 256 << 10
	)
	be := startBackend(t)
	p, lg := newPlugin(t, accessPolicy, workers)
	proxy := startProxy(t, listen(t), p, be.URL)

	type shape struct {
		method, path string
		header       map[string][]string
		body         string
		status       int
		wantBody     string
	}
	shapes := []shape{
		{"GET", "/healthz", nil, "", 200, ""},
		{"GET", "/api/items?page=3", map[string][]string{"X-Team": {"core"}}, "", 200, ""},
		{"POST", "/api/items", map[string][]string{"X-Team": {"core"}, "Authorization": {"Bearer x"}}, `{"n":1}`, 200, ""},
		{"GET", "/admin/secrets", nil, "", 403, "admin is closed\n"},
		{"DELETE", "/api/items/1", map[string][]string{"X-Team": {"core"}}, "", 401, "token required\n"},
		{"GET", "/api/items", map[string][]string{"X-Team": {"web"}}, "", 403, "no rule allows this request\n"},
	}
	var failures atomic.Int64
	var firstFailure sync.Once
	run := func(n int) time.Duration {
		start := time.Now()
		var next atomic.Int64
		var wg sync.WaitGroup
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := next.Add(1) - 1
					if i >= int64(n) {
						return
					}
					s := shapes[i%int64(len(shapes))]
					r, err := tryDo(s.method, proxy+s.path, s.header, s.body)
					ok := err == nil && r.status == s.status && (s.wantBody == "" || r.body == s.wantBody) &&
						(s.status != 200 || (r.echo != nil && r.echo.URI == s.path))
					if !ok {
						failures.Add(1)
						firstFailure.Do(func() { t.Errorf("request %d %s %s: %+v %v", i, s.method, s.path, r, err) })
					}
				}
			}()
		}
		wg.Wait()
		return time.Since(start)
	}

	// Warm up until the VMs' linear memory has grown to the size the
	// guest's collector settles at (its first collections after
	// configure) and then held for a round. Linear memory never shrinks,
	// so the measured load starts at the plateau.
	start, err := p.Stats(false)
	if err != nil {
		t.Fatal(err)
	}
	warmed, grown, last := 0, false, start
	for round := 0; round < maxWarmupRounds; round++ {
		run(warmup)
		warmed += warmup
		st, _ := p.Stats(false)
		same := true
		for i := range st.VMs {
			if st.VMs[i].MemoryBytes != last.VMs[i].MemoryBytes {
				same = false
			}
			if st.VMs[i].MemoryBytes > start.VMs[i].MemoryBytes {
				grown = true
			}
		}
		last = st
		if grown && same {
			break
		}
	}
	before, err := p.Stats(true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("warm-up: %d requests (linear memory after configure: %.1f MiB per VM)", warmed, mib(start.VMs[0].MemoryBytes))
	// Two halves, with a sample between them: flat means the second half
	// does not grow either.
	elapsed := run(requests / 2)
	middle, err := p.Stats(true)
	if err != nil {
		t.Fatal(err)
	}
	elapsed += run(requests / 2)
	after, err := p.Stats(true)
	if err != nil {
		t.Fatal(err)
	}

	report := map[string]any{
		"requests": requests, "warmup": warmed, "clients": clients, "workers": workers,
		"failures": failures.Load(), "seconds": elapsed.Seconds(),
		"requestsPerSecond": float64(requests) / elapsed.Seconds(),
		"streams":           after.Streams, "localResponses": after.LocalResponses, "traps": after.Traps,
	}
	var vms []map[string]any
	for i := range after.VMs {
		b, m, a := before.VMs[i], middle.VMs[i], after.VMs[i]
		vms = append(vms, map[string]any{
			"worker":            i,
			"memoryBytesBefore": b.MemoryBytes, "memoryBytesMiddle": m.MemoryBytes, "memoryBytesAfter": a.MemoryBytes,
			"heapAllocBefore": b.Guest["heapAlloc"], "heapAllocMiddle": m.Guest["heapAlloc"], "heapAllocAfter": a.Guest["heapAlloc"],
			"heapSysBefore": b.Guest["heapSys"], "heapSysAfter": a.Guest["heapSys"],
			"streamContextsAfter": a.Guest["streamContexts"], "streamsServed": a.Guest["streams"],
		})
		t.Logf("VM %d: linear memory %.1f → %.1f → %.1f MiB, live Go heap %.2f → %.2f → %.2f MiB (after warm-up → half → end), %d streams served, %d stream contexts left",
			i, mib(b.MemoryBytes), mib(m.MemoryBytes), mib(a.MemoryBytes),
			mib(b.Guest["heapAlloc"]), mib(m.Guest["heapAlloc"]), mib(a.Guest["heapAlloc"]),
			a.Guest["streams"], a.Guest["streamContexts"])
		if !b.Started || !a.Started {
			t.Errorf("VM %d did not serve the load", i)
			continue
		}
		if a.MemoryBytes > b.MemoryBytes+maxMemoryGrowth {
			t.Errorf("VM %d: linear memory grew from %d to %d bytes", i, b.MemoryBytes, a.MemoryBytes)
		}
		if a.Guest["heapAlloc"] > b.Guest["heapAlloc"]+maxHeapGrowth {
			t.Errorf("VM %d: live heap grew from %d to %d bytes", i, b.Guest["heapAlloc"], a.Guest["heapAlloc"])
		}
		if a.Guest["streamContexts"] != 0 {
			t.Errorf("VM %d: %d stream contexts left after the load", i, a.Guest["streamContexts"])
		}
	}
	report["vms"] = vms
	t.Logf("%d requests in %v (%.0f/s), %d failures, %d local responses, %d traps",
		requests, elapsed.Round(time.Millisecond), float64(requests)/elapsed.Seconds(), failures.Load(), after.LocalResponses-before.LocalResponses, after.Traps)
	if failures.Load() != 0 {
		t.Errorf("%d failed requests", failures.Load())
	}
	if after.Traps != 0 || after.Streams-before.Streams != requests {
		t.Errorf("stats before %+v after %+v", before, after)
	}
	if lg.find(proxywasm.LevelWarn, "") || lg.find(proxywasm.LevelError, "") {
		t.Errorf("warnings or errors logged under load:\n%s", lg)
	}
	if f := os.Getenv("CELWASM_PROXYWASM_LOAD_REPORT"); f != "" {
		b, _ := json.MarshalIndent(report, "", "  ")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Error(err)
		}
	}
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// tryDo is do without failing the test (for goroutines).
func tryDo(method, u string, header map[string][]string, body string) (r response, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	ft := &failT{}
	r = do(ft, method, u, header, body)
	if ft.msg != "" {
		return r, fmt.Errorf("%s", strings.TrimSpace(ft.msg))
	}
	return r, nil
}

// failT turns Fatalf into a panic recovered by tryDo.
type failT struct {
	testing.TB
	msg string
}

func (f *failT) Helper() {}
func (f *failT) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(f.msg)
}
func (f *failT) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	panic(f.msg)
}
