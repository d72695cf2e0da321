package library

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apiserver/internal/patchcheck"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// TestCostValuePatchIsOnlyTheDeclaredEdits: cost.go is upstream's with
// CallCost's body moved to CallCostValue, every `return &x` of it turned
// into `return x, true` and its `return nil` into `return 0, false`, plus
// actualSize's String case (PATCHES.md, "cel/library: costs and string
// arguments without allocations").
func TestCostValuePatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../..", patchcheck.Patch{
		File: "pkg/cel/library/cost.go",
		// The returns first, then the new CallCost, whose own `return &cost` stays.
		Replace: [][2]string{
			{"return &cost.Max\n", "return cost.Max, true\n"},
			{"return &cost\n", "return cost, true\n"},
			{"return &unitCost\n", "return unitCost, true\n"},
			{"\treturn nil\n}\n\nfunc (l *CostEstimator) EstimateCallCost(", "\treturn 0, false\n}\n\nfunc (l *CostEstimator) EstimateCallCost("},
			{"func actualSize(value ref.Val) uint64 {\n", "func actualSize(value ref.Val) uint64 {\n\tif s, ok := value.(types.String); ok {\n\t\treturn uint64(s.Size().(types.Int))\n\t}\n"},
			{"func (l *CostEstimator) CallCost(function, overloadId string, args []ref.Val, result ref.Val) *uint64 {\n",
				"// CallCost returns a pointer to the cost CallCostValue reports, or nil.\n" +
					"func (l *CostEstimator) CallCost(function, overloadId string, args []ref.Val, result ref.Val) *uint64 {\n" +
					"\tif cost, ok := l.CallCostValue(function, overloadId, args, result); ok {\n\t\treturn &cost\n\t}\n\treturn nil\n}\n\n" +
					"// CallCostValue is the actual cost of a call of these libraries, or\n" +
					"// (0, false) when they leave it to CEL's. cel-go's cost tracker asks for it\n" +
					"// as a value (interpreter.ActualCostValueEstimator), so costing a call\n" +
					"// allocates nothing.\n" +
					"func (l *CostEstimator) CallCostValue(function, overloadId string, args []ref.Val, result ref.Val) (uint64, bool) {\n"},
		},
	})
}

// TestStringArgPatchIsOnlyTheDeclaredEdits: the library files whose only
// edit is reading string arguments with stringArg (authz.go and format.go,
// patched for their imports too, are covered by TestStringArgPatch and
// their own tests).
func TestStringArgPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	edits := [][2]string{
		{"arg.Value().(string)", "stringArg(arg)"},
		{"args[0].Value().(string)", "stringArg(args[0])"},
		{"args[1].Value().(string)", "stringArg(args[1])"},
		{"strVal.Value().(string)", "stringArg(strVal)"},
		{"regexVal.Value().(string)", "stringArg(regexVal)"},
	}
	upstream := patchcheck.UpstreamDir(t, "k8s.io/apiserver@"+patchcheck.Version)
	for _, f := range []string{"cidr.go", "ip.go", "jsonpatch.go", "quantity.go", "regex.go", "semverlib.go", "urls.go"} {
		var mine [][2]string
		src, err := os.ReadFile(filepath.Join(upstream, "pkg/cel/library", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range edits {
			if strings.Contains(string(src), e[0]) {
				mine = append(mine, e)
			}
		}
		patchcheck.Check(t, "../../..", patchcheck.Patch{File: "pkg/cel/library/" + f, Replace: mine})
	}
}

// TestStringArgPatch: stringArg answers as v.Value().(string) for values
// of every kind, and reads a String without allocating.
func TestStringArgPatch(t *testing.T) {
	q := resource.MustParse("1Gi")
	for _, v := range []ref.Val{
		types.String("abc"), types.String(""), types.Bytes("abc"), types.Int(1), types.Uint(2), types.Double(1.5),
		types.True, types.NullValue, types.NewErr("e"), types.Timestamp{Time: time.Unix(0, 0)},
		types.DefaultTypeAdapter.NativeToValue([]string{"a"}), apiservercel.Quantity{Quantity: &q},
	} {
		want, wantOK := v.Value().(string)
		got, gotOK := stringArg(v)
		if got != want || gotOK != wantOK {
			t.Errorf("stringArg(%v) = %q, %v; Value() gives %q, %v", v, got, gotOK, want, wantOK)
		}
	}
	v := ref.Val(types.String("768Mi"))
	if n := testing.AllocsPerRun(100, func() { stringArg(v) }); n != 0 {
		t.Errorf("stringArg of a String allocates %v times", n)
	}
}

// TestCallCostValuePatch: CallCost points to CallCostValue's cost, or is nil
// when CallCostValue reports none, for every function CallCost knows and
// some it does not, with arguments of several kinds; cel-go's tracker takes
// the value path for this estimator; and the value path of a quantity
// constructor allocates nothing.
func TestCallCostValuePatch(t *testing.T) {
	q := resource.MustParse("1Gi")
	argSets := [][]ref.Val{
		nil,
		{types.String("768Mi")},
		{types.String("a-much-longer-string-argument"), types.String("^[a-z]+$")},
		{types.DefaultTypeAdapter.NativeToValue([]int{1, 2, 3}), types.Int(2)},
		{apiservercel.Quantity{Quantity: &q}, apiservercel.Quantity{Quantity: &q}},
		{types.Int(1), types.String("x"), types.String("y")},
	}
	functions := []string{"check", "serviceAccount", "path", "fieldSelector", "labelSelector", "isSorted", "sum",
		"url", "lowerAscii", "replace", "split", "join", "find", "findAll", "cidr", "isIP", "ip", "ip.isCanonical",
		"masked", "containsIP", "containsCIDR", "quantity", "isQuantity", "semver", "validate", "format.named",
		"sign", "isLessThan", "getScheme", "_==_", "matches", "size", "_+_"}
	est := &CostEstimator{}
	for _, fn := range functions {
		for _, overload := range []string{"", "cidr_ip", "cidr_contains_ip_string", "cidr_contains_cidr_string"} {
			for i, args := range argSets {
				result := ref.Val(types.String("result"))
				ptr := est.CallCost(fn, overload, args, result)
				val, ok := est.CallCostValue(fn, overload, args, result)
				if (ptr != nil) != ok || (ok && *ptr != val) {
					t.Errorf("%s(%s), arguments %d: CallCost %v, CallCostValue %d, %v", fn, overload, i, fmt.Sprint(deref(ptr)), val, ok)
				}
			}
		}
	}
	var _ interpreter.ActualCostValueEstimator = est
	args := []ref.Val{types.String("768Mi")}
	if n := testing.AllocsPerRun(100, func() { est.CallCostValue("quantity", "stringToQuantity", args, nil) }); n != 0 {
		t.Errorf("CallCostValue of quantity allocates %v times", n)
	}
}

func deref(p *uint64) any {
	if p == nil {
		return nil
	}
	return *p
}
