package spec

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	celpb "cel.dev/expr"
	test2pb "cel.dev/expr/conformance/proto2"
	test3pb "cel.dev/expr/conformance/proto3"
	testpb "cel.dev/expr/conformance/test"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
)

func files(t *testing.T) []*testpb.SimpleTestFile {
	t.Helper()
	dir, err := TestdataDir()
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.textproto"))
	sort.Strings(paths)
	if len(paths) != 31 {
		t.Fatalf("%d textproto files in %s, want 31", len(paths), dir)
	}
	var out []*testpb.SimpleTestFile
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f testpb.SimpleTestFile
		if err := prototext.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		out = append(out, &f)
	}
	return out
}

// TestCanonicalAgreesWithEngine: the corpus's own encoding of every expected
// value and binding equals the engine's encoding of the same value read by
// cel-go (two independent paths to the same bytes).
func TestCanonicalAgreesWithEngine(t *testing.T) {
	env, err := cel.NewEnv(cel.Types(&test2pb.TestAllTypes{}, &test3pb.TestAllTypes{}))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	check := func(name string, v *celpb.Value) {
		if v == nil {
			return
		}
		ours, err := Canonical(v)
		if err != nil {
			t.Errorf("%s: Canonical: %v", name, err)
			return
		}
		val, err := cel.ProtoAsValue(env.CELTypeAdapter(), v)
		if err != nil {
			return // values cel-go cannot read (e.g. unknown enum types) have no engine encoding
		}
		theirs, err := codec.AppendValue(nil, val)
		if err != nil {
			t.Errorf("%s: engine: %v", name, err)
			return
		}
		if string(ours) != string(theirs) {
			t.Errorf("%s:\n corpus %s\n engine %s", name, ours, theirs)
		}
		n++
	}
	for _, f := range files(t) {
		for _, s := range f.GetSection() {
			for _, tc := range s.GetTest() {
				name := f.GetName() + "/" + s.GetName() + "/" + tc.GetName()
				check(name, tc.GetValue())
				check(name, tc.GetTypedResult().GetResult())
				for k, b := range tc.GetBindings() {
					check(name+" binding "+k, b.GetValue())
				}
			}
		}
	}
	if n < 2000 {
		t.Fatalf("only %d values compared", n)
	}
}

// TestTypeNames: every declared type written as a celwasm type name resolves
// (as the engine resolves declarations) to the declared type.
func TestTypeNames(t *testing.T) {
	env, err := cel.NewEnv(cel.Types(&test2pb.TestAllTypes{}, &test3pb.TestAllTypes{}))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files(t) {
		for _, s := range f.GetSection() {
			for _, tc := range s.GetTest() {
				for _, d := range tc.GetTypeEnv() {
					id := d.GetIdent()
					if id == nil {
						continue
					}
					name, err := TypeName(id.GetType())
					if err != nil {
						t.Errorf("%s: %v", tc.GetName(), err)
						continue
					}
					want, err := types.ProtoAsType(id.GetType())
					if err != nil {
						t.Fatal(err)
					}
					got, err := engine.ResolveType(name, env.CELTypeProvider())
					if err != nil {
						t.Errorf("%s: %s: %v", tc.GetName(), name, err)
						continue
					}
					if !got.IsExactType(want) {
						t.Errorf("%s: %s resolves to %v, want %v", tc.GetName(), name, got, want)
					}
					n++
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d declarations checked", n)
	}
}
