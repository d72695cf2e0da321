package abi

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestEvalActivation checks that the integer envelope answers what Eval
// answers for the same request: every result and error, bools packed
// (ScalarTrue/ScalarFalse | cost) and everything else as Eval's bytes.
func TestEvalActivation(t *testing.T) {
	h := NewHandler()
	compile := func(expr string) uint32 {
		return compileRef(t, h, refCase{name: expr, expr: expr, variable: "self"})
	}
	b := compile(`self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas`)
	str := compile(`self.name + "!"`)
	loop := compile(`self.items.all(i, i > 0)`)
	packedResults := 0
	for _, c := range []struct {
		handle     uint32
		limit      uint64
		activation string
	}{
		{b, 0, `{"self":{"minReplicas":1,"replicas":3,"maxReplicas":5}}`},
		{b, 0, `{"self":{"minReplicas":4,"replicas":3,"maxReplicas":5}}`},
		{b, 0, `{"self":{"minReplicas":1}}`},                                // no such key
		{b, 0, `{"self":{"minReplicas":1,"replicas":"3","maxReplicas":5}}`}, // no matching overload
		{b, 3, `{"self":{"minReplicas":1,"replicas":3,"maxReplicas":5}}`},   // over the cost limit
		{b, 1 << 40, `{"self":{"minReplicas":1,"replicas":3,"maxReplicas":5}}`},
		{b, 0, `[1]`},
		{b, 0, `{"self":`},
		{b, 0, "{\"self\":\"\xff\"}"},
		{b, 0, ``},
		{str, 0, `{"self":{"name":"x"}}`},
		{loop, 0, `{"self":{"items":[1,2,3]}}`},
		{loop, 0, `{"self":{"items":[1,-2,3]}}`},
		{99, 0, `{}`},
	} {
		req := `{"program":` + strconv.FormatUint(uint64(c.handle), 10)
		if c.limit != 0 {
			req += `,"costLimit":` + strconv.FormatUint(c.limit, 10)
		}
		req += `,"activation":` + c.activation + `}`
		want := string(h.Eval([]byte(req)))
		packed, resp := h.EvalActivation(c.handle, c.limit, []byte(c.activation))
		got := string(resp)
		if packed != 0 {
			packedResults++
			if resp != nil {
				t.Errorf("%s: packed %#x and a response %s", req, packed, resp)
			}
			v := map[uint32]string{ScalarFalse: "false", ScalarTrue: "true"}[packed&^ScalarCostMask]
			got = fmt.Sprintf(`{"value":%s,"cost":%d}`, v, packed&ScalarCostMask)
		}
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", req, got, want)
		}
	}
	if packedResults != 5 {
		t.Errorf("%d bool results came packed, want 5", packedResults)
	}
}

// TestEvalActivationInPlace: the activation is read in place, so a host may
// write the next activation over the same buffer; each call answers for
// the bytes it was given, and a response is not changed by what the
// caller later writes to its buffer.
func TestEvalActivationInPlace(t *testing.T) {
	h := NewHandler()
	str := compileRef(t, h, refCase{name: "str", expr: `self.name + "!"`, variable: "self"})
	buf := make([]byte, 0, 256)
	var prev []byte
	for i, name := range []string{"a", "second", "x\\u00e9", "", "last one"} {
		// Long enough (listMin) for the check to list its members.
		act := `{"self":{"name":"` + name + `","pad":[` + strconv.Itoa(i) + `]},"pad":"` + strings.Repeat("p", 300) + `"}`
		buf = append(buf[:0], act...)
		want := string(h.Eval([]byte(`{"program":` + strconv.FormatUint(uint64(str), 10) + `,"activation":` + act + `}`)))
		_, resp := h.EvalActivation(str, 0, buf)
		got := string(resp)
		if raw, ok := h.act.Raw("self"); ok {
			t.Errorf("%s: the activation still reads the buffer after the call: self = %s", act, raw.Raw)
		}
		for j := range buf {
			buf[j] = '#'
		}
		if got != want || string(resp) != want {
			t.Errorf("%s: got %s (after the buffer changed: %s), want %s", act, got, resp, want)
		}
		if prev != nil && string(prev) == got {
			t.Errorf("%s: the same response as the previous activation: %s", act, got)
		}
		prev = []byte(got)
	}
}

// TestEvalActivationReturnsActivationObjects: a result that is an object
// (or holds one) of the activation, read in place and lent from the
// activation's pool, is encoded whole, as Eval encodes it.
func TestEvalActivationReturnsActivationObjects(t *testing.T) {
	h := NewHandler()
	for _, c := range []struct{ expr, act string }{
		{`self`, `{"self":{"a":1,"b":{"c":[1,{"d":"e"}]}}}`},
		{`self.b`, `{"self":{"a":1,"b":{"c":[1,{"d":"e"}]}}}`},
		{`[self.b, self.a]`, `{"self":{"a":1,"b":{"c":2}}}`},
		{`self.items.filter(i, i.x > 1)`, `{"self":{"items":[{"x":1},{"x":2},{"x":3}]}}`},
	} {
		id := compileRef(t, h, refCase{name: c.expr, expr: c.expr, variable: "self"})
		want := string(h.Eval([]byte(`{"program":` + strconv.FormatUint(uint64(id), 10) + `,"activation":` + c.act + `}`)))
		if !strings.Contains(want, `"value"`) {
			t.Fatalf("%s: %s", c.expr, want)
		}
		packed, resp := h.EvalActivation(id, 0, []byte(c.act))
		if packed != 0 || string(resp) != want {
			t.Errorf("%s over %s:\n got %#x %s\nwant %s", c.expr, c.act, packed, resp, want)
		}
	}
}

// TestProgramLookupFollowsHandles: the handler keeps the program it looked
// up last beside its map; a freed handle is unknown at once, and a handle
// given out again (after next wraps around) names the new program.
func TestProgramLookupFollowsHandles(t *testing.T) {
	h := NewHandler()
	act := []byte(`{"self":{"n":"x"}}`)
	eval := func(handle uint32) string {
		_, resp := h.EvalActivation(handle, 0, act)
		return string(resp)
	}
	a := compileRef(t, h, refCase{name: "a", expr: `self.n + "a"`, variable: "self"})
	b := compileRef(t, h, refCase{name: "b", expr: `self.n + "b"`, variable: "self"})
	if got := eval(a); !strings.Contains(got, `"xa"`) {
		t.Fatalf("a: %s", got)
	}
	if !h.Free(a) {
		t.Fatal("Free(a) did not know a")
	}
	for _, got := range []string{eval(a), string(h.Eval([]byte(`{"program":` + strconv.FormatUint(uint64(a), 10) + `,"activation":{}}`)))} {
		if !strings.Contains(got, `"unknown_program"`) {
			t.Errorf("a after Free: %s", got)
		}
	}
	if got := eval(b); !strings.Contains(got, `"xb"`) {
		t.Errorf("b: %s", got)
	}
	h.next = b // as after 2^32 compilations: b's handle is given out again
	c := compileRef(t, h, refCase{name: "c", expr: `self.n + "c"`, variable: "self"})
	if c != b {
		t.Fatalf("handle %d, want %d", c, b)
	}
	if got := eval(c); !strings.Contains(got, `"xc"`) {
		t.Errorf("c, given b's handle: %s", got)
	}
}
