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

// stream is an HTTP stream context. Its rules run in phases
// (filter.Evaluate): request headers, then the request body and the
// response headers when rules of those phases exist.
type stream struct {
	root *root
	// decided: a rule or the defaults decided; later phases do nothing.
	decided bool
	// body is the request body (phase request_body).
	body []byte
	// requestHeaders are the request's headers for the phases after
	// request headers (nil before).
	requestHeaders []abi.Pair
}

// guard turns a panic in a callback into a fail-closed local response.
func (s *stream) guard(action *abi.Action) {
	if p := recover(); p != nil {
		abi.Log(abi.LogCritical, fmt.Sprint("celwasm: internal error: ", p))
		s.decided = true
		abi.SendLocalResponse(500, filter.DetailsError, []byte("internal error\n"), nil, abi.NoGRPCStatus)
		*action = abi.ActionPause
	}
}

func (s *stream) OnRequestHeaders(_ int, endOfStream bool) (action abi.Action) {
	f := s.root.filter
	if f == nil {
		// Hosts do not start streams on a plugin whose configure failed;
		// fail closed if one does.
		abi.SendLocalResponse(500, "celwasm_not_configured", []byte("celwasm filter is not configured\n"), nil, abi.NoGRPCStatus)
		return abi.ActionPause
	}
	defer s.guard(&action)
	if d, ok := f.Evaluate(host{s}, filter.PhaseRequestHeaders); ok {
		return s.act(d, true)
	}
	// A later phase decides; the client's rule header never goes upstream.
	if h := f.Config.RuleHeader; h != "" {
		abi.RemoveHeaderMapValue(abi.MapHTTPRequestHeaders, h)
	}
	// Envoy serves the request header map only during this callback; later
	// phases read this copy.
	if f.LastPhase > filter.PhaseRequestHeaders {
		if pairs, st := abi.GetHeaderMapPairs(abi.MapHTTPRequestHeaders); st == abi.StatusOK {
			s.requestHeaders = pairs
		}
	}
	if f.HasPhase[filter.PhaseRequestBody] && endOfStream { // no body
		return s.bodyPhase()
	}
	// The headers go on (Envoy turns a pause here into "stop all
	// iteration" and calls no body callback until the stream is
	// continued); proxy_on_request_body holds the body instead, so the
	// upstream request may start but gets no body before the decision.
	return abi.ActionContinue
}

func (s *stream) OnRequestBody(size int, endOfStream bool) (action abi.Action) {
	f := s.root.filter
	if f == nil || s.decided || !f.HasPhase[filter.PhaseRequestBody] {
		return abi.ActionContinue
	}
	defer s.guard(&action)
	if size > f.Config.RequestBody.MaxBytes {
		return s.act(filter.Decision{Status: 413, Body: "request body too large\n", Details: filter.DetailsBodyTooLarge}, false)
	}
	if !endOfStream {
		return abi.ActionPause // buffer
	}
	if size > 0 {
		b, st := abi.GetBufferBytes(abi.BufferHTTPRequestBody, 0, size)
		if st != abi.StatusOK {
			abi.Log(abi.LogError, "celwasm: cannot read the request body: "+st.String())
			return s.act(filter.Decision{Status: 500, Body: "internal error\n", Details: filter.DetailsError}, false)
		}
		s.body = b
	}
	return s.bodyPhase()
}

// OnRequestTrailers: a request with trailers ends without a body callback
// at end of stream, so its request_body rules could not run; onError
// decides (deny by default: the filter fails closed).
func (s *stream) OnRequestTrailers(int) (action abi.Action) {
	f := s.root.filter
	if f == nil || s.decided || !f.HasPhase[filter.PhaseRequestBody] {
		return abi.ActionContinue
	}
	defer s.guard(&action)
	abi.Log(abi.LogWarn, "celwasm: a request with trailers: the request_body rules cannot run (onError: "+f.Config.OnError.Action+")")
	if f.Config.OnError.Action == filter.ActionAllow {
		return s.act(filter.Decision{Allow: true}, false)
	}
	return s.act(filter.Decision{Status: f.Config.OnError.Status, Body: *f.Config.OnError.Body, Details: filter.DetailsError}, false)
}

func (s *stream) bodyPhase() abi.Action {
	d, ok := s.root.filter.Evaluate(host{s}, filter.PhaseRequestBody)
	s.body = nil
	if ok {
		return s.act(d, false)
	}
	return abi.ActionContinue
}

func (s *stream) OnResponseHeaders(int, bool) (action abi.Action) {
	f := s.root.filter
	if f == nil || s.decided || !f.HasPhase[filter.PhaseResponseHeaders] {
		return abi.ActionContinue
	}
	defer s.guard(&action)
	d, _ := f.Evaluate(host{s}, filter.PhaseResponseHeaders)
	return s.act(d, false)
}

// act carries out a decision: an allowed request goes on (upstream with
// the rule header when decided at request headers, which have not gone
// upstream yet), a denied one is answered with a local response.
func (s *stream) act(d filter.Decision, atRequestHeaders bool) abi.Action {
	s.decided = true
	r := s.root
	abi.IncrementMetric(r.requests, 1)
	header := r.filter.Config.RuleHeader
	if d.Allow {
		abi.IncrementMetric(r.allowed, 1)
		if header != "" && atRequestHeaders {
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
type host struct{ s *stream }

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

// RequestBody is the buffered body: absent before phase request_body and
// when the request has none.
func (h host) RequestBody() ([]byte, bool, error) {
	return h.s.body, len(h.s.body) > 0, nil
}

func (host) ResponseHeaders() ([]abi.Pair, error) {
	pairs, st := abi.GetHeaderMapPairs(abi.MapHTTPResponseHeaders)
	if st != abi.StatusOK {
		return nil, st
	}
	return pairs, nil
}

func (h host) RequestHeaders() ([]abi.Pair, error) {
	if h.s.requestHeaders != nil {
		return h.s.requestHeaders, nil
	}
	pairs, st := abi.GetHeaderMapPairs(abi.MapHTTPRequestHeaders)
	if st != abi.StatusOK {
		return nil, st
	}
	return pairs, nil
}
