package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"
)

func readsJSON(t *testing.T, spec wire.EnvSpec, expr string) string {
	t.Helper()
	env, err := engine.NewEnv(spec)
	if err != nil {
		t.Fatal(err)
	}
	prg, err := env.Compile(expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	reads := prg.Reads()
	if reads == nil {
		return "nil"
	}
	m := map[string]any{}
	for k, r := range reads {
		m[k] = r.Value()
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestReads(t *testing.T) {
	self := vars("self", "dyn", "oldSelf", "dyn")
	for _, c := range []struct {
		spec       wire.EnvSpec
		expr, want string
	}{
		{self, `true`, `{}`},
		{self, `self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas`,
			`{"self":{"maxReplicas":true,"minReplicas":true,"replicas":true}}`},
		{self, `self.spec.replicas > oldSelf.spec.replicas`,
			`{"oldSelf":{"spec":{"replicas":true}},"self":{"spec":{"replicas":true}}}`},
		// a shorter path read whole covers the longer one, in either order
		{self, `self.spec.a == 1 && self.spec == {}`, `{"self":{"spec":true}}`},
		{self, `self.spec == {} && self.spec.a == 1`, `{"self":{"spec":true}}`},
		// the bare variable, a comprehension's range, size, in: whole
		{self, `size(self) > 0`, `{"self":true}`},
		{self, `self.items.all(i, i.name != "")`, `{"self":{"items":true}}`},
		{self, `"a" in self`, `{"self":true}`},
		// constant string indexes are selections; other indexes stop the path
		{self, `self["x-y"].z == 1`, `{"self":{"x-y":{"z":true}}}`},
		{self, `self.a[1] == 1`, `{"self":{"a":true}}`},
		{self, `self[string(1)] == 1`, `{"self":true}`},
		// a presence test and an optional selection end the path
		{self, `has(self.a.b)`, `{"self":{"a":{"b":true}}}`},
		{self, `self.?a.orValue(1) == 1`, `{"self":{"a":true}}`},
		{self, `self.a[?"b"].orValue(1) == 1`, `{"self":{"a":{"b":true}}}`},
		// a comprehension variable named like a variable only widens
		{self, `[{"a": 1}].all(self, self.a == 1)`, `{"self":{"a":true}}`},
		// typed maps (and Struct, a JSON object) read by member; lists and scalars whole
		{vars("m", "map(string, map(string, int))"), `m.a.b == 1`, `{"m":{"a":{"b":true}}}`},
		{vars("m", "map(int, dyn)"), `m[1] == 1`, `{"m":true}`},
		{vars("l", "list(dyn)"), `l[0].a == 1`, `{"l":true}`},
		{vars("s", "google.protobuf.Struct"), `s.a == 1`, `{"s":{"a":true}}`},
		{vars("q", "string"), `q == "a"`, `{"q":true}`},
		// a variable with a qualified name, resolved by the checker
		{vars("a.b", "dyn"), `a.b.c == 1`, `{"a.b":{"c":true}}`},
	} {
		if got := readsJSON(t, c.spec, c.expr); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.expr, got, c.want)
		}
	}
	unchecked := self
	unchecked.DisableTypeCheck = true
	if got := readsJSON(t, unchecked, `self.a`); got != "nil" {
		t.Errorf("unchecked program: reads %s, want nil", got)
	}
}
