package environment

import (
	"fmt"
	"math"
	"sort"
	"sync"
	"testing"

	"github.com/google/cel-go/cel"
	"k8s.io/apimachinery/pkg/util/version"
	"sigs.k8s.io/yaml"
)

// eagerEnvSet is upstream's newEnvSet: both environments built by Extend.
func eagerEnvSet(t *testing.T, ver *version.Version, opts []VersionedOptions) *EnvSet {
	t.Helper()
	base, err := cel.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	set, err := (&EnvSet{compatibilityVersion: ver, newExpressions: base, storedExpressions: base}).Extend(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// describe is what an environment declares: its cel-go configuration
// (container, variables, features, limits), libraries, macros, and every
// function with the IDs of its overloads.
func describe(t *testing.T, e *cel.Env) string {
	t.Helper()
	conf, err := e.ToConfig("env")
	if err != nil {
		t.Fatal(err)
	}
	y, err := yaml.Marshal(conf)
	if err != nil {
		t.Fatal(err)
	}
	var macros []string
	for _, m := range e.Macros() {
		macros = append(macros, m.MacroKey())
	}
	sort.Strings(macros)
	libs := e.Libraries()
	sort.Strings(libs)
	var funcs []string
	for name, fn := range e.Functions() {
		var ids []string
		for _, o := range fn.OverloadDecls() {
			ids = append(ids, o.ID())
		}
		sort.Strings(ids)
		funcs = append(funcs, fmt.Sprintf("%s%v", name, ids))
	}
	sort.Strings(funcs)
	return fmt.Sprintf("%s\nlibraries %v\nmacros %v\nfunctions %v", y, libs, macros, funcs)
}

// checked compiles expressions that reach version-gated libraries and gives
// each result type and cost estimate, or the issues.
func checked(e *cel.Env) string {
	var out string
	for _, expr := range []string{
		`[1, 2, 3].sum() == 6 && 'a'.matches('^a$')`,
		`quantity('1Gi').isGreaterThan(quantity('1Mi'))`,
		`ip('10.0.0.1').family() == 4 && cidr('10.0.0.0/8').containsIP('10.0.0.1')`,
		`isSemver('1.2.3') && semver('1.2.3').major() == 1`,
		`format.dns1123Label().validate('abc').hasValue()`,
		`'abc'.lowerAscii().split('b').size()`,
		`[1, 2].all(x, x > 0) && sets.contains([1, 2], [1])`,
		`optional.of(1).orValue(2) == 1`,
		`math.abs(-1) == 1`,
		`url('https://x.example/a').getHost()`,
	} {
		ast, iss := e.Compile(expr)
		if iss.Err() != nil {
			out += fmt.Sprintf("%s: %v\n", expr, iss.Err())
			continue
		}
		out += fmt.Sprintf("%s: %v\n", expr, ast.OutputType())
	}
	return out
}

// TestLazyStoredEnvPatchMatchesExtend compares each environment of the
// patched base set with the one upstream's Extend builds, at every version
// from before the oldest library to past the newest, and checks that the
// StoredExpressions environment is built only when asked for.
func TestLazyStoredEnvPatchMatchesExtend(t *testing.T) {
	var vers []*version.Version
	for minor := uint(23); minor <= DefaultCompatibilityVersion().Minor()+2; minor++ {
		vers = append(vers, version.MajorMinor(1, minor))
	}
	vers = append(vers, version.MajorMinor(math.MaxUint, math.MaxUint))
	for _, ver := range vers {
		lazy, err := newEnvSet(ver, baseOpts)
		if err != nil {
			t.Fatal(err)
		}
		if lazy.lazy == nil || lazy.lazy.env != nil {
			t.Fatalf("%s: StoredExpressions built before it was asked for", ver)
		}
		eager := eagerEnvSet(t, ver, baseOpts)
		if got, want := describe(t, lazy.NewExpressionsEnv()), describe(t, eager.NewExpressionsEnv()); got != want {
			t.Fatalf("%s: NewExpressions differs:\n%s\nupstream:\n%s", ver, got, want)
		}
		if lazy.lazy.env != nil {
			t.Fatalf("%s: StoredExpressions built by reading NewExpressions", ver)
		}
		stored, err := lazy.Env(StoredExpressions)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := describe(t, stored), describe(t, eager.StoredExpressionsEnv()); got != want {
			t.Fatalf("%s: StoredExpressions differs:\n%s\nupstream:\n%s", ver, got, want)
		}
		if lazy.StoredExpressionsEnv() != stored {
			t.Fatalf("%s: StoredExpressions built twice", ver)
		}
		for typ, pair := range map[Type][2]*cel.Env{
			NewExpressions:    {lazy.NewExpressionsEnv(), eager.NewExpressionsEnv()},
			StoredExpressions: {stored, eager.StoredExpressionsEnv()},
		} {
			if got, want := checked(pair[0]), checked(pair[1]); got != want {
				t.Fatalf("%s %s: compiled differently:\n%s\nupstream:\n%s", ver, typ, got, want)
			}
		}
	}
}

// TestLazyStoredEnvPatchExtend checks that a set extended from a lazy one
// equals the same extension of upstream's, and builds both halves.
func TestLazyStoredEnvPatchExtend(t *testing.T) {
	ver := DefaultCompatibilityVersion()
	opt := VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions:        []cel.EnvOption{cel.Variable("self", cel.DynType)},
	}
	lazy, err := newEnvSet(ver, baseOpts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := lazy.Extend(opt)
	if err != nil {
		t.Fatal(err)
	}
	want, err := eagerEnvSet(t, ver, baseOpts).Extend(opt)
	if err != nil {
		t.Fatal(err)
	}
	if got.lazy != nil {
		t.Fatal("an extended set is lazy")
	}
	for _, typ := range []Type{NewExpressions, StoredExpressions} {
		g, _ := got.Env(typ)
		w, _ := want.Env(typ)
		if describe(t, g) != describe(t, w) || checked(g) != checked(w) {
			t.Fatalf("%s differs after Extend", typ)
		}
	}
}

// TestLazyStoredEnvPatchConcurrent asks a fresh set for StoredExpressions
// from several goroutines at once: one environment, built once.
func TestLazyStoredEnvPatchConcurrent(t *testing.T) {
	set, err := newEnvSet(DefaultCompatibilityVersion(), baseOpts)
	if err != nil {
		t.Fatal(err)
	}
	builds := 0
	build := set.lazy.build
	set.lazy.build = func() *cel.Env { builds++; return build() }
	envs := make([]*cel.Env, 8)
	var wg sync.WaitGroup
	for i := range envs {
		wg.Add(1)
		go func() { defer wg.Done(); envs[i] = set.StoredExpressionsEnv() }()
	}
	wg.Wait()
	for _, e := range envs {
		if e == nil || e != envs[0] {
			t.Fatal("StoredExpressions differs between callers")
		}
	}
	if builds != 1 {
		t.Fatalf("StoredExpressions built %d times", builds)
	}
	if describe(t, envs[0]) != describe(t, eagerEnvSet(t, DefaultCompatibilityVersion(), baseOpts).StoredExpressionsEnv()) {
		t.Fatal("StoredExpressions differs from upstream's")
	}
}
