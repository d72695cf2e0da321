package engine

import "regexp"

var (
	identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// CEL's reserved words cannot be selected with a dot.
	reservedWords = map[string]bool{"true": true, "false": true, "null": true, "in": true, "as": true, "break": true, "const": true,
		"continue": true, "else": true, "for": true, "function": true, "if": true, "import": true, "let": true, "loop": true,
		"package": true, "namespace": true, "return": true, "var": true, "void": true, "while": true}
)

// Selectable reports whether name can follow a dot in CEL (x.name): an
// identifier that is not a reserved word (cel-spec, "Syntax"). Other names
// need an index (x["name"]).
func Selectable(name string) bool {
	return identRE.MatchString(name) && !reservedWords[name]
}
