// Package celtext renders canonical typed JSON (docs/value-encoding.md) as
// CEL literal text for people, the CLI's -o text form. It depends on the
// standard library only, so that the Go host (host.FormatText) and the
// module's celwasm_input export (wasm/input) share it.
package celtext

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Format renders canonical typed JSON as CEL literal text for people:
// 1, 2u, 3.0, "s", b"\xff", timestamp("..."), duration("1.5s"),
// [1, 2], {"a": 1}, optional.of(1), optional.none(), quantity("1Gi").
// The form is specified in docs/value-encoding.md so that every host's CLI
// prints the same bytes.
func Format(canonical []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(canonical))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	var sb strings.Builder
	if err := formatText(&sb, v); err != nil {
		return "", err
	}
	return sb.String(), nil
}

// objectConstructors maps library object types to the CEL function that
// makes them from their string form.
var objectConstructors = map[string]string{
	"kubernetes.Quantity": "quantity",
	"kubernetes.URL":      "url",
	"kubernetes.Semver":   "semver",
	"net.IP":              "ip",
	"net.CIDR":            "cidr",
}

func formatText(sb *strings.Builder, v any) error {
	switch x := v.(type) {
	case nil:
		sb.WriteString("null")
	case bool:
		sb.WriteString(strconv.FormatBool(x))
	case string:
		sb.WriteString(quoteString(x))
	case []any:
		sb.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				sb.WriteString(", ")
			}
			if err := formatText(sb, e); err != nil {
				return err
			}
		}
		sb.WriteByte(']')
	case map[string]any:
		for tag, body := range x {
			return formatTagged(sb, tag, body)
		}
		return fmt.Errorf("celwasm: empty object in a canonical value")
	default:
		return fmt.Errorf("celwasm: unexpected JSON %T in a canonical value", v)
	}
	return nil
}

func formatTagged(sb *strings.Builder, tag string, body any) error {
	s, _ := body.(string)
	switch tag {
	case "int":
		sb.WriteString(s)
	case "uint":
		sb.WriteString(s + "u")
	case "double":
		switch {
		case s == "NaN" || strings.HasSuffix(s, "Infinity"):
			sb.WriteString(`double("` + s + `")`)
		case strings.ContainsAny(s, ".e"):
			sb.WriteString(s)
		default:
			sb.WriteString(s + ".0")
		}
	case "bytes":
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return err
		}
		sb.WriteString(quoteBytes(b))
	case "timestamp", "duration":
		sb.WriteString(tag + `("` + s + `")`)
	case "type":
		sb.WriteString(s)
	case "optional":
		l, _ := body.([]any)
		if len(l) == 0 {
			sb.WriteString("optional.none()")
			return nil
		}
		sb.WriteString("optional.of(")
		if err := formatText(sb, l[0]); err != nil {
			return err
		}
		sb.WriteByte(')')
	case "map":
		l, _ := body.([]any)
		sb.WriteByte('{')
		for i, e := range l {
			pair, ok := e.([]any)
			if !ok || len(pair) != 2 {
				return fmt.Errorf("celwasm: malformed map entry")
			}
			if i > 0 {
				sb.WriteString(", ")
			}
			if err := formatText(sb, pair[0]); err != nil {
				return err
			}
			sb.WriteString(": ")
			if err := formatText(sb, pair[1]); err != nil {
				return err
			}
		}
		sb.WriteByte('}')
	case "object":
		m, _ := body.(map[string]any)
		t, _ := m["type"].(string)
		val, hasValue := m["value"].(string)
		if fn, ok := objectConstructors[t]; ok && hasValue {
			sb.WriteString(fn + "(" + quoteString(val) + ")")
		} else {
			sb.WriteString("<" + t + ">")
		}
	case "message":
		m, _ := body.(map[string]any)
		t, _ := m["type"].(string)
		j, err := json.Marshal(m["json"])
		if err != nil {
			return err
		}
		sb.WriteString(t + "(" + string(j) + ")")
	default:
		return fmt.Errorf("celwasm: unknown value tag %q", tag)
	}
	return nil
}

// quoteString writes a CEL double-quoted string literal: the JSON escapes of
// the canonical encoding, which CEL reads back unchanged.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// quoteBytes writes a CEL bytes literal: printable ASCII as is, everything
// else as \xHH.
func quoteBytes(p []byte) string {
	var b strings.Builder
	b.WriteString(`b"`)
	for _, c := range p {
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
