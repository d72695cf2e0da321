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

	"fmt"
	"runtime"
	"runtime/debug"

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
	// Metric ids: per rule and counter, and the filter's totals.
	ruleMetrics               [][filter.NumCounters]uint32
	requests, allowed, denied uint32
}

// defineMetrics defines the filter's counters in the host
// (docs/proxy-wasm.md, "Metrics").
func (r *root) defineMetrics(f *filter.Filter) error {
	p := f.Config.StatPrefix
	define := func(name string) (uint32, error) {
		id, st := abi.DefineMetric(abi.MetricCounter, name)
		if st != abi.StatusOK {
			return 0, fmt.Errorf("proxy_define_metric %s: %v", name, st)
		}
		return id, nil
	}
	var err error
	if r.requests, err = define(p + ".requests"); err != nil {
		return err
	}
	if r.allowed, err = define(p + ".allowed"); err != nil {
		return err
	}
	if r.denied, err = define(p + ".denied"); err != nil {
		return err
	}
	r.ruleMetrics = make([][filter.NumCounters]uint32, len(f.Config.Rules))
	for i, rule := range f.Config.Rules {
		for c, suffix := range filter.CounterNames {
			if r.ruleMetrics[i][c], err = define(p + ".rule." + rule.Name + "." + suffix); err != nil {
				return err
			}
		}
	}
	return nil
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
	if err := r.defineMetrics(f); err != nil {
		abi.Log(abi.LogError, "celwasm: plugin configuration rejected: "+err.Error())
		return false
	}
	f.Count = func(rule int, c filter.Counter) { abi.IncrementMetric(r.ruleMetrics[rule][c], 1) }
	r.filter = f
	abi.Log(abi.LogInfo, "celwasm: "+f.Summary())
	// The configuration's garbage (environment construction, parsing) is
	// collected now rather than during the first requests.
	runtime.GC()
	debug.SetGCPercent(f.Config.GCPercent)
	return true
}

func (r *root) NewHTTP(uint32) abi.HTTP {
	return &stream{root: r}
}

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
	r := s.root
	abi.IncrementMetric(r.requests, 1)
	header := f.Config.RuleHeader
	if d.Allow {
		abi.IncrementMetric(r.allowed, 1)
		if header != "" {
			if d.Rule != "" {
				abi.ReplaceHeaderMapValue(abi.MapHTTPRequestHeaders, header, d.Rule)
			} else {
				abi.RemoveHeaderMapValue(abi.MapHTTPRequestHeaders, header)
			}
		}
		return abi.ActionContinue
	}
	abi.IncrementMetric(r.denied, 1)
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
