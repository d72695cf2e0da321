package engine_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"testing"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/tidwall/gjson"
)

// evalTyped compiles expr in spec and evaluates it with a typed activation;
// it returns the canonical JSON, or the error code.
func evalTyped(t *testing.T, spec wire.EnvSpec, expr, typed string) (string, string) {
	t.Helper()
	env, err := engine.NewEnv(spec)
	if err != nil {
		return "", err.(*wire.Error).Code
	}
	prg, err := env.Compile(expr)
	if err != nil {
		return "", err.(*wire.Error).Code
	}
	a, err := codec.NewActivation(env, "{}")
	if err != nil {
		t.Fatal(err)
	}
	if typed != "" {
		if err := a.SetTyped(gjson.Parse(typed)); err != nil {
			return "", err.(*wire.Error).Code
		}
	}
	v, _, err := prg.Eval(a, 0)
	if err != nil {
		return "", err.(*wire.Error).Code
	}
	b, err := codec.AppendValue(nil, v)
	if err != nil {
		t.Fatalf("%s: encode: %v", expr, err)
	}
	return string(b), ""
}

func exts(names ...string) []wire.ExtensionRef {
	var out []wire.ExtensionRef
	for _, n := range names {
		out = append(out, wire.ExtensionRef{Name: n})
	}
	return out
}

func TestEnvFeatures(t *testing.T) {
	tuple := wire.FunctionDecl{Name: "tuple", Overloads: []wire.OverloadDecl{{
		ID: "tuple_T_U", TypeParams: []string{"T", "U"}, Args: []string{"T", "U"}, Result: "tuple(T, U)",
	}}}
	fn := wire.FunctionDecl{Name: "fn", Overloads: []wire.OverloadDecl{
		{ID: "fn_string_int", Args: []string{"string", "int"}, Result: "string"},
		{ID: "string_fn", Member: true, Args: []string{"string"}, Result: "bool"},
	}}
	cel := wire.EnvSpec{Base: engine.BaseCEL}
	with := func(f func(*wire.EnvSpec)) wire.EnvSpec { s := cel; f(&s); return s }
	cases := []struct {
		name    string
		spec    wire.EnvSpec
		expr    string
		typed   string
		want    string
		wantErr string
	}{
		// has() on a field of an int: false by default, an error when asked.
		{"presence default", cel, "has(dyn(1).a)", "", "false", ""},
		{"presence error", with(func(s *wire.EnvSpec) { s.ErrorOnBadPresenceTest = true }), "has(dyn(1).a)", "", "", wire.CodeEval},
		{"presence on maps", with(func(s *wire.EnvSpec) { s.ErrorOnBadPresenceTest = true }), "has({'a': 1}.a) && !has({'a': 1}.b)", "", "true", ""},
		// declared functions type-check and fail at evaluation
		{"function call fails", with(func(s *wire.EnvSpec) { s.Functions = []wire.FunctionDecl{fn} }), "fn('a', 1)", "", "", wire.CodeEval},
		{"member function types", with(func(s *wire.EnvSpec) { s.Functions = []wire.FunctionDecl{fn} }), "'a'.fn() || true", "", "true", ""},
		{"function wrong args", with(func(s *wire.EnvSpec) { s.Functions = []wire.FunctionDecl{fn} }), "fn(1, 1)", "", "", wire.CodeCompile},
		{"abstract type", with(func(s *wire.EnvSpec) { s.Functions = []wire.FunctionDecl{tuple} }), "type(tuple(1, 'a')) == type(tuple(1, 'a'))", "", "", wire.CodeEval},
		{"unknown type in function", with(func(s *wire.EnvSpec) {
			s.Functions = []wire.FunctionDecl{{Name: "f", Overloads: []wire.OverloadDecl{{ID: "f_x", Args: []string{"nosuch"}, Result: "int"}}}}
		}), "1", "", "", wire.CodeInvalidEnv},
		{"function twice", with(func(s *wire.EnvSpec) { s.Functions = []wire.FunctionDecl{fn, fn} }), "1", "", "", wire.CodeInvalidEnv},
		// cel.block
		{"block", with(func(s *wire.EnvSpec) { s.Extensions = exts("bindings", "block") }),
			"cel.block([1, cel.index(0) + 1, cel.index(1) * 10], cel.index(2))", "", `{"int":"20"}`, ""},
		{"block iterVar", with(func(s *wire.EnvSpec) { s.Extensions = exts("bindings", "block") }),
			"cel.block([[1, 2]], cel.index(0).map(cel.iterVar(0, 0), cel.iterVar(0, 0) * 2))", "", `[{"int":"2"},{"int":"4"}]`, ""},
		{"block needs bindings", with(func(s *wire.EnvSpec) { s.Extensions = exts("block") }), "1", "", "", wire.CodeInvalidEnv},
		{"block needs bindings v1", with(func(s *wire.EnvSpec) {
			s.Extensions = []wire.ExtensionRef{{Name: "bindings", Version: "0"}, {Name: "block"}}
		}), "1", "", "", wire.CodeInvalidEnv},
		{"block bad index", with(func(s *wire.EnvSpec) { s.Extensions = exts("bindings", "block") }), "cel.block([1], cel.index(-1))", "", "", wire.CodeCompile},
		// network (cel base only) and jsonpatch
		{"network", with(func(s *wire.EnvSpec) { s.Extensions = exts("network") }), "cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))", "", "true", ""},
		{"network version", with(func(s *wire.EnvSpec) { s.Extensions = []wire.ExtensionRef{{Name: "network", Version: "2"}} }), "1", "", "", wire.CodeInvalidEnv},
		{"network on kubernetes", wire.EnvSpec{Extensions: exts("network")}, "1", "", "", wire.CodeInvalidEnv},
		{"jsonpatch", wire.EnvSpec{Extensions: exts("jsonpatch")}, "jsonpatch.escapeKey('k8s.io/a~b')", "", `"k8s.io~1a~0b"`, ""},
		{"jsonpatch absent", wire.EnvSpec{}, "jsonpatch.escapeKey('a')", "", "", wire.CodeCompile},
	}
	for _, c := range cases {
		got, code := evalTyped(t, c.spec, c.expr, c.typed)
		if got != c.want || code != c.wantErr {
			t.Errorf("%s: %s = %s (err %q), want %s (err %q)", c.name, c.expr, got, code, c.want, c.wantErr)
		}
	}
}

func TestFunctionOutputTypes(t *testing.T) {
	env, err := engine.NewEnv(wire.EnvSpec{Base: engine.BaseCEL, Functions: []wire.FunctionDecl{{Name: "tuple", Overloads: []wire.OverloadDecl{{
		ID: "tuple_T_U", TypeParams: []string{"T", "U"}, Args: []string{"T", "U"}, Result: "tuple(T, U)",
	}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for expr, want := range map[string]string{
		"tuple(1, 'a')":                        "tuple(int, string)",
		"[tuple(1, 2u), tuple(dyn(1), 2u)][0]": "tuple(dyn, uint)",
	} {
		p, err := env.Compile(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if p.OutputType != want {
			t.Errorf("%s: output type %s, want %s", expr, p.OutputType, want)
		}
	}
}

func TestAuthzTable(t *testing.T) {
	spec := vars("authorizer", "kubernetes.authorization.Authorizer")
	table := `{"authorizer":{"object":{"type":"kubernetes.authorization.Authorizer","value":{
		"user":{"name":"alice","groups":["dev"]},
		"rules":[
			{"path":"/healthz","verb":"get"},
			{"user":"system:serviceaccount:ns1:builder","resource":"pods","verb":"*","reason":"sa may"},
			{"apiGroup":"apps","resource":"deployments","namespace":"prod","verb":"delete","decision":"deny","reason":"no deletes in prod"},
			{"resource":"secrets","decision":"noOpinion","error":"webhook timed out"},
			{"resource":"pods","labelSelector":"app=web","verb":"list","reason":"web pods"},
			{"resource":"pods","fieldSelector":"spec.nodeName=n1","verb":"list","reason":"node pods"},
			{"apiGroup":"apps","resource":"deployments","verb":"*","reason":"apps rbac"}
		]}}}}`
	cases := map[string]string{
		"authorizer.path('/healthz').check('get').allowed()":                                                                    "true",
		"authorizer.path('/healthz').check('post').allowed()":                                                                   "false",
		"authorizer.group('apps').resource('deployments').namespace('dev').check('delete').reason()":                            `"apps rbac"`,
		"authorizer.group('apps').resource('deployments').namespace('prod').check('delete').allowed()":                          "false",
		"authorizer.group('apps').resource('deployments').namespace('prod').check('delete').reason()":                           `"no deletes in prod"`,
		"authorizer.group('').resource('pods').check('get').allowed()":                                                          "false",
		"authorizer.serviceAccount('ns1', 'builder').group('').resource('pods').check('get').reason()":                          `"sa may"`,
		"[authorizer.group('').resource('secrets').check('get')].map(d, [string(d.allowed()), string(d.errored()), d.error()])": `[["false","true","webhook timed out"]]`,
		"authorizer.group('').resource('pods').labelSelector('app=web').check('list').reason()":                                 `"web pods"`,
		"authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1').check('list').reason()":                        `"node pods"`,
		"authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n2').check('list').allowed()":                       "false",
		"authorizer.group('apps').resource('deployments').subresource('scale').name('web').check('update').allowed()":           "true",
		"authorizer.group('apps').resource('deployments').check('get')":                                                         `{"object":{"type":"kubernetes.authorization.Decision"}}`,
	}
	for expr, want := range cases {
		got, code := evalTyped(t, spec, expr, table)
		if got != want {
			t.Errorf("%s = %s (err %q), want %s", expr, got, code, want)
		}
	}
	rr := `{"rr":{"object":{"type":"kubernetes.authorization.ResourceCheck","value":{
		"user":{"name":"bob"},"rules":[{"user":"bob","apiGroup":"apps","resource":"deployments","namespace":"ns","name":"web","verb":"update"}],
		"requestResource":{"group":"apps","version":"v1","resource":"deployments","namespace":"ns","name":"web"}}}}}`
	if got, code := evalTyped(t, vars("rr", "kubernetes.authorization.ResourceCheck"), "rr.check('update').allowed() && !rr.check('delete').allowed()", rr); got != "true" {
		t.Errorf("requestResource: %s (%s)", got, code)
	}
	for _, bad := range []string{
		`{"authorizer":{"object":{"type":"kubernetes.authorization.Authorizer","value":"x"}}}`,
		`{"authorizer":{"object":{"type":"kubernetes.authorization.Authorizer","value":{"rules":[{"verb":"get","decision":"maybe"}]}}}}`,
		`{"authorizer":{"object":{"type":"kubernetes.authorization.Authorizer","value":{"rules":[{"verbs":"get"}]}}}}`,
		`{"authorizer":{"object":{"type":"kubernetes.authorization.ResourceCheck","value":{"rules":[]}}}}`,
	} {
		if _, code := evalTyped(t, spec, "authorizer.path('/').check('get').allowed()", bad); code != wire.CodeInvalidActivation {
			t.Errorf("%s: got %q, want invalid_activation", bad, code)
		}
	}
}

// testDescriptorSet builds a FileDescriptorSet with message t.M {name, any,
// m} (and, with withU, u.U {t.M m} in a second file), gzip-compressed when
// gz, base64-encoded.
func testDescriptorSet(t *testing.T, gz, withU bool) string {
	t.Helper()
	str := descriptorpb.FieldDescriptorProto_TYPE_STRING
	msg := descriptorpb.FieldDescriptorProto_TYPE_MESSAGE
	i64 := descriptorpb.FieldDescriptorProto_TYPE_INT64
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	rep := descriptorpb.FieldDescriptorProto_LABEL_REPEATED
	fd := &descriptorpb.FileDescriptorProto{
		Name: proto.String("t.proto"), Package: proto.String("t"), Syntax: proto.String("proto3"),
		Dependency: []string{"google/protobuf/any.proto"},
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("M"),
			Field: []*descriptorpb.FieldDescriptorProto{
				{Name: proto.String("name"), Number: proto.Int32(1), Type: &str, Label: &opt},
				{Name: proto.String("any"), Number: proto.Int32(2), Type: &msg, Label: &opt, TypeName: proto.String(".google.protobuf.Any")},
				{Name: proto.String("m"), Number: proto.Int32(3), Type: &msg, Label: &rep, TypeName: proto.String(".t.M.MEntry")},
			},
			NestedType: []*descriptorpb.DescriptorProto{{
				Name:    proto.String("MEntry"),
				Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
				Field: []*descriptorpb.FieldDescriptorProto{
					{Name: proto.String("key"), Number: proto.Int32(1), Type: &str, Label: &opt},
					{Name: proto.String("value"), Number: proto.Int32(2), Type: &i64, Label: &opt},
				},
			}},
		}},
	}
	set := &descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{fd}}
	if withU {
		set.File = append(set.File, &descriptorpb.FileDescriptorProto{
			Name: proto.String("u.proto"), Package: proto.String("u"), Syntax: proto.String("proto3"),
			Dependency: []string{"t.proto"},
			MessageType: []*descriptorpb.DescriptorProto{{
				Name:  proto.String("U"),
				Field: []*descriptorpb.FieldDescriptorProto{{Name: proto.String("m"), Number: proto.Int32(1), Type: &msg, Label: &opt, TypeName: proto.String(".t.M")}},
			}},
		})
	}
	b, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	if gz {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		b = buf.Bytes()
	}
	return base64.StdEncoding.EncodeToString(b)
}

func TestDescriptorSetMessages(t *testing.T) {
	for _, gz := range []bool{false, true} {
		spec := wire.EnvSpec{Base: engine.BaseCEL, DescriptorSet: testDescriptorSet(t, gz, false)}
		for expr, want := range map[string]string{
			// Any fields holding the set's own messages pack and unpack.
			"t.M{name: 'a', any: t.M{name: 'b'}}.any.name":                     `"b"`,
			"t.M{any: t.M{name: 'b'}}.any == t.M{name: 'b'}":                   `true`,
			"t.M{any: t.M{name: 'b'}}":                                         `{"message":{"type":"t.M","json":{"any":{"@type":"type.googleapis.com/t.M","name":"b"}}}}`,
			"t.M{m: {'b': 1, 'a': 2, 'c': 3}}.m.map(k, k)":                     `["a","b","c"]`,
			"t.M{m: {'b': 1, 'a': 2}}.m.exists(k, t.M{m: {'b': 1}}.m[k] == 1)": `true`,
		} {
			if got, code := evalTyped(t, spec, expr, ""); got != want {
				t.Errorf("gzip %v: %s = %s (%s), want %s", gz, expr, got, code, want)
			}
		}
	}
	// A second set holding the same t.proto shares its descriptors, so Any
	// values (registered from the first set) still compare equal.
	spec := wire.EnvSpec{Base: engine.BaseCEL, DescriptorSet: testDescriptorSet(t, false, true)}
	if got, code := evalTyped(t, spec, "u.U{m: t.M{any: t.M{name: 'b'}}}.m.any == t.M{name: 'b'}", ""); got != "true" {
		t.Errorf("shared file across sets: %s (%s)", got, code)
	}
	for _, bad := range []string{
		base64.StdEncoding.EncodeToString([]byte{0x1f, 0x8b, 1, 2, 3}), // a gzip header, then garbage
		"not base64!",
		base64.StdEncoding.EncodeToString([]byte("not a descriptor set")),
	} {
		if _, code := evalTyped(t, wire.EnvSpec{Base: engine.BaseCEL, DescriptorSet: bad}, "1", ""); code != wire.CodeInvalidEnv {
			t.Errorf("descriptorSet %q: got %q, want invalid_env", bad, code)
		}
	}
}

// TestMapIterationIsStable: maps that are not JSON activations iterate in
// sorted key order (cel-go patch), so results and costs repeat exactly.
func TestMapIterationIsStable(t *testing.T) {
	env, err := engine.NewEnv(wire.EnvSpec{Base: engine.BaseCEL})
	if err != nil {
		t.Fatal(err)
	}
	prg, err := env.Compile("{'q': 1, 'b': 2, 'z': 3, 'a': 4, 'm': 5}.exists(k, k == 'm')")
	if err != nil {
		t.Fatal(err)
	}
	var first uint64
	for i := 0; i < 50; i++ {
		a, _ := codec.NewActivation(env, "{}")
		_, cost, err := prg.Eval(a, 0)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = cost
		} else if cost != first {
			t.Fatalf("run %d cost %d, run 0 cost %d", i, cost, first)
		}
	}
	if got, _ := evalTyped(t, wire.EnvSpec{Base: engine.BaseCEL}, "{'q': 1, 'b': 2, 2: 3, true: 4}.map(k, string(k))", ""); got != `["true","2","b","q"]` {
		t.Errorf("map literal keys in order %s", got)
	}
}
