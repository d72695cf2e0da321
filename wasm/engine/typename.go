package engine

import (
	"fmt"
	"strings"

	"github.com/google/cel-go/common/env"
	"github.com/google/cel-go/common/types"
)

// ParseTypeName parses a CEL type name as cel-go prints it ("int",
// "list(string)", "map(string, dyn)", "optional_type(int)",
// "google.protobuf.Timestamp") into cel-go's serializable type description.
// "optional(T)" is accepted as an alias of "optional_type(T)".
func ParseTypeName(s string) (*env.TypeDesc, error) {
	p := typeParser{src: s}
	td, err := p.parse()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return nil, fmt.Errorf("invalid type name %q: unexpected %q at offset %d", s, p.src[p.pos:], p.pos)
	}
	return td, nil
}

// ResolveType parses a type name and resolves it against an environment's
// type provider (so message and opaque types declared there are found).
func ResolveType(name string, tp types.Provider) (*types.Type, error) {
	td, err := ParseTypeName(name)
	if err != nil {
		return nil, err
	}
	t, err := td.AsCELType(tp)
	if err != nil {
		return nil, fmt.Errorf("type %q: %w", name, err)
	}
	return t, nil
}

type typeParser struct {
	src string
	pos int
}

func (p *typeParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

func (p *typeParser) parse() (*env.TypeDesc, error) {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '_' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') {
			p.pos++
			continue
		}
		break
	}
	name := p.src[start:p.pos]
	if name == "" || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") {
		return nil, fmt.Errorf("invalid type name %q: expected a type name at offset %d", p.src, start)
	}
	if name == "optional" {
		name = "optional_type"
	}
	td := env.NewTypeDesc(name)
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '(' {
		p.pos++
		for {
			param, err := p.parse()
			if err != nil {
				return nil, err
			}
			td.Params = append(td.Params, param)
			p.skipSpace()
			if p.pos >= len(p.src) {
				return nil, fmt.Errorf("invalid type name %q: missing ')'", p.src)
			}
			if p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.src[p.pos] == ')' {
				p.pos++
				break
			}
			return nil, fmt.Errorf("invalid type name %q: unexpected %q at offset %d", p.src, p.src[p.pos], p.pos)
		}
	}
	if err := td.Validate(); err != nil {
		return nil, fmt.Errorf("invalid type name %q: %w", p.src, err)
	}
	return td, nil
}
