// Package tekton compiles Tekton when expressions (a PipelineTask's when
// list) into one CEL expression that accepts, rejects and decides as
// Tekton Pipelines (v1.3) does, without Tekton's text substitution.
//
// Variables, bound from a JSON context:
//
//	params       map(string, dyn)   {"path": "README.md", "arr": ["a"], "obj": {"url": "…"}}
//	tasks        map(string, dyn)   {"unit-test": {"results": {"coverage": "0.95"}, "status": "Succeeded"}, "status": "Completed"}
//	context      map(string, dyn)   {"pipelineRun": {"name": "…"}}
//	substituted  map(string, dyn)   computed: an unquoted reference's value as the CEL literal Tekton's substitution makes of it
//
// Tekton substitutes $(params.x), $(tasks.t.results.r), $(tasks.t.status),
// $(tasks.status) and $(context.…) as text and compiles the result in an
// empty CEL environment; its admission webhook compiles the expression
// before substitution in the same environment. Here:
//
//   - A reference inside a string literal ('$(params.x)' == 'foo') reads the
//     value as a string: ('$(params.x)' → string(params.x)), never as CEL, so
//     a value that holds CEL stays a value.
//   - An unquoted reference ($(tasks.t.results.coverage) >= 0.9) reads
//     substituted["tasks.t.results.coverage"]: the value when its text is
//     a CEL number or bool literal (what Tekton's substituted text would
//     compile to), otherwise an evaluation error that says to quote it.
//   - The expression, with each quoted reference left as text and each
//     unquoted one replaced by dyn(0), must compile in an empty environment
//     (cel-go's standard library), as Tekton's webhook requires: bare params,
//     tasks and context are undeclared references, '$(x)' > 0.9 is a type error.
//   - A when list is AND-ed. An entry is a CEL string, or a JSON object
//     {"cel": …} or {"input": …, "operator": "in"|"notin", "values": [...]}
//     where $(params.arr[*]) / $(tasks.t.results.arr[*]) in values expand to
//     the array's items.
//   - A referenced task result that is absent (the task was skipped or did
//     not emit it) makes the list false: Tekton skips the task.
package tekton

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"

	"github.com/tidwall/gjson"
)

// Variables are the variables when expressions read.
var Variables = []string{"params", "tasks", "context"}

// SubstitutedVariable holds the values of unquoted references.
const SubstitutedVariable = "substituted"

// WhenToCEL turns a when list into one CEL expression (the entries
// AND-ed).
func WhenToCEL(entries []string) (string, error) {
	if len(entries) == 0 {
		return "", whenErr("no when expressions")
	}
	var parts []string
	results := map[string]bool{}
	var guards []string
	for i, x := range entries {
		r, refs, err := entryToCEL(x, i)
		if err != nil {
			return "", err
		}
		parts = append(parts, r)
		for _, p := range refs {
			if p.segs[0] == "tasks" && len(p.segs) >= 4 && p.segs[2] == "results" {
				g := presence(p.segs[:4])
				if !results[g] {
					results[g] = true
					guards = append(guards, g)
				}
			}
		}
	}
	if len(parts) == 1 && len(guards) == 0 {
		return parts[0], nil
	}
	var all []string
	for _, p := range append(guards, parts...) {
		all = append(all, "("+p+")")
	}
	return strings.Join(all, " && "), nil
}

func whenErr(format string, args ...any) *wire.Error {
	return engine.Errorf(wire.CodeCompile, "when: "+format, args...)
}

// entryToCEL compiles one when expression.
func entryToCEL(x string, i int) (string, []reference, error) {
	t := strings.TrimSpace(x)
	if strings.HasPrefix(t, "{") && gjson.Valid(t) {
		var we struct {
			CEL      string   `json:"cel"`
			Input    string   `json:"input"`
			Operator string   `json:"operator"`
			Values   []string `json:"values"`
		}
		if err := json.Unmarshal([]byte(t), &we); err != nil {
			return "", nil, whenErr("when[%d]: %v", i, err)
		}
		if we.CEL != "" {
			if we.Input != "" || we.Operator != "" || len(we.Values) != 0 {
				return "", nil, whenErr("when[%d]: cel and input+operator+values cannot be set in one WhenExpression", i)
			}
			return celToCEL(we.CEL)
		}
		if we.Input == "" && we.Operator == "" && len(we.Values) == 0 {
			return "", nil, whenErr("missing field(s): when[%d]", i)
		}
		if we.Operator != "in" && we.Operator != "notin" {
			return "", nil, whenErr("invalid value: operator %q is not recognized. valid operators: in,notin: when[%d]", we.Operator, i)
		}
		if len(we.Values) == 0 {
			return "", nil, whenErr("invalid value: expecting non-empty values field: when[%d]", i)
		}
		return inToCEL(we.Input, we.Operator, we.Values)
	}
	return celToCEL(x)
}

// inToCEL: input in / notin values, every string a template.
func inToCEL(input, op string, values []string) (string, []reference, error) {
	in, refs, err := template(input)
	if err != nil {
		return "", nil, err
	}
	var lists, items []string
	for _, v := range values {
		if strings.HasPrefix(v, "$(") && strings.HasSuffix(v, "[*])") && strings.Count(v, "$(") == 1 {
			r, err := parseReference(v[2:len(v)-4], true)
			if err != nil {
				return "", nil, err
			}
			if len(items) > 0 {
				lists = append(lists, "["+strings.Join(items, ", ")+"]")
				items = nil
			}
			refs = append(refs, r)
			lists = append(lists, r.access()+".map(v, string(v))")
			continue
		}
		c, rs, err := template(v)
		if err != nil {
			return "", nil, err
		}
		refs = append(refs, rs...)
		items = append(items, c)
	}
	if len(items) > 0 {
		lists = append(lists, "["+strings.Join(items, ", ")+"]")
	}
	expr := in + " in " + strings.Join(lists, " + ")
	if op == "notin" {
		expr = "!(" + expr + ")"
	}
	return expr, refs, nil
}

// template is a string with $(…) references as a CEL string expression.
func template(s string) (string, []reference, error) {
	var parts []string
	var refs []reference
	for {
		p := strings.Index(s, "$(")
		if p < 0 {
			if s != "" || len(parts) == 0 {
				parts = append(parts, strconv.Quote(s))
			}
			break
		}
		if p > 0 {
			parts = append(parts, strconv.Quote(s[:p]))
		}
		r, n, err := readReference(s, p)
		if err != nil {
			return "", nil, err
		}
		refs = append(refs, r)
		parts = append(parts, "string("+r.access()+")")
		s = s[p+n:]
	}
	if len(parts) == 1 {
		return parts[0], refs, nil
	}
	return "(" + strings.Join(parts, " + ") + ")", refs, nil
}

// celToCEL rewrites one cel when expression and checks it as Tekton's
// webhook does.
func celToCEL(src string) (string, []reference, error) {
	var out, check strings.Builder
	var refs []reference
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '$' && strings.HasPrefix(src[i:], "$("):
			r, n, err := readReference(src, i)
			if err != nil {
				return "", nil, err
			}
			refs = append(refs, r)
			out.WriteString(SubstitutedVariable + "[" + strconv.Quote(r.key) + "]")
			check.WriteString("dyn(0)")
			i += n
		case c == '"' || c == '\'' || ((c == 'r' || c == 'R' || c == 'b' || c == 'B') && i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '\'' ||
			((src[i+1] == 'r' || src[i+1] == 'R' || src[i+1] == 'b' || src[i+1] == 'B') && i+2 < len(src) && (src[i+2] == '"' || src[i+2] == '\''))) &&
			(i == 0 || !isIdentChar(src[i-1]))):
			lit, rs, n, err := rewriteStringLiteral(src, i)
			if err != nil {
				return "", nil, err
			}
			refs = append(refs, rs...)
			out.WriteString(lit)
			check.WriteString(src[i : i+n])
			i += n
		default:
			out.WriteByte(c)
			check.WriteByte(c)
			i++
		}
	}
	if err := tektonCompile(check.String(), src); err != nil {
		return "", nil, err
	}
	return out.String(), refs, nil
}

// tektonEnv is Tekton's environment: cel.NewEnv() with no declarations.
var tektonEnv *cel.Env

func tektonCompile(check, src string) error {
	if tektonEnv == nil {
		env, err := cel.NewEnv()
		if err != nil {
			return whenErr("%v", err)
		}
		tektonEnv = env
	}
	if _, iss := tektonEnv.Compile(check); iss.Err() != nil {
		return whenErr("invalid cel expression: %s with err: %s", src, iss.Err().Error())
	}
	return nil
}

func isIdentChar(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// A reference is a parsed $(…): its path segments (strings, or ints for
// [N]) and its canonical text (the key of substituted).
type reference struct {
	segs []any
	key  string
}

func (r reference) access() string {
	s := r.segs[0].(string)
	for _, seg := range r.segs[1:] {
		switch v := seg.(type) {
		case int:
			s += "[" + strconv.Itoa(v) + "]"
		case string:
			if engine.Selectable(v) {
				s += "." + v
			} else {
				s += "[" + strconv.Quote(v) + "]"
			}
		}
	}
	return s
}

// readReference reads $(...) at src[i:].
func readReference(src string, i int) (reference, int, error) {
	end := -1
	quote := byte(0)
	for j := i + 2; j < len(src); j++ {
		c := src[j]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		if c == '\'' || c == '"' {
			quote = c
			continue
		}
		if c == ')' {
			end = j
			break
		}
	}
	if end < 0 {
		return reference{}, 0, whenErr("unterminated reference at offset %d", i)
	}
	r, err := parseReference(src[i+2:end], false)
	return r, end + 1 - i, err
}

// parseReference splits params.name, params['a.b'], params.arr[0],
// params.obj.key, tasks.t.results.r, context.pipelineRun.name into
// segments and checks the root. wholeArray: the text had [*], removed.
func parseReference(text string, wholeArray bool) (reference, error) {
	var segs []any
	s := text
	for len(s) > 0 {
		switch {
		case s[0] == '.':
			s = s[1:]
			continue
		case s[0] == '[':
			k := strings.IndexByte(s, ']')
			if k < 0 {
				return reference{}, whenErr("reference $(%s): bad brackets", text)
			}
			inner := s[1:k]
			if len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0] {
				segs = append(segs, inner[1:len(inner)-1])
			} else if n, err := strconv.Atoi(inner); err == nil && n >= 0 {
				segs = append(segs, n)
			} else if inner == "*" {
				return reference{}, whenErr("reference $(%s): whole array replacement ([*]) is supported only as a when values entry, not in cel", text)
			} else {
				return reference{}, whenErr("reference $(%s): bad brackets", text)
			}
			s = s[k+1:]
			continue
		}
		n := strings.IndexAny(s, ".[")
		if n < 0 {
			n = len(s)
		}
		seg := s[:n]
		if strings.ContainsAny(seg, "*() '\"") {
			return reference{}, whenErr("reference $(%s): %q is not a name", text, seg)
		}
		segs = append(segs, seg)
		s = s[n:]
	}
	if len(segs) < 2 {
		return reference{}, whenErr("reference $(%s): want params.NAME, tasks.TASK.results.NAME, tasks.TASK.status, tasks.status or context.…", text)
	}
	root, _ := segs[0].(string)
	switch root {
	case "params", "context":
	case "tasks":
		ok := (len(segs) == 2 && segs[1] == "status") || (len(segs) == 3 && segs[2] == "status") ||
			(len(segs) >= 4 && len(segs) <= 5 && segs[2] == "results")
		if !ok {
			return reference{}, whenErr("reference $(%s): want tasks.TASK.results.NAME, tasks.TASK.status or tasks.status", text)
		}
	default:
		return reference{}, whenErr("reference $(%s): only params, tasks and context can be referenced in when expressions", text)
	}
	for _, seg := range segs {
		if s, ok := seg.(string); ok && s == "" {
			return reference{}, whenErr("reference $(%s): empty name", text)
		}
	}
	key := text
	if wholeArray {
		key += "[*]"
	}
	return reference{segs: segs, key: key}, nil
}

// presence is true when every prefix of path exists.
func presence(path []any) string {
	var terms []string
	for i := 1; i < len(path); i++ {
		parent := reference{segs: path[:i]}.access()
		seg := path[i].(string)
		if engine.Selectable(seg) {
			terms = append(terms, "has("+parent+"."+seg+")")
		} else {
			terms = append(terms, strconv.Quote(seg)+" in "+parent)
		}
	}
	return strings.Join(terms, " && ")
}

// rewriteStringLiteral copies the CEL string or bytes literal at src[i:];
// references inside a string literal become concatenations.
func rewriteStringLiteral(src string, i int) (string, []reference, int, error) {
	j := i
	raw, isBytes := false, false
	for j < len(src) && (src[j] == 'r' || src[j] == 'R' || src[j] == 'b' || src[j] == 'B') {
		raw = raw || src[j] == 'r' || src[j] == 'R'
		isBytes = isBytes || src[j] == 'b' || src[j] == 'B'
		j++
	}
	prefix := src[i:j]
	q := src[j]
	delim := string(q)
	if strings.HasPrefix(src[j:], strings.Repeat(string(q), 3)) {
		delim = strings.Repeat(string(q), 3)
	}
	bodyStart := j + len(delim)
	k := bodyStart
	for {
		if k >= len(src) {
			return "", nil, 0, whenErr("unterminated string literal at offset %d", i)
		}
		if !raw && src[k] == '\\' {
			k += 2
			continue
		}
		if strings.HasPrefix(src[k:], delim) {
			break
		}
		k++
	}
	body := src[bodyStart:k]
	n := k + len(delim) - i
	if !strings.Contains(body, "$(") {
		return src[i : i+n], nil, n, nil
	}
	if isBytes {
		return "", nil, 0, whenErr("references inside bytes literals are not supported")
	}
	var parts []string
	var refs []reference
	for len(body) > 0 {
		p := strings.Index(body, "$(")
		if p < 0 {
			parts = append(parts, prefix+delim+body+delim)
			break
		}
		if p > 0 {
			parts = append(parts, prefix+delim+body[:p]+delim)
		}
		r, m, err := readReference(body, p)
		if err != nil {
			return "", nil, 0, err
		}
		refs = append(refs, r)
		parts = append(parts, "string("+r.access()+")")
		body = body[p+m:]
	}
	if len(parts) == 1 {
		return parts[0], refs, n, nil
	}
	return "(" + strings.Join(parts, " + ") + ")", refs, n, nil
}

// BindSubstituted binds the substituted variable: for each unquoted
// reference the expression reads, the value of Tekton's substituted text
// when that text is a CEL number or bool literal, else an error.
func BindSubstituted(a *codec.Activation) {
	a.Bind(SubstitutedVariable, &substitutedMap{act: a})
}

// literal is the value of text as a CEL literal (number, bool; a leading
// minus allowed), or false.
func literal(text string) (ref.Val, bool) {
	p, iss := parserEnv().Parse(text)
	if iss.Err() != nil {
		return nil, false
	}
	e := p.NativeRep().Expr()
	neg := false
	if e.Kind() == ast.CallKind && e.AsCall().FunctionName() == operators.Negate && len(e.AsCall().Args()) == 1 {
		neg, e = true, e.AsCall().Args()[0]
	}
	if e.Kind() != ast.LiteralKind {
		return nil, false
	}
	v := e.AsLiteral()
	switch x := v.(type) {
	case types.Int:
		if neg {
			return -x, true
		}
		return x, true
	case types.Double:
		if neg {
			return -x, true
		}
		return x, true
	case types.Uint:
		return x, !neg
	case types.Bool:
		return x, !neg
	}
	return nil, false
}

func parserEnv() *cel.Env {
	if tektonEnv == nil {
		tektonEnv, _ = cel.NewEnv()
	}
	return tektonEnv
}

// VariableTypes returns the declarations: each a map(string, dyn).
func VariableTypes() map[string]string {
	out := map[string]string{SubstitutedVariable: "map(string, dyn)"}
	for _, v := range Variables {
		out[v] = "map(string, dyn)"
	}
	return out
}

// WhenEntries turns a JSON when list's items (a string: a cel entry; an
// object: a WhenExpression) into WhenToCEL's entries.
func WhenEntries(items []json.RawMessage) []string {
	var out []string
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) == nil {
			out = append(out, s)
		} else {
			out = append(out, string(it))
		}
	}
	return out
}
