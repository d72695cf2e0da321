package input

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Indent rewrites JSON text as the Go CLI's -o json output writes values: a
// json.Encoder with SetEscapeHTML(false) and SetIndent("", "  "), members in
// their order, strings re-encoded, numbers with a fraction or exponent as
// encoding/json writes a float64 (other numbers as they are), and a final
// line break.
func Indent(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out bytes.Buffer
	if err := indentValue(dec, &out, ""); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("json: data after the value")
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func indentValue(dec *json.Decoder, out *bytes.Buffer, prefix string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		closing := byte(']')
		if t == '{' {
			closing = '}'
		}
		out.WriteByte(byte(t))
		inner := prefix + "  "
		n := 0
		for dec.More() {
			if n > 0 {
				out.WriteByte(',')
			}
			out.WriteString("\n" + inner)
			if t == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				out.Write(jsonString(k.(string)))
				out.WriteString(": ")
			}
			if err := indentValue(dec, out, inner); err != nil {
				return err
			}
			n++
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		if n > 0 {
			out.WriteString("\n" + prefix)
		}
		out.WriteByte(closing)
	case string:
		out.Write(jsonString(t))
	case json.Number:
		if !strings.ContainsAny(string(t), ".eE") {
			out.WriteString(string(t))
			break
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return err
		}
		b, err := json.Marshal(f)
		if err != nil {
			return err
		}
		out.Write(b)
	case bool:
		out.WriteString(strconv.FormatBool(t))
	case nil:
		out.WriteString("null")
	}
	return nil
}
