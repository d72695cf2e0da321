package celwasm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/wasmtime"
)

type engine struct {
	name string
	opts []celwasm.Option
}

// Every test runs on both runtimes: wazero (pure Go) and wasmtime-go.
var engines = []engine{
	{"wazero", nil},
	{"wasmtime", []celwasm.Option{wasmtime.Option()}},
}

// interpreter is wazero's interpreter, which the CLI answers with while the
// expression module compiles: the tests of expression evaluation run on it
// too (forEachEngineAndInterpreter), except under -race, where it is ten
// times slower still: make test-go runs them without it. The conformance
// corpus runs on it in full (make conformance-go).
var interpreter = engine{"wazero-interpreter", []celwasm.Option{celwasm.WithEngine("wazero-interpreter", celwasm.NewWazeroInterpreterEngine)}}

func forEachEngine(t *testing.T, f func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime)) {
	runOn(t, engines, f)
}

func forEachEngineAndInterpreter(t *testing.T, f func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime)) {
	if raceEnabled {
		runOn(t, engines, f)
		return
	}
	runOn(t, append(engines[:len(engines):len(engines)], interpreter), f)
}

func runOn(t *testing.T, engines []engine, f func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime)) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			f(t, func(extra ...celwasm.Option) *celwasm.Runtime {
				rt, err := celwasm.New(context.Background(), append(append([]celwasm.Option{}, e.opts...), extra...)...)
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				t.Cleanup(func() { rt.Close(context.Background()) })
				return rt
			})
		})
	}
}

func code(err error) string {
	var ce *celwasm.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	if err != nil {
		return "untyped: " + err.Error()
	}
	return ""
}

func mustEval(t *testing.T, rt *celwasm.Runtime, env *celwasm.Env, expr string, act any) string {
	t.Helper()
	prg, err := env.Compile(context.Background(), expr)
	if err != nil {
		t.Fatalf("compile %s: %v", expr, err)
	}
	defer prg.Close()
	res, err := prg.Eval(context.Background(), act)
	if err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	return string(res.JSON)
}

func TestEvalValuesAndCosts(t *testing.T) {
	forEachEngineAndInterpreter(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		ctx := context.Background()
		rt := newRT()
		env := rt.NewEnv(celwasm.Variable("self", "map(string, dyn)"), celwasm.Variable("t", "timestamp"))
		prg, err := env.Compile(ctx, "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas")
		if err != nil {
			t.Fatal(err)
		}
		if prg.OutputType != "bool" || prg.CostEstimate == nil || prg.CostEstimate.Min == 0 {
			t.Fatalf("output type %q, estimate %+v", prg.OutputType, prg.CostEstimate)
		}
		for act, want := range map[string]string{
			`{"self":{"minReplicas":1,"replicas":3,"maxReplicas":5}}`: "true",
			`{"self":{"minReplicas":4,"replicas":3,"maxReplicas":5}}`: "false",
		} {
			res, err := prg.Eval(ctx, []byte(act))
			if err != nil || string(res.JSON) != want || res.Cost == 0 {
				t.Errorf("eval over %s = %v (cost %v), %v; want %s", act, res, res, err, want)
			}
		}
		// Go values as activations, and decoding back to Go values.
		res, err := mustProgram(t, env, "[dyn(self.n + 1), dyn(self.s), dyn(t), dyn(t - timestamp('2026-01-01T00:00:00Z')), dyn(b'\\xff'), dyn(2u), dyn(1.5), dyn({'k': [null]})]").
			Eval(ctx, map[string]any{"self": map[string]any{"n": math.MaxInt64 - 1, "s": "é"}, "t": "2026-01-02T00:00:00.5Z"})
		if err != nil {
			t.Fatal(err)
		}
		want := `[{"int":"9223372036854775807"},"é",{"timestamp":"2026-01-02T00:00:00.500Z"},{"duration":"86400.500s"},{"bytes":"/w=="},{"uint":"2"},{"double":"1.5"},{"map":[["k",[null]]]}]`
		if string(res.JSON) != want {
			t.Fatalf("got %s\nwant %s", res.JSON, want)
		}
		v, err := res.Value()
		if err != nil {
			t.Fatal(err)
		}
		l := v.([]any)
		if l[0] != int64(math.MaxInt64) || l[3] != 86400*time.Second+500*time.Millisecond || l[5] != uint64(2) || l[6] != 1.5 {
			t.Fatalf("decoded %#v", l)
		}
		if ts := l[2].(time.Time); !ts.Equal(time.Date(2026, 1, 2, 0, 0, 0, 5e8, time.UTC)) {
			t.Fatalf("timestamp %v", ts)
		}
		if text, _ := celwasm.FormatText(res.JSON); text != `[9223372036854775807, "é", timestamp("2026-01-02T00:00:00.500Z"), duration("86400.500s"), b"\xff", 2u, 1.5, {"k": [null]}]` {
			t.Fatalf("text form %s", text)
		}
		// Kubernetes libraries.
		got := mustEval(t, rt, rt.NewEnv(), "[quantity('1536Mi').isGreaterThan(quantity('1Gi')), ip('10.0.0.1').family() == 4, cidr('10.0.0.0/8').containsIP('10.1.2.3'), url('https://k8s.io:443/a').getPort() == '443', semver('1.2.3').isLessThan(semver('1.10.0')), [3, 1, 2].isSorted(), 'abc'.find('[bc]+') == 'bc', [1, 2].includes(2)]", nil)
		if got != "[true,true,true,true,true,false,true,true]" {
			t.Fatalf("kubernetes libraries: %s", got)
		}
		if v, err := rt.Version(ctx); err != nil || v.ABI != 1 || v.CELGo == "" || len(v.ModuleSHA256) != 64 || v.DefaultCompatibilityVersion != "1.37" {
			t.Fatalf("version %+v, %v", v, err)
		}
	})
}

func mustProgram(t *testing.T, env *celwasm.Env, expr string) *celwasm.Program {
	t.Helper()
	prg, err := env.Compile(context.Background(), expr)
	if err != nil {
		t.Fatalf("compile %s: %v", expr, err)
	}
	t.Cleanup(prg.Close)
	return prg
}

func TestCompileErrors(t *testing.T) {
	forEachEngineAndInterpreter(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		ctx := context.Background()
		rt := newRT()
		_, err := rt.NewEnv(celwasm.Variable("x", "int")).Compile(ctx, "x +\n  y")
		var ce *celwasm.Error
		if !errors.As(err, &ce) || ce.Code != celwasm.CodeCompile || len(ce.Issues) != 1 {
			t.Fatalf("got %v", err)
		}
		is := ce.Issues[0]
		if is.Line != 2 || is.Column != 3 || !strings.Contains(is.Message, "undeclared reference to 'y'") || !strings.HasSuffix(is.Snippet, " |   y\n | ..^") {
			t.Fatalf("issue %+v", is)
		}
		for _, c := range []struct {
			opts []celwasm.EnvOption
			expr string
			code string
		}{
			{[]celwasm.EnvOption{celwasm.Extension("nope")}, "1", celwasm.CodeInvalidEnv},
			{[]celwasm.EnvOption{celwasm.Variable("x", "list(")}, "1", celwasm.CodeInvalidEnv},
			{[]celwasm.EnvOption{celwasm.Variable("x", "no.Such")}, "1", celwasm.CodeInvalidEnv},
			{[]celwasm.EnvOption{celwasm.CompatibilityVersion("1.99")}, "1", celwasm.CodeInvalidEnv},
			{nil, "'bad utf8 \xff'", celwasm.CodeCompile},
			{nil, strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300), celwasm.CodeCompile},
			{nil, "[1, 'a']", celwasm.CodeCompile}, // kube-apiserver: homogeneous aggregate literals
		} {
			if _, err := rt.NewEnv(c.opts...).Compile(ctx, c.expr); code(err) != c.code {
				t.Errorf("%q: got %v, want %s", c.expr, err, c.code)
			}
		}
	})
}

// TestBadInput: every kind of bad input gets a typed error and the runtime
// keeps working.
func TestBadInput(t *testing.T) {
	forEachEngine(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		ctx := context.Background()
		rt := newRT()
		env := rt.NewEnv(celwasm.Variable("self", "dyn"), celwasm.Variable("n", "int"))
		bomb := "self.l.map(x, self.l.map(y, self.l.map(z, x + y + z))).size()"
		long := `{"self":{"l":[` + strings.TrimSuffix(strings.Repeat("1,", 1000), ",") + `]}}`
		var big strings.Builder
		big.WriteString(`{"self":{"items":[`)
		for i := 0; big.Len() < 3<<20; i++ {
			if i > 0 {
				big.WriteByte(',')
			}
			fmt.Fprintf(&big, `{"name":"item-%d","labels":{"app":"web","tier":"frontend"},"value":%d}`, i, i)
		}
		big.WriteString(`]}}`)
		cases := []struct {
			name, expr string
			act        any
			code       string
		}{
			{"invalid JSON", "self.a", []byte(`{"self":{"a":1,}}`), celwasm.CodeInvalidActivation},
			{"truncated JSON", "self.a", []byte(`{"self":{"a":`), celwasm.CodeInvalidActivation},
			{"not an object", "self", []byte(`[1,2]`), celwasm.CodeInvalidActivation},
			{"invalid UTF-8", "self", []byte("{\"self\":\"\xc3\x28\"}"), celwasm.CodeInvalidActivation},
			{"deep nesting", "self", []byte(`{"self":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`), celwasm.CodeInvalidActivation},
			{"nesting past the limit of 1,000", "self", []byte(`{"self":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`), celwasm.CodeInvalidActivation},
			{"nesting at the limit", "self == self && [self] != [[self]]", []byte(`{"self":` + strings.Repeat(`{"a":[`, 499) + strings.Repeat("]}", 499) + `}`), ""},
			{"wrong type", "self.replicas + 1", []byte(`{"self":{"replicas":"3"}}`), celwasm.CodeEval},
			{"declared int given a string", "n + 1", []byte(`{"n":"three"}`), celwasm.CodeEval},
			{"missing variable", "n + 1", []byte(`{}`), celwasm.CodeEval},
			{"no such key", "self.nope", []byte(`{"self":{}}`), celwasm.CodeEval},
			{"division by zero", "n / 0", []byte(`{"n":1}`), celwasm.CodeEval},
			{"overflow", "n + 1", []byte(`{"n":9223372036854775807}`), celwasm.CodeEval},
			{"undeclared variable", "nope == 1", nil, celwasm.CodeCompile},
			{"cost-limit bomb", bomb, []byte(long), celwasm.CodeCostLimit},
			// A value the program reads; one it never reads is not marshalled (TestReadsProjection).
			{"unmarshalable Go value", "self.c == 1", map[string]any{"self": map[string]any{"c": make(chan int)}}, celwasm.CodeInvalidArgument},
			{"unmarshalable Go struct", "true", struct{ C chan int }{make(chan int)}, celwasm.CodeInvalidArgument},
			{"3 MiB document", "self.items.size() > 10000 && self.items.all(i, i.labels.app == 'web')", []byte(big.String()), ""},
		}
		for _, c := range cases {
			prg, err := env.Compile(ctx, c.expr)
			if err != nil {
				if code(err) != c.code {
					t.Errorf("%s: compile: %v, want %s", c.name, err, c.code)
				}
				continue
			}
			res, err := prg.Eval(ctx, c.act)
			if code(err) != c.code {
				got := ""
				if res != nil {
					got = string(res.JSON)
					if len(got) > 80 {
						got = got[:80] + "…"
					}
				}
				t.Errorf("%s: got error %v (result %s), want %q", c.name, err, got, c.code)
			}
			if c.code == celwasm.CodeCostLimit {
				var ce *celwasm.Error
				if errors.As(err, &ce) && (ce.Cost == nil || *ce.Cost <= celwasm.DefaultCostLimit) {
					t.Errorf("cost-limit error without the cost spent: %+v", ce)
				}
			}
			if c.code == "" && string(res.JSON) != "true" {
				t.Errorf("%s: got %s", c.name, res.JSON)
			}
			prg.Close()
		}
		if got := mustEval(t, rt, env, "1 + 1", nil); got != `{"int":"2"}` {
			t.Fatalf("runtime after bad input: %s", got)
		}
	})
}

// TestConcurrentEvalsNeverMix: 8 goroutines share a few instances; every
// result belongs to its own activation. make test runs it with -race and
// CELWASM_CONCURRENCY_EVALS=100000 evaluations per goroutine (default 150).
func TestConcurrentEvalsNeverMix(t *testing.T) {
	perWorker := 150
	if n, err := strconv.Atoi(os.Getenv("CELWASM_CONCURRENCY_EVALS")); err == nil && n > 0 {
		perWorker = n
	}
	forEachEngine(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		ctx := context.Background()
		rt := newRT(celwasm.WithInstances(3))
		env := rt.NewEnv(celwasm.Variable("self", "map(string, dyn)"))
		prg := mustProgram(t, env, "{'id': dyn(self.id), 'sq': dyn(self.id * self.id), 'name': dyn(self.name + '!')}")
		const workers = 8
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; i < perWorker; i++ {
					id := w*1_000_000 + i
					act := fmt.Sprintf(`{"self":{"id":%d,"name":"w%d-%d"}}`, id, w, i)
					res, err := prg.Eval(ctx, []byte(act))
					if err != nil {
						errs <- err
						return
					}
					want := fmt.Sprintf(`{"map":[["id",{"int":"%d"}],["name","w%d-%d!"],["sq",{"int":"%d"}]]}`, id, w, i, id*id)
					if string(res.JSON) != want {
						errs <- fmt.Errorf("worker %d eval %d: got %s, want %s", w, i, res.JSON, want)
						return
					}
				}
			}(w)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	})
}

// TestCancellation: a context deadline stops a long evaluation, the caller
// gets a typed error that is also the context's error, and the instance
// goes on.
func TestCancellation(t *testing.T) {
	forEachEngineAndInterpreter(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		rt := newRT(celwasm.WithInstances(1))
		env := rt.NewEnv(celwasm.Variable("l", "list(int)"))
		prg := mustProgram(t, env, "l.map(x, l.map(y, x * y)).size()")
		items := make([]int, 3000)
		act := map[string]any{"l": items}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := prg.Eval(ctx, act, celwasm.CostLimit(math.MaxUint64))
		elapsed := time.Since(start)
		if code(err) != celwasm.CodeDeadlineExceeded || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v after %v, want deadline_exceeded", err, elapsed)
		}
		if elapsed > 5*time.Second {
			t.Fatalf("interrupt took %v", elapsed)
		}
		var ce *celwasm.Error
		if errors.As(err, &ce) && (ce.Cost == nil || *ce.Cost == 0) {
			t.Errorf("canceled evaluation should report the cost spent: %+v", ce)
		}
		canceled, cancelNow := context.WithCancel(context.Background())
		cancelNow()
		if _, err := prg.Eval(canceled, act); code(err) != celwasm.CodeCanceled || !errors.Is(err, context.Canceled) {
			t.Fatalf("pre-canceled: got %v", err)
		}
		res, err := prg.Eval(context.Background(), map[string]any{"l": []int{1, 2}})
		if err != nil || string(res.JSON) != `{"int":"2"}` {
			t.Fatalf("after cancel: %v %v", res, err)
		}
	})
}

// TestTrapRecovery: an evaluation that exhausts the instance's memory cap
// traps; the instance is replaced, the caller gets "trap", and programs
// compiled before keep working in the new instance.
func TestTrapRecovery(t *testing.T) {
	forEachEngineAndInterpreter(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		ctx := context.Background()
		rt := newRT(celwasm.WithInstances(1), celwasm.WithMemoryLimit(96<<20))
		env := rt.NewEnv(celwasm.Variable("s", "string"))
		small := mustProgram(t, env, "s.size()")
		hog := mustProgram(t, env, "(s + s + s + s + s + s + s + s + s + s + s + s).size()")
		act, _ := json.Marshal(map[string]string{"s": strings.Repeat("x", 8<<20)})
		_, err := hog.Eval(ctx, act, celwasm.CostLimit(math.MaxUint64))
		if code(err) != celwasm.CodeTrap {
			t.Fatalf("got %v, want trap", err)
		}
		for i := 0; i < 3; i++ {
			res, err := small.Eval(ctx, map[string]string{"s": "abc"})
			if err != nil || string(res.JSON) != `{"int":"3"}` {
				t.Fatalf("after trap: %v %v", res, err)
			}
		}
	})
}

func TestProgramClose(t *testing.T) {
	forEachEngineAndInterpreter(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		rt := newRT()
		prg, err := rt.NewEnv().Compile(context.Background(), "1")
		if err != nil {
			t.Fatal(err)
		}
		prg.Close()
		if _, err := prg.Eval(context.Background(), nil); code(err) != celwasm.CodeClosed {
			t.Fatalf("got %v", err)
		}
		rt.Close(context.Background())
		if _, err := rt.NewEnv().Compile(context.Background(), "1"); code(err) != celwasm.CodeClosed {
			t.Fatalf("after runtime close: %v", err)
		}
	})
}
