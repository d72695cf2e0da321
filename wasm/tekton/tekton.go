// Package tekton compiles Tekton when expressions (TEP-0145).
//
// Variables, bound from a JSON context:
//
//	params   map(string, dyn)  $(params.path) == 'README.md'
//	tasks    map(string, dyn)  $(tasks.unit-test.results.test-coverage) >= 0.9
//	                           $(tasks.build.status) == 'Succeeded'
//	context  map(string, dyn)  $(context.pipelineRun.name) != ''
//
// A when list is `when: [{cel: "..."}]` where the
// expression may reference $(params.x), $(tasks.t.results.r),
// $(tasks.t.status), $(tasks.status) and $(context.pipelineRun.name).
//
// References are rewritten into accesses of the CEL variables params, tasks
// and context, bound from a JSON context — never substituted as text, so a
// value that contains CEL stays a value. Params and context values are
// strings, as in the TEP ($(params.param1) != ""). Task results that are
// integer or decimal literals read as numbers, so
// $(tasks.unit-test.results.test-coverage) >= 0.9 compares numbers as the
// TEP describes ("the emitted results must be the same numeric type"); other
// results are strings. A reference inside a string literal is concatenated
// as a string: 'refs/heads/$(params.branch)' becomes
// ('refs/heads/' + string(params.branch)).
package tekton

import (
	"github.com/google/cel-go/common/types"

	"strconv"
	"strings"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"
)

// Variables are the variables when expressions may use.
var Variables = []string{"params", "tasks", "context"}

// WhenToCEL rewrites when expressions into one CEL expression: each is
// rewritten and the results are AND-ed (Tekton ANDs a task's when list).
func WhenToCEL(exprs []string) (string, error) {
	if len(exprs) == 0 {
		return "", whenErr("no when expressions")
	}
	var parts []string
	for _, x := range exprs {
		r, err := rewriteWhen(x)
		if err != nil {
			return "", err
		}
		if len(exprs) == 1 {
			return r, nil
		}
		parts = append(parts, "("+r+")")
	}
	return strings.Join(parts, " && "), nil
}

func whenErr(format string, args ...any) *wire.Error {
	return engine.Errorf(wire.CodeCompile, "when: "+format, args...)
}

func rewriteWhen(src string) (string, error) {
	var out strings.Builder
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '$' && strings.HasPrefix(src[i:], "$("):
			ref, n, err := readReference(src, i)
			if err != nil {
				return "", err
			}
			out.WriteString(ref)
			i += n
		case c == '"' || c == '\'':
			lit, n, err := rewriteStringLiteral(src, i)
			if err != nil {
				return "", err
			}
			out.WriteString(lit)
			i += n
		case (c == 'r' || c == 'R' || c == 'b' || c == 'B') && i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '\'' ||
			((src[i+1] == 'r' || src[i+1] == 'R' || src[i+1] == 'b' || src[i+1] == 'B') && i+2 < len(src) && (src[i+2] == '"' || src[i+2] == '\''))) &&
			(i == 0 || !isIdentChar(src[i-1])):
			lit, n, err := rewriteStringLiteral(src, i)
			if err != nil {
				return "", err
			}
			out.WriteString(lit)
			i += n
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String(), nil
}

func isIdentChar(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// readReference reads $(...) at src[i:] and returns its CEL access.
func readReference(src string, i int) (string, int, error) {
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
		return "", 0, whenErr("unterminated reference at offset %d", i)
	}
	path, err := parseReferencePath(src[i+2 : end])
	if err != nil {
		return "", 0, err
	}
	return celAccess(path), end + 1 - i, nil
}

// parseReferencePath splits params.name, params['a.b'], tasks.t.results.r,
// context.pipelineRun.name into segments and checks the root.
func parseReferencePath(ref string) ([]string, error) {
	var segs []string
	s := ref
	for len(s) > 0 {
		switch {
		case s[0] == '.':
			s = s[1:]
		case s[0] == '[':
			if len(s) < 4 || (s[1] != '\'' && s[1] != '"') {
				return nil, whenErr("reference $(%s): bad brackets", ref)
			}
			q := s[1]
			k := strings.IndexByte(s[2:], q)
			if k < 0 || len(s) < k+4 || s[k+3] != ']' {
				return nil, whenErr("reference $(%s): bad brackets", ref)
			}
			segs = append(segs, s[2:k+2])
			s = s[k+4:]
			continue
		}
		n := strings.IndexAny(s, ".[")
		if n < 0 {
			n = len(s)
		}
		if n == 0 {
			return nil, whenErr("reference $(%s): empty name", ref)
		}
		seg := s[:n]
		if strings.ContainsAny(seg, "*() '\"") {
			return nil, whenErr("reference $(%s): %q is not a supported name (array and object references are not supported)", ref, seg)
		}
		segs = append(segs, seg)
		s = s[n:]
	}
	if len(segs) < 2 {
		return nil, whenErr("reference $(%s): want params.NAME, tasks.TASK.results.NAME, tasks.TASK.status, tasks.status or context.…", ref)
	}
	switch segs[0] {
	case "params", "context":
	case "tasks":
		if !(len(segs) == 2 && segs[1] == "status") && !(len(segs) == 3 && segs[2] == "status") && !(len(segs) == 4 && segs[2] == "results") {
			return nil, whenErr("reference $(%s): want tasks.TASK.results.NAME, tasks.TASK.status or tasks.status", ref)
		}
	default:
		return nil, whenErr("reference $(%s): only params, tasks and context can be referenced in when expressions", ref)
	}
	return segs, nil
}

func celAccess(path []string) string {
	s := path[0]
	for _, seg := range path[1:] {
		if engine.Selectable(seg) {
			s += "." + seg
		} else {
			s += "[" + strconv.Quote(seg) + "]"
		}
	}
	return s
}

// rewriteStringLiteral copies the CEL string or bytes literal at src[i:];
// references inside a string literal become concatenations.
func rewriteStringLiteral(src string, i int) (string, int, error) {
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
			return "", 0, whenErr("unterminated string literal at offset %d", i)
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
		return src[i : i+n], n, nil
	}
	if isBytes {
		return "", 0, whenErr("references inside bytes literals are not supported")
	}
	var parts []string
	for len(body) > 0 {
		p := strings.Index(body, "$(")
		if p < 0 {
			parts = append(parts, prefix+delim+body+delim)
			break
		}
		if p > 0 {
			parts = append(parts, prefix+delim+body[:p]+delim)
		}
		ref, m, err := readReference(body, p)
		if err != nil {
			return "", 0, err
		}
		parts = append(parts, "string("+ref+")")
		body = body[p+m:]
	}
	if len(parts) == 1 {
		return parts[0], n, nil
	}
	return "(" + strings.Join(parts, " + ") + ")", n, nil
}

// NumericResults makes the task results in the "tasks" variable
// (tasks.TASK.results.NAME) that are integer or decimal literals read as
// numbers, as Tekton when expressions compare them.
func NumericResults(a *codec.Activation) {
	raw, ok := a.Raw("tasks")
	if !ok || !raw.IsObject() || a.IsBound("tasks") {
		return
	}
	conv := a.Converter()
	numeric := &codec.Converter{Adapter: conv.Adapter, NumericStrings: true}
	tasks := codec.NewMap(conv, raw, types.StringType, types.DynType)
	for j := 0; j < tasks.Len(); j++ {
		_, task := tasks.Member(j)
		if !task.IsObject() {
			continue
		}
		tm := codec.NewMap(conv, task, types.StringType, types.DynType)
		for k := 0; k < tm.Len(); k++ {
			if key, results := tm.Member(k); key == "results" && results.IsObject() {
				tm.SetMember(k, codec.NewMap(numeric, results, types.StringType, types.DynType))
			}
		}
		tasks.SetMember(j, tm)
	}
	a.Bind("tasks", tasks)
}

// VariableTypes returns the declarations of Variables: each a map(string, dyn).
func VariableTypes() map[string]string {
	out := map[string]string{}
	for _, v := range Variables {
		out[v] = "map(string, dyn)"
	}
	return out
}
