package proxywasm

import (
	"errors"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"
)

// Wrap returns a handler that runs the filter on each request and then,
// unless the filter answered, calls next with the request as the filter
// left it. When the filter cannot run (its VM trapped or cannot start) the
// request fails closed with 503, as Envoy's wasm filter does unless told to
// fail open.
func (p *Plugin) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := p.FilterRequest(r)
		if err != nil {
			status := http.StatusServiceUnavailable
			if errors.Is(err, ErrPaused) {
				status = http.StatusInternalServerError
			}
			p.log(LogEntry{Level: LevelError, Worker: -1, Message: "filter failed, request rejected: " + err.Error()})
			http.Error(w, http.StatusText(status), status)
			return
		}
		defer s.Close()
		if lr := s.LocalResponse(); lr != nil {
			lr.Write(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// NewReverseProxy returns a reverse proxy to backend (net/http/httputil)
// that runs the plugin's filter on every request first; with a nil plugin
// it only forwards (the baseline the benchmarks compare with). The
// incoming Host is kept, X-Forwarded-For/-Host/-Proto are set.
func NewReverseProxy(p *Plugin, backend *url.URL) http.Handler {
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(backend)
			pr.Out.Host = pr.In.Host
			pr.SetXForwarded()
		},
		Transport: &http.Transport{
			Proxy:               nil, // never an environment proxy: the backend is addressed directly
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        512,
			MaxIdleConnsPerHost: 256,
			IdleConnTimeout:     90 * time.Second,
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if p != nil {
				p.log(LogEntry{Level: LevelWarn, Worker: -1, Message: "upstream: " + err.Error()})
			}
			http.Error(w, http.StatusText(http.StatusBadGateway), http.StatusBadGateway)
		},
	}
	if p == nil {
		return rp
	}
	return p.Wrap(rp)
}

// NewServer returns an http.Server for h that numbers connections (the
// connection.id attribute) and bounds header reads.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ConnContext:       ConnContext,
		ReadHeaderTimeout: 10 * time.Second,
	}
}
