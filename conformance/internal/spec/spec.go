// Package spec turns the cel-spec conformance tests (cel.dev/expr
// tests/simple/testdata/*.textproto) into celwasm corpus lines: compile
// request, eval request and expectation (conformance/FORMAT.md).
package spec

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	celpb "cel.dev/expr"
	test2pb "cel.dev/expr/conformance/proto2"
	test3pb "cel.dev/expr/conformance/proto3"
	testpb "cel.dev/expr/conformance/test"
	"github.com/celwasm/celwasm/conformance/internal/corpus"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Extensions is the environment of every spec test: the "cel" base with
// the extensions cel-go's conformance runner enables, plus cel.block's
// test syntax and the network library for network_ext.
var Extensions = []string{"bindings", "block", "encoders", "lists", "math", "network", "protos", "strings", "two-var-comprehensions"}

// compileRequest is the module's compile request (docs/abi.md).
type compileRequest struct {
	Expression string  `json:"expression"`
	Env        envSpec `json:"env"`
}

type envSpec struct {
	Base                   string         `json:"base"`
	Extensions             []string       `json:"extensions"`
	ErrorOnBadPresenceTest bool           `json:"errorOnBadPresenceTest"`
	Container              string         `json:"container,omitempty"`
	Variables              []variable     `json:"variables,omitempty"`
	Functions              []functionDecl `json:"functions,omitempty"`
	DisableTypeCheck       bool           `json:"disableTypeCheck,omitempty"`
	DisableMacros          bool           `json:"disableMacros,omitempty"`
	DescriptorSet          string         `json:"descriptorSet,omitempty"`
}

type variable struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type functionDecl struct {
	Name      string     `json:"name"`
	Overloads []overload `json:"overloads"`
}

type overload struct {
	ID         string   `json:"id"`
	Member     bool     `json:"member,omitempty"`
	TypeParams []string `json:"typeParams,omitempty"`
	Args       []string `json:"args"`
	Result     string   `json:"result"`
}

type evalRequest struct {
	TypedActivation map[string]json.RawMessage `json:"typedActivation,omitempty"`
}

// Generate reads every *.textproto in dir, in name order, and returns one
// corpus test per cel-spec test, with id "file/section/test".
func Generate(dir string) ([]corpus.Test, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.textproto"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, fmt.Errorf("no .textproto files in %s", dir)
	}
	ds, err := newDescriptorSets()
	if err != nil {
		return nil, err
	}
	var out []corpus.Test
	seen := map[string]int{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var f testpb.SimpleTestFile
		if err := prototext.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		for _, s := range f.GetSection() {
			for _, t := range s.GetTest() {
				id := f.GetName() + "/" + s.GetName() + "/" + t.GetName()
				if n := seen[id]; n > 0 {
					// A repeated name gets go test's suffix, as cel-go's runner shows it.
					seen[id]++
					id = fmt.Sprintf("%s#%02d", id, n)
				} else {
					seen[id] = 1
				}
				ct, err := convert(id, t, ds)
				if err != nil {
					return nil, fmt.Errorf("%s: %v", id, err)
				}
				out = append(out, ct)
			}
		}
	}
	return out, nil
}

func convert(id string, t *testpb.SimpleTest, ds descriptorSets) (corpus.Test, error) {
	if t.GetLocale() != "" {
		return corpus.Test{}, fmt.Errorf("locale %q is not supported", t.GetLocale())
	}
	env := envSpec{
		Base:                   "cel",
		Extensions:             Extensions,
		ErrorOnBadPresenceTest: true,
		Container:              t.GetContainer(),
		DisableTypeCheck:       t.GetDisableCheck(),
		DisableMacros:          t.GetDisableMacros(),
	}
	env.DescriptorSet = ds.pick(t)
	for _, d := range t.GetTypeEnv() {
		switch k := d.GetDeclKind().(type) {
		case *celpb.Decl_Ident:
			if k.Ident.GetValue() != nil {
				return corpus.Test{}, fmt.Errorf("constant declarations are not supported")
			}
			tn, err := TypeName(k.Ident.GetType())
			if err != nil {
				return corpus.Test{}, err
			}
			env.Variables = append(env.Variables, variable{Name: d.GetName(), Type: tn})
		case *celpb.Decl_Function:
			fd := functionDecl{Name: d.GetName()}
			for _, o := range k.Function.GetOverloads() {
				ov := overload{ID: o.GetOverloadId(), Member: o.GetIsInstanceFunction()}
				params := map[string]bool{}
				for _, p := range o.GetTypeParams() {
					params[p] = true
				}
				for _, p := range o.GetParams() {
					tn, err := TypeName(p)
					if err != nil {
						return corpus.Test{}, err
					}
					ov.Args = append(ov.Args, tn)
					typeParams(p, params)
				}
				tn, err := TypeName(o.GetResultType())
				if err != nil {
					return corpus.Test{}, err
				}
				ov.Result = tn
				typeParams(o.GetResultType(), params)
				for p := range params {
					ov.TypeParams = append(ov.TypeParams, p)
				}
				sort.Strings(ov.TypeParams)
				fd.Overloads = append(fd.Overloads, ov)
			}
			env.Functions = append(env.Functions, fd)
		default:
			return corpus.Test{}, fmt.Errorf("declaration %q has no kind", d.GetName())
		}
	}
	compile, err := corpus.Marshal(compileRequest{Expression: t.GetExpr(), Env: env})
	if err != nil {
		return corpus.Test{}, err
	}
	out := corpus.Test{ID: id, Compile: compile}

	var result *celpb.Value
	switch m := t.GetResultMatcher().(type) {
	case nil:
		result = &celpb.Value{Kind: &celpb.Value_BoolValue{BoolValue: true}}
	case *testpb.SimpleTest_Value:
		result = m.Value
	case *testpb.SimpleTest_TypedResult:
		result = m.TypedResult.GetResult()
		ty, err := types.ProtoAsType(m.TypedResult.GetDeducedType())
		if err != nil {
			return corpus.Test{}, fmt.Errorf("deduced type: %v", err)
		}
		out.Expect.Type = cel.FormatCELType(ty)
	case *testpb.SimpleTest_EvalError, *testpb.SimpleTest_AnyEvalErrors:
		out.Expect.EvalError = true
	default:
		return corpus.Test{}, fmt.Errorf("result matcher %T is not supported", m)
	}
	if t.GetCheckOnly() {
		if out.Expect.Type == "" {
			return corpus.Test{}, fmt.Errorf("check_only without typed_result")
		}
		return out, nil
	}
	if result != nil {
		v, err := Canonical(result)
		if err != nil {
			return corpus.Test{}, fmt.Errorf("expected value: %v", err)
		}
		out.Expect.Value = v
	} else if !out.Expect.EvalError {
		return corpus.Test{}, fmt.Errorf("no expected value")
	}
	ev := evalRequest{}
	if len(t.GetBindings()) > 0 {
		ev.TypedActivation = map[string]json.RawMessage{}
		for name, b := range t.GetBindings() {
			v := b.GetValue()
			if v == nil {
				return corpus.Test{}, fmt.Errorf("binding %q is not a value", name)
			}
			c, err := Canonical(v)
			if err != nil {
				return corpus.Test{}, fmt.Errorf("binding %q: %v", name, err)
			}
			ev.TypedActivation[name] = c
		}
	}
	if out.Eval, err = corpus.Marshal(ev); err != nil {
		return corpus.Test{}, err
	}
	return out, nil
}

func typeParams(t *celpb.Type, into map[string]bool) {
	switch k := t.GetTypeKind().(type) {
	case *celpb.Type_TypeParam:
		into[k.TypeParam] = true
	case *celpb.Type_ListType_:
		typeParams(k.ListType.GetElemType(), into)
	case *celpb.Type_MapType_:
		typeParams(k.MapType.GetKeyType(), into)
		typeParams(k.MapType.GetValueType(), into)
	case *celpb.Type_Type:
		typeParams(k.Type, into)
	case *celpb.Type_AbstractType_:
		for _, p := range k.AbstractType.GetParameterTypes() {
			typeParams(p, into)
		}
	}
}

// pick returns the descriptor set a test needs: the one of the conformance
// messages its expression, container, declarations, bindings or expectation
// name, or none. Only those tests carry one, which keeps the corpus small.
func (d descriptorSets) pick(t *testpb.SimpleTest) string {
	b, _ := prototext.Marshal(t)
	text := string(b) + " " + t.GetContainer()
	if !strings.Contains(text, "conformance") && !strings.Contains(text, "TestAllTypes") {
		return ""
	}
	p2, p3 := strings.Contains(text, "proto2"), strings.Contains(text, "proto3")
	switch {
	case p2 && !p3:
		return d.proto2
	case p3 && !p2:
		return d.proto3
	}
	return d.both
}

// TypeName writes a cel.expr.Type as a celwasm type name (docs/abi.md).
func TypeName(t *celpb.Type) (string, error) {
	switch k := t.GetTypeKind().(type) {
	case *celpb.Type_Dyn:
		return "dyn", nil
	case *celpb.Type_Null:
		return "null_type", nil
	case *celpb.Type_Primitive:
		return primitive(k.Primitive)
	case *celpb.Type_Wrapper:
		switch k.Wrapper {
		case celpb.Type_BOOL:
			return "google.protobuf.BoolValue", nil
		case celpb.Type_INT64:
			return "google.protobuf.Int64Value", nil
		case celpb.Type_UINT64:
			return "google.protobuf.UInt64Value", nil
		case celpb.Type_DOUBLE:
			return "google.protobuf.DoubleValue", nil
		case celpb.Type_STRING:
			return "google.protobuf.StringValue", nil
		case celpb.Type_BYTES:
			return "google.protobuf.BytesValue", nil
		}
	case *celpb.Type_WellKnown:
		switch k.WellKnown {
		case celpb.Type_ANY:
			return "any", nil
		case celpb.Type_TIMESTAMP:
			return "timestamp", nil
		case celpb.Type_DURATION:
			return "duration", nil
		}
	case *celpb.Type_ListType_:
		e, err := TypeName(k.ListType.GetElemType())
		return "list(" + e + ")", err
	case *celpb.Type_MapType_:
		kt, err := TypeName(k.MapType.GetKeyType())
		if err != nil {
			return "", err
		}
		vt, err := TypeName(k.MapType.GetValueType())
		return "map(" + kt + ", " + vt + ")", err
	case *celpb.Type_MessageType:
		return k.MessageType, nil
	case *celpb.Type_TypeParam:
		return k.TypeParam, nil
	case *celpb.Type_Type:
		if k.Type.GetTypeKind() == nil {
			return "type", nil
		}
		p, err := TypeName(k.Type)
		return "type(" + p + ")", err
	case *celpb.Type_AbstractType_:
		var ps []string
		for _, p := range k.AbstractType.GetParameterTypes() {
			s, err := TypeName(p)
			if err != nil {
				return "", err
			}
			ps = append(ps, s)
		}
		if len(ps) == 0 {
			return k.AbstractType.GetName(), nil
		}
		return k.AbstractType.GetName() + "(" + strings.Join(ps, ", ") + ")", nil
	}
	return "", fmt.Errorf("type %v has no celwasm type name", t)
}

func primitive(p celpb.Type_PrimitiveType) (string, error) {
	switch p {
	case celpb.Type_BOOL:
		return "bool", nil
	case celpb.Type_INT64:
		return "int", nil
	case celpb.Type_UINT64:
		return "uint", nil
	case celpb.Type_DOUBLE:
		return "double", nil
	case celpb.Type_STRING:
		return "string", nil
	case celpb.Type_BYTES:
		return "bytes", nil
	}
	return "", fmt.Errorf("primitive type %v", p)
}

// descriptorSets are the gzip-compressed, base64 FileDescriptorSets a test
// may need: the proto2 messages (with their extensions), the proto3
// messages, or both; each with every imported file, dependencies first.
type descriptorSets struct{ proto2, proto3, both string }

func newDescriptorSets() (descriptorSets, error) {
	p2 := []protoreflect.FileDescriptor{
		test2pb.File_cel_expr_conformance_proto2_test_all_types_proto,
		test2pb.File_cel_expr_conformance_proto2_test_all_types_extensions_proto,
	}
	p3 := []protoreflect.FileDescriptor{test3pb.File_cel_expr_conformance_proto3_test_all_types_proto}
	var d descriptorSets
	var err error
	if d.proto2, err = DescriptorSet(p2...); err != nil {
		return d, err
	}
	if d.proto3, err = DescriptorSet(p3...); err != nil {
		return d, err
	}
	d.both, err = DescriptorSet(append(p2, p3...)...)
	return d, err
}

// DescriptorSet returns the FileDescriptorSet of files and every file they
// import, dependencies first, gzip-compressed and base64-encoded as the
// compile request's descriptorSet accepts it.
func DescriptorSet(files ...protoreflect.FileDescriptor) (string, error) {
	var set descriptorpb.FileDescriptorSet
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			add(imps.Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	for _, fd := range files {
		add(fd)
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(&set)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return "", err
	}
	zw.Write(b)
	if err := zw.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// TestdataDir returns cel.dev/expr's tests/simple/testdata in the module
// cache, for the version the build list has (go.mod pins v0.25.3).
func TestdataDir() (string, error) {
	b, err := exec.Command("go", "list", "-m", "-json", "cel.dev/expr").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m cel.dev/expr: %v", err)
	}
	var m struct{ Dir, Version string }
	if err := json.Unmarshal(b, &m); err != nil || m.Dir == "" {
		return "", fmt.Errorf("cel.dev/expr is not in the module cache (go mod download cel.dev/expr)")
	}
	return filepath.Join(m.Dir, "tests", "simple", "testdata"), nil
}
