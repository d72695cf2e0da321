package k8s

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/netip"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/version"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"

	"github.com/celwasm/celwasm/conformance/internal/corpus"
	"github.com/celwasm/celwasm/wasm/codec"
)

// outcome is what kube-apiserver's CEL environment makes of a case.
type outcome struct {
	expect   corpus.Expect
	overload map[string]bool // overload ids of the checked expression
}

// reference compiles and evaluates a case with kube-apiserver's own CEL
// environment (k8s.io/apiserver/pkg/cel/environment.MustBaseEnvSet) and
// cel-go, as kube-apiserver does: cost estimate with the library cost
// estimator, program with the base environment's program options (per-call
// limit, runtime cost tracking with the library estimator). Its activation
// and encoding are its own, written from docs/value-encoding.md; nothing
// here goes through the celwasm engine except the lexical formatters of
// numbers, strings, timestamps and durations.
func reference(c Case) (outcome, error) {
	out := outcome{overload: map[string]bool{}}
	ver, err := version.ParseMajorMinor(c.version())
	if err != nil {
		return out, err
	}
	set := environment.MustBaseEnvSet(ver)
	for _, x := range c.Exts {
		if x != "jsonpatch" {
			return out, fmt.Errorf("extension %q has no reference", x)
		}
		// As kube-apiserver's mutating admission policies add it.
		if set, err = set.Extend(environment.VersionedOptions{
			IntroducedVersion: version.MajorMinor(1, 32),
			EnvOptions:        []cel.EnvOption{library.JSONPatch()},
		}); err != nil {
			return out, err
		}
	}
	env, err := set.Env(environment.Type(c.envType()))
	if err != nil {
		return out, err
	}
	var decls []cel.EnvOption
	for _, v := range c.Vars {
		t, err := celType(v.Type)
		if err != nil {
			return out, err
		}
		decls = append(decls, cel.Variable(v.Name, t))
	}
	if len(decls) > 0 {
		if env, err = env.Extend(decls...); err != nil {
			return out, err
		}
	}
	ast, iss := env.Compile(c.Expr)
	if iss.Err() != nil {
		out.expect.CompileError = true
		return out, nil
	}
	for _, r := range ast.NativeRep().ReferenceMap() {
		for _, id := range r.OverloadIDs {
			out.overload[id] = true
		}
	}
	est, err := env.EstimateCost(ast, &library.CostEstimator{})
	if err != nil {
		return out, fmt.Errorf("estimate: %v", err)
	}
	var opts []cel.ProgramOption
	if c.CostLimit > 0 {
		opts = append(opts, cel.CostLimit(c.CostLimit))
	}
	prg, err := env.Program(ast, opts...)
	if err != nil {
		// kube-apiserver reports this as a compilation error ("program
		// instantiation failed"); folding constants can fail here.
		out.expect.CompileError = true
		return out, nil
	}
	act, err := activation(c)
	if err != nil {
		return out, err
	}
	val, det, evalErr := prg.Eval(act)
	var cost uint64
	if det != nil && det.ActualCost() != nil {
		cost = *det.ActualCost()
	}
	out.expect.CostEstimate = &corpus.CostEstimate{Min: est.Min, Max: est.Max}
	out.expect.Cost = &cost
	if evalErr != nil {
		out.expect.EvalError = true
		return out, nil
	}
	b, err := encode(nil, val)
	if err != nil {
		return out, fmt.Errorf("encode result: %v", err)
	}
	out.expect.Value = b
	return out, nil
}

// celType resolves the type names the cases use.
func celType(name string) (*cel.Type, error) {
	name = strings.TrimSpace(name)
	if open := strings.IndexByte(name, '('); open > 0 && strings.HasSuffix(name, ")") {
		params, err := splitParams(name[open+1 : len(name)-1])
		if err != nil {
			return nil, err
		}
		var ps []*cel.Type
		for _, p := range params {
			t, err := celType(p)
			if err != nil {
				return nil, err
			}
			ps = append(ps, t)
		}
		switch {
		case name[:open] == "list" && len(ps) == 1:
			return cel.ListType(ps[0]), nil
		case name[:open] == "map" && len(ps) == 2:
			return cel.MapType(ps[0], ps[1]), nil
		case name[:open] == "optional_type" && len(ps) == 1:
			return cel.OptionalType(ps[0]), nil
		}
		return nil, fmt.Errorf("type %q", name)
	}
	t, ok := map[string]*cel.Type{
		"int": cel.IntType, "uint": cel.UintType, "double": cel.DoubleType, "bool": cel.BoolType,
		"string": cel.StringType, "bytes": cel.BytesType, "dyn": cel.DynType, "null_type": cel.NullType,
		"timestamp": cel.TimestampType, "duration": cel.DurationType,
		"kubernetes.Quantity": apiservercel.QuantityType, "net.IP": apiservercel.IPType,
		"net.CIDR": apiservercel.CIDRType, "kubernetes.URL": apiservercel.URLType,
		"kubernetes.Semver":                      apiservercel.SemverType,
		"kubernetes.authorization.Authorizer":    library.AuthorizerType,
		"kubernetes.authorization.ResourceCheck": library.ResourceCheckType,
	}[name]
	if !ok {
		return nil, fmt.Errorf("type %q has no reference", name)
	}
	return t, nil
}

func splitParams(s string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced type %q", s)
	}
	return append(out, s[start:]), nil
}

// activation builds the case's variables: plain JSON converted by the
// declared type (docs/value-encoding.md), then the typed values.
func activation(c Case) (map[string]any, error) {
	act := map[string]any{}
	types := map[string]string{}
	for _, v := range c.Vars {
		types[v.Name] = v.Type
	}
	if c.Act != "" {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(c.Act), &raw); err != nil {
			return nil, err
		}
		for name, r := range raw {
			v, err := plain(r, types[name])
			if err != nil {
				return nil, fmt.Errorf("activation %q: %v", name, err)
			}
			act[name] = v
		}
	}
	if c.Typed != "" {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(c.Typed), &raw); err != nil {
			return nil, err
		}
		for name, r := range raw {
			v, err := typed(r)
			if err != nil {
				return nil, fmt.Errorf("typed activation %q: %v", name, err)
			}
			act[name] = v
		}
	}
	return act, nil
}

// plain converts plain JSON to the declared type; "" and dyn map naturally:
// integral numbers that fit int64 are int, other numbers double.
func plain(raw json.RawMessage, declared string) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return convert(v, declared)
}

func convert(v any, declared string) (any, error) {
	switch {
	case declared == "" || declared == "dyn":
		return natural(v), nil
	case declared == "int":
		n, ok := v.(json.Number)
		if !ok {
			return nil, fmt.Errorf("want a number for int")
		}
		return strconv.ParseInt(string(n), 10, 64)
	case declared == "double":
		n, ok := v.(json.Number)
		if !ok {
			return nil, fmt.Errorf("want a number for double")
		}
		return strconv.ParseFloat(string(n), 64)
	case declared == "string", declared == "bool":
		return v, nil
	case declared == "bytes":
		return base64.StdEncoding.DecodeString(v.(string))
	case declared == "timestamp":
		return time.Parse(time.RFC3339Nano, v.(string))
	case declared == "duration":
		return time.ParseDuration(v.(string))
	case strings.HasPrefix(declared, "list("):
		elem := declared[len("list(") : len(declared)-1]
		arr, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("want an array for %s", declared)
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			var err error
			if out[i], err = convert(e, elem); err != nil {
				return nil, err
			}
		}
		return out, nil
	case strings.HasPrefix(declared, "map(string, "):
		elem := declared[len("map(string, ") : len(declared)-1]
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("want an object for %s", declared)
		}
		out := make(map[string]any, len(obj))
		for k, e := range obj {
			var err error
			if out[k], err = convert(e, elem); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("declared type %q has no plain reference conversion", declared)
}

func natural(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return i
			}
		}
		f, _ := strconv.ParseFloat(s, 64)
		return f
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = natural(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = natural(e)
		}
		return out
	}
	return v
}

// typed decodes the canonical typed JSON the cases use.
func typed(raw json.RawMessage) (ref.Val, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || len(obj) != 1 {
		return nil, fmt.Errorf("want a one-member tagged object: %s", raw)
	}
	for tag, body := range obj {
		var s string
		switch tag {
		case "int":
			json.Unmarshal(body, &s)
			i, err := strconv.ParseInt(s, 10, 64)
			return types.Int(i), err
		case "uint":
			json.Unmarshal(body, &s)
			u, err := strconv.ParseUint(s, 10, 64)
			return types.Uint(u), err
		case "object":
			var o struct {
				Type  string          `json:"type"`
				Value json.RawMessage `json:"value"`
			}
			if err := json.Unmarshal(body, &o); err != nil {
				return nil, err
			}
			return object(o.Type, o.Value)
		}
		return nil, fmt.Errorf("tag %q has no reference decoding", tag)
	}
	return nil, nil
}

func object(typeName string, value json.RawMessage) (ref.Val, error) {
	if typeName == "kubernetes.authorization.Authorizer" || typeName == "kubernetes.authorization.ResourceCheck" {
		return authzValue(typeName, value)
	}
	var s string
	if err := json.Unmarshal(value, &s); err != nil {
		return nil, err
	}
	switch typeName {
	case "kubernetes.Quantity":
		q, err := resource.ParseQuantity(s)
		return apiservercel.Quantity{Quantity: &q}, err
	case "net.IP":
		a, err := netip.ParseAddr(s)
		return apiservercel.IP{Addr: a}, err
	case "net.CIDR":
		p, err := netip.ParsePrefix(s)
		return apiservercel.CIDR{Prefix: p}, err
	case "kubernetes.URL":
		u, err := url.Parse(s)
		return apiservercel.URL{URL: u}, err
	case "kubernetes.Semver":
		v, err := semver.Parse(s)
		return apiservercel.Semver{Version: v}, err
	}
	return nil, fmt.Errorf("object type %q has no reference decoding", typeName)
}

// encode writes a value in canonical typed JSON (docs/value-encoding.md).
func encode(dst []byte, v ref.Val) ([]byte, error) {
	switch x := v.(type) {
	case types.Null:
		return append(dst, "null"...), nil
	case types.Bool:
		return strconv.AppendBool(dst, bool(x)), nil
	case types.Int:
		return fmt.Appendf(dst, `{"int":"%d"}`, int64(x)), nil
	case types.Uint:
		return fmt.Appendf(dst, `{"uint":"%d"}`, uint64(x)), nil
	case types.Double:
		dst = append(dst, `{"double":"`...)
		dst = codec.AppendDouble(dst, float64(x))
		return append(dst, `"}`...), nil
	case types.String:
		return codec.AppendString(dst, string(x)), nil
	case types.Bytes:
		return fmt.Appendf(dst, `{"bytes":"%s"}`, base64.StdEncoding.EncodeToString(x)), nil
	case types.Timestamp:
		dst = append(dst, `{"timestamp":"`...)
		dst = codec.AppendTimestamp(dst, x.Time)
		return append(dst, `"}`...), nil
	case types.Duration:
		dst = append(dst, `{"duration":"`...)
		dst = codec.AppendDuration(dst, x.Duration)
		return append(dst, `"}`...), nil
	case *types.Optional:
		dst = append(dst, `{"optional":[`...)
		if x.HasValue() {
			var err error
			if dst, err = encode(dst, x.GetValue()); err != nil {
				return dst, err
			}
		}
		return append(dst, "]}"...), nil
	case *types.Type:
		dst = append(dst, `{"type":`...)
		return append(codec.AppendString(dst, x.TypeName()), '}'), nil
	case *types.Err:
		return dst, x
	case traits.Lister:
		dst = append(dst, '[')
		for i := types.Int(0); i < x.Size().(types.Int); i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = encode(dst, x.Get(i)); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case traits.Mapper:
		return encodeMap(dst, x)
	}
	dst = append(dst, `{"object":{"type":`...)
	dst = codec.AppendString(dst, v.Type().TypeName())
	if s, ok := v.Value().(fmt.Stringer); ok {
		if _, isErr := v.Value().(error); !isErr {
			dst = append(dst, `,"value":`...)
			dst = codec.AppendString(dst, s.String())
		}
	}
	return append(dst, "}}"...), nil
}

func encodeMap(dst []byte, m traits.Mapper) ([]byte, error) {
	type entry struct {
		rank int
		key  ref.Val
		k, v []byte
	}
	var entries []entry
	it := m.Iterator()
	for it.HasNext() == types.True {
		k := it.Next()
		rank := map[ref.Type]int{types.BoolType: 0, types.IntType: 1, types.UintType: 2, types.StringType: 3}
		r, ok := rank[k.Type()]
		if !ok {
			return dst, fmt.Errorf("map key %v", k)
		}
		kb, err := encode(nil, k)
		if err != nil {
			return dst, err
		}
		vb, err := encode(nil, m.Get(k))
		if err != nil {
			return dst, err
		}
		entries = append(entries, entry{r, k, kb, vb})
	}
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		switch x := a.key.(type) {
		case types.Bool:
			return !bool(x) && bool(b.key.(types.Bool))
		case types.Int:
			return x < b.key.(types.Int)
		case types.Uint:
			return x < b.key.(types.Uint)
		}
		return a.key.(types.String) < b.key.(types.String)
	})
	dst = append(dst, `{"map":[`...)
	for i, e := range entries {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		dst = append(dst, e.k...)
		dst = append(dst, ',')
		dst = append(dst, e.v...)
		dst = append(dst, ']')
	}
	return append(dst, "]}"...), nil
}
