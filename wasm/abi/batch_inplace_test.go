package abi

import (
	"bytes"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// EvalBatch reads its request in place. These tests check what makes that
// safe: nothing the handler keeps after the call points into the request,
// and a host that writes its next request into the same buffer gets the
// answers a fresh handler gives.

// inplaceBatches are batches over both item kinds, each with an item that
// fails, compiled by the handler as programs 1 to 3.
func inplaceBatches(t *testing.T, h *Handler) [][]byte {
	t.Helper()
	event, err := os.ReadFile("../../conformance/testdata/cloudevents/github-pull-request.json")
	if err != nil {
		t.Fatal(err)
	}
	var ev bytes.Buffer
	if err := json.Compact(&ev, event); err != nil {
		t.Fatal(err)
	}
	for i, c := range []string{
		`{"cloudEventFilter":{"expression":"has(ce.type) && ce.type == 'com.github.pull.create' && data.pull_request.user.login == 'octocat'"}}`,
		`{"expression":"x.name + '/' + string(size(x.items))","env":{"variables":[{"name":"x","type":"dyn"}]}}`,
		// Knative's dialects decode the event with the CloudEvents SDK (package knative, linked by
		// knative_test.go).
		`{"cloudEventFilter":{"all":[{"exact":{"type":"com.github.pull.create"}},{"cesql":"subject = '123'"}]}}`,
	} {
		if resp := h.Compile([]byte(c)); !bytes.HasPrefix(resp, []byte(`{"program":`+string(rune('1'+i)))) {
			t.Fatalf("compile %s: %s", c, resp)
		}
	}
	// Knative refuses an extension that is an object: the fixture's "github".
	var fields map[string]any
	if err := json.Unmarshal(event, &fields); err != nil {
		t.Fatal(err)
	}
	delete(fields, "github")
	knEv, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("padding so that the item's members are listed ", 8)
	return [][]byte{
		[]byte(`{"program":1,"items":"cloudEvents"}` + "\n" + ev.String() + "\n" + `{"specversion":"1.0",` + "\n" + strings.Replace(ev.String(), "pull.create", "pull.closed", 1)),
		[]byte(`{"program":3,"items":"cloudEvents"}` + "\n" + string(knEv) + "\n" + `{"specversion":"1.0",` + "\n" + strings.Replace(string(knEv), `"subject":"123"`, `"subject":"124"`, 1)),
		[]byte(`{"program":2,"items":"activations"}` + "\n" + `{"x":{"name":"a","items":[1,2],"note":"` + long + `"}}` + "\n" + `{"x":{"name":"c","items":[],"note":"` + long + `"}}` + "\n" + `{"x":{"name":"b","items":1,"note":"` + long + `"}}`),
	}
}

// TestEvalBatchKeepsNoReferenceToItsRequest: once EvalBatch returns, the
// request's memory is unreachable from the handler (the collector frees
// it), so no later call can read bytes the host has since overwritten.
func TestEvalBatchKeepsNoReferenceToItsRequest(t *testing.T) {
	h := NewHandler()
	for i, batch := range inplaceBatches(t, h) {
		freed := make(chan struct{})
		func() {
			req := make([]byte, len(batch))
			copy(req, batch)
			runtime.SetFinalizer(&req[0], func(*byte) { close(freed) })
			if out := h.EvalBatch(req); bytes.Count(out, []byte("\n")) != 2 || !bytes.Contains(out, []byte(`"value"`)) || !bytes.Contains(out, []byte(`"error"`)) {
				t.Fatalf("batch %d: %s", i, out)
			}
		}()
		collected := false
		for try := 0; try < 20 && !collected; try++ {
			runtime.GC()
			select {
			case <-freed:
				collected = true
			case <-time.After(5 * time.Millisecond):
			}
		}
		if !collected {
			t.Errorf("batch %d: the handler still references the request after EvalBatch returned", i)
		}
	}
}

// TestEvalBatchOverAReusedBuffer writes each batch into one buffer, as hosts
// do, and compares every answer with a fresh handler's over its own copy.
func TestEvalBatchOverAReusedBuffer(t *testing.T) {
	h := NewHandler()
	batches := inplaceBatches(t, h)
	size := 0
	for _, b := range batches {
		size = max(size, len(b))
	}
	buf := make([]byte, size)
	for round := 0; round < 3; round++ {
		for i, batch := range batches {
			for j := range buf {
				buf[j] = 'x' // what was there must not matter
			}
			n := copy(buf, batch)
			got := string(h.EvalBatch(buf[:n]))
			fresh := NewHandler()
			inplaceBatches(t, fresh)
			if want := string(fresh.EvalBatch(bytes.Clone(batch))); got != want {
				t.Errorf("round %d, batch %d:\n got %s\nwant %s", round, i, got, want)
			}
		}
	}
}
