package envoy

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Echo is what the backend received, returned as its JSON response body.
type Echo struct {
	Method  string              `json:"method"`
	URI     string              `json:"uri"`
	Host    string              `json:"host"`
	Headers map[string][]string `json:"headers"`
	Body    string              `json:"body"`
}

// Backend is the upstream of the Envoy under test: an HTTP/1.1 server on
// 127.0.0.1 that echoes each request as JSON (Echo) and counts them. A
// request header X-Backend-Status sets the response status, and
// X-Backend-Header ("name: value") adds a response header.
type Backend struct {
	Addr string // 127.0.0.1:port
	Hits atomic.Int64
	// Bodies counts requests whose body the backend read completely.
	Bodies atomic.Int64
	srv    *http.Server
}

// StartBackend starts a Backend on a free port of 127.0.0.1.
func StartBackend() (*Backend, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	b := &Backend{Addr: l.Addr().String()}
	b.srv = &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b.Hits.Add(1)
			body, err := io.ReadAll(r.Body)
			if err != nil {
				return // the stream was reset
			}
			b.Bodies.Add(1)
			w.Header().Set("Content-Type", "application/json")
			if h := r.Header.Get("X-Backend-Header"); h != "" {
				if k, v, ok := strings.Cut(h, ":"); ok {
					w.Header().Set(strings.TrimSpace(k), strings.TrimSpace(v))
				}
			}
			if st, err := strconv.Atoi(r.Header.Get("X-Backend-Status")); err == nil && st >= 200 && st <= 599 {
				w.WriteHeader(st)
			}
			json.NewEncoder(w).Encode(Echo{Method: r.Method, URI: r.RequestURI, Host: r.Host, Headers: r.Header, Body: string(body)})
		}),
	}
	go b.srv.Serve(l)
	return b, nil
}

// Close stops the backend.
func (b *Backend) Close() error { return b.srv.Close() }
