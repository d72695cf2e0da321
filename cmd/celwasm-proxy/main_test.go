package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func moduleOrSkip(t *testing.T) string {
	t.Helper()
	p := os.Getenv("CELWASM_PROXYWASM_MODULE")
	if p == "" {
		p = filepath.Join("..", "..", "build", "celwasm-proxywasm.wasm")
	}
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CELWASM_PROXYWASM_REQUIRE") != "" {
			t.Fatalf("the filter module is required: %v", err)
		}
		t.Skipf("no filter module (%v); build it with `make -C wasm/proxywasm module`", err)
	}
	return p
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProxyCommand runs the command on 127.0.0.1 in front of a backend,
// sends an allowed and a denied request, and shuts it down.
func TestProxyCommand(t *testing.T) {
	mod := moduleOrSkip(t)
	bl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	backend := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "backend saw rule "+r.Header.Get("X-Celwasm-Rule"))
	})}
	go backend.Serve(bl)
	defer backend.Close()

	config := writeFile(t, "plugin.json", `{"rules":[
		{"name":"no-admin","expression":"request.path.startsWith('/admin')","action":"deny","status":403,"body":"no\n"},
		{"name":"rest","expression":"true","action":"allow"}],"ruleHeader":"x-celwasm-rule"}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	ready := make(chan string, 1)
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"--config", config, "--listen", "127.0.0.1:0", "--backend", "http://" + bl.Addr().String(),
			"--module", mod, "--workers", "1"}, &stdout, &stderr, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case c := <-code:
		t.Fatalf("run exited with %d: %s", c, stderr.String())
	case <-time.After(90 * time.Second):
		t.Fatal("the proxy did not start")
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: nil}}
	get := func(path string) (int, string) {
		res, err := client.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if st, body := get("/hello"); st != 200 || body != "backend saw rule rest" {
		t.Errorf("GET /hello: %d %q", st, body)
	}
	if st, body := get("/admin"); st != 403 || body != "no\n" {
		t.Errorf("GET /admin: %d %q", st, body)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit %d: %s", c, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no shutdown")
	}
	out := stdout.String()
	if !strings.Contains(out, "listening on http://127.0.0.1:") || !strings.Contains(out, "shut down after 2 requests (1 answered by the filter, 0 VM traps)") {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(stderr.String(), "[info] celwasm: 2 rules compiled") {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestProxyCommandBadConfig(t *testing.T) {
	mod := moduleOrSkip(t)
	config := writeFile(t, "plugin.json", `{"rules":[{"name":"broken","expression":"request.path ==","action":"deny"}]}`)
	var stdout, stderr syncBuffer
	c := run(context.Background(), []string{"--config", config, "--listen", "127.0.0.1:0", "--backend", "http://127.0.0.1:9",
		"--module", mod, "--workers", "1"}, &stdout, &stderr, nil)
	if c != 1 {
		t.Errorf("exit %d, want 1", c)
	}
	if !strings.Contains(stderr.String(), `plugin configuration rejected: rule "broken": compile_error`) {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestProxyCommandUsage(t *testing.T) {
	var stdout, stderr syncBuffer
	if c := run(context.Background(), []string{"--listen", "127.0.0.1:0"}, &stdout, &stderr, nil); c != 2 {
		t.Errorf("exit %d, want 2", c)
	}
	if !strings.Contains(stderr.String(), "usage: celwasm-proxy --config plugin.json --backend URL") {
		t.Errorf("stderr %q", stderr.String())
	}
	if c := run(context.Background(), []string{"--config", "x.json", "--backend", "ftp://x"}, &stdout, &stderr, nil); c != 2 {
		t.Errorf("bad backend: exit %d, want 2", c)
	}
}
