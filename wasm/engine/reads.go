package engine

import (
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
)

// Read is what a program can read of one value: all of it (Whole), or only
// the members named in Fields, each with what is read of it. Its JSON form
// is true for Whole, else an object of member name → Read (docs/abi.md,
// compile "reads").
type Read struct {
	Whole  bool
	Fields map[string]*Read
}

// Value is r's JSON form as encoding/json values: true for a whole value,
// else a map of member name → the member's form.
func (r *Read) Value() any {
	if r.Whole {
		return true
	}
	m := make(map[string]any, len(r.Fields))
	for k, f := range r.Fields {
		m[k] = f.Value()
	}
	return m
}

// Reads reports, for each declared variable the program can read, what it
// reads of it (a variable it never names is absent): the attributes, in
// cel-go's sense (a variable and its qualifiers), found in the checked AST.
// A reference to a variable reads through a chain of field selections
// (`v.a.b`), constant string indexes (`v["a"]`) and a final presence test
// (`has(v.a)`) or optional selection (`v.?a`) as long as each operand's
// checked type is dyn or a map with string (or dyn) keys, whose members a
// JSON object holds; anything else — the bare variable as an argument,
// a comprehension's range, a message field — reads the value there whole.
// Identifiers that only shadow a variable (a comprehension variable of the
// same name) count as references to it, which can only widen the result.
//
// A host may send only these parts of an activation it holds as objects:
// the program then evaluates to the same value, error and cost, because
// the activation converts members lazily (codec.Map) and every member an
// evaluation looks at is there. Nil when the program is not type-checked
// (names are then resolved only as it runs).
func (p *Program) Reads() map[string]*Read {
	if !p.AST.IsChecked() {
		return nil
	}
	declared := make(map[string]bool, len(p.Env.Spec.Variables))
	for _, v := range p.Env.Spec.Variables {
		declared[v.Name] = true
	}
	reads := map[string]*Read{}
	idents := ast.MatchDescendants(ast.NavigateAST(p.AST.NativeRep()), ast.KindMatcher(ast.IdentKind))
	for _, id := range idents {
		name := id.AsIdent()
		if !declared[name] {
			continue
		}
		r := reads[name]
		if r == nil {
			r = &Read{}
			reads[name] = r
		}
		addPath(r, selectionPath(id))
	}
	return reads
}

// selectionPath is the chain of constant member names read above e.
func selectionPath(e ast.NavigableExpr) []string {
	var path []string
	for cur := e; ; {
		parent, ok := cur.Parent()
		if !ok || !holdsMembers(cur.Type()) {
			return path
		}
		switch parent.Kind() {
		case ast.SelectKind:
			sel := parent.AsSelect()
			path = append(path, sel.FieldName())
			if sel.IsTestOnly() {
				return path
			}
		case ast.CallKind:
			call := parent.AsCall()
			args := call.Args()
			if call.IsMemberFunction() || len(args) != 2 || args[0].ID() != cur.ID() {
				return path
			}
			key, ok := constantString(args[1])
			if !ok {
				return path
			}
			switch call.FunctionName() {
			case operators.Index:
				path = append(path, key)
			case operators.OptIndex, operators.OptSelect:
				return append(path, key)
			default:
				return path
			}
		default:
			return path
		}
		cur = parent
	}
}

// holdsMembers reports whether a value of type t is read by member name
// from a JSON object: dyn, or a map whose keys are strings (or dyn).
func holdsMembers(t *types.Type) bool {
	switch t.Kind() {
	case types.DynKind:
		return true
	case types.MapKind:
		k := t.Parameters()[0].Kind()
		return k == types.StringKind || k == types.DynKind
	}
	return false
}

func constantString(e ast.Expr) (string, bool) {
	if e.Kind() != ast.LiteralKind {
		return "", false
	}
	s, ok := e.AsLiteral().(types.String)
	return string(s), ok
}

// addPath records that path is read of r: a shorter path already read
// whole covers it, and reading a value whole covers its fields.
func addPath(r *Read, path []string) {
	for _, f := range path {
		if r.Whole {
			return
		}
		if r.Fields == nil {
			r.Fields = map[string]*Read{}
		}
		next := r.Fields[f]
		if next == nil {
			next = &Read{}
			r.Fields[f] = next
		}
		r = next
	}
	r.Whole, r.Fields = true, nil
}
