//go:build wasip1

// Command proxywasm is the celwasm proxy-wasm HTTP filter: the celwasm engine
// (the same wasm/engine package as the main module) behind the proxy-wasm
// ABI v0.2.1, built with GOOS=wasip1 GOARCH=wasm -buildmode=c-shared into
// build/celwasm-proxywasm.wasm. Envoy (envoy.filters.http.wasm) or any
// proxy-wasm host loads it; the plugin configuration holds CEL rules over
// Envoy's attributes (docs/proxy-wasm.md).
package main

import (
	// First: klog needs os.Args[0], which proxy-wasm hosts do not pass.
	_ "github.com/celwasm/celwasm/wasm/proxywasm/argv0"

	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"unsafe"

	"github.com/celwasm/celwasm/wasm/proxywasm/abi"
	"github.com/celwasm/celwasm/wasm/proxywasm/filter"
)

func init() {
	abi.SetNewRoot(func(id uint32) abi.Root { return &root{id: id} })
}

func main() {}

// root is a plugin context: the configured filter.
type root struct {
	id     uint32
	filter *filter.Filter
}

func (r *root) OnVMStart([]byte) bool { return true }

func (r *root) OnConfigure(config []byte) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			abi.Log(abi.LogCritical, fmt.Sprint("celwasm: plugin configuration rejected: internal error: ", p))
			ok = false
		}
	}()
	f, err := filter.New(config)
	if err != nil {
		abi.Log(abi.LogError, "celwasm: plugin configuration rejected: "+err.Error())
		return false
	}
	f.Log = func(level abi.LogLevel, msg string) { abi.Log(level, msg) }
	r.filter = f
	abi.Log(abi.LogInfo, "celwasm: "+f.Summary())
	// The configuration's garbage (environment construction, parsing) is
	// collected now rather than during the first requests.
	runtime.GC()
	debug.SetGCPercent(f.Config.GCPercent)
	return true
}

func (r *root) NewHTTP(uint32) abi.HTTP {
	requests++
	return &stream{root: r}
}

var requests uint64

// stream is an HTTP stream context.
type stream struct {
	root *root
}

func (s *stream) OnRequestHeaders(int, bool) (action abi.Action) {
	f := s.root.filter
	if f == nil {
		// Hosts do not start streams on a plugin whose configure failed;
		// fail closed if one does.
		abi.SendLocalResponse(500, "celwasm_not_configured", []byte("celwasm filter is not configured\n"), nil, abi.NoGRPCStatus)
		return abi.ActionPause
	}
	defer func() {
		if p := recover(); p != nil {
			abi.Log(abi.LogCritical, fmt.Sprint("celwasm: internal error: ", p))
			abi.SendLocalResponse(500, filter.DetailsError, []byte("internal error\n"), nil, abi.NoGRPCStatus)
			action = abi.ActionPause
		}
	}()
	d := f.Decide(host{})
	header := f.Config.RuleHeader
	if d.Allow {
		if header != "" {
			if d.Rule != "" {
				abi.ReplaceHeaderMapValue(abi.MapHTTPRequestHeaders, header, d.Rule)
			} else {
				abi.RemoveHeaderMapValue(abi.MapHTTPRequestHeaders, header)
			}
		}
		return abi.ActionContinue
	}
	var headers []abi.Pair
	if header != "" && d.Rule != "" {
		headers = []abi.Pair{{Key: header, Value: d.Rule}}
	}
	if st := abi.SendLocalResponse(d.Status, d.Details, []byte(d.Body), headers, abi.NoGRPCStatus); st != abi.StatusOK {
		abi.Log(abi.LogError, "celwasm: proxy_send_local_response: "+st.String())
	}
	return abi.ActionPause
}

func (s *stream) OnDone() bool { return true }
func (s *stream) OnLog()       {}
func (s *stream) OnDelete()    {}

// host reads attributes through the ABI.
type host struct{}

func (host) Property(path ...string) ([]byte, bool, error) {
	b, st := abi.GetProperty(path...)
	switch st {
	case abi.StatusOK:
		return b, true, nil
	case abi.StatusNotFound:
		return nil, false, nil
	}
	return nil, false, st
}

func (host) RequestHeaders() ([]abi.Pair, error) {
	pairs, st := abi.GetHeaderMapPairs(abi.MapHTTPRequestHeaders)
	if st != abi.StatusOK {
		return nil, st
	}
	return pairs, nil
}

// celwasm_proxywasm_stats is a celwasm extension (not part of proxy-wasm):
// it collects garbage and reports the guest's Go heap and live contexts as
// JSON, packed like the main module's responses (address in the high 32
// bits, length in the low 32). The host tests use it to show that memory
// stays flat under load.
//
//go:wasmexport celwasm_proxywasm_stats
func stats() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	roots, streams := abi.Contexts()
	statsBuf, _ = json.Marshal(map[string]uint64{
		"heapAlloc": ms.HeapAlloc, "heapInuse": ms.HeapInuse, "heapSys": ms.HeapSys,
		"sys": ms.Sys, "numGC": uint64(ms.NumGC),
		"rootContexts": uint64(roots), "streamContexts": uint64(streams), "streams": requests,
	})
	return uint64(uintptr(unsafe.Pointer(unsafe.SliceData(statsBuf))))<<32 | uint64(len(statsBuf))
}

var statsBuf []byte
