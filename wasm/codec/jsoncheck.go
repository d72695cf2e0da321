package codec

import (
	"strconv"
	"unicode/utf8"
)

// validateJSON checks in one pass, without recursion, that s is exactly one
// JSON value (RFC 8259) in valid UTF-8 whose arrays and objects nest at most
// maxDepth deep. Every activation and event is checked this way before
// gjson reads it lazily; one pass instead of three (depth, UTF-8, syntax)
// matters at a few bytes per nanosecond inside WebAssembly.
func validateJSON(s string, maxDepth int) error {
	// stack holds one bit per open container: 1 object, 0 array.
	var stack []uint64
	var small [4]uint64
	stack = small[:0]
	depth := 0
	i := skipSpace(s, 0)
	for {
		// A value starts at i.
		if i >= len(s) {
			return jsonErr(i, "unexpected end of input, want a value")
		}
		switch c := s[i]; {
		case c == '{' || c == '[':
			depth++
			if depth > maxDepth {
				return errString("nesting deeper than the limit of " + strconv.Itoa(maxDepth))
			}
			word, bit := (depth-1)/64, uint((depth-1)%64)
			if word >= len(stack) {
				stack = append(stack, 0)
			}
			if c == '{' {
				stack[word] |= 1 << bit
			} else {
				stack[word] &^= 1 << bit
			}
			i = skipSpace(s, i+1)
			if c == '{' {
				if i < len(s) && s[i] == '}' {
					depth--
					i++
					goto afterValue
				}
				var err error
				if i, err = objectKey(s, i); err != nil {
					return err
				}
				continue
			}
			if i < len(s) && s[i] == ']' {
				depth--
				i++
				goto afterValue
			}
			continue
		case c == '"':
			var err error
			if i, err = scanString(s, i); err != nil {
				return err
			}
		case c == '-' || (c >= '0' && c <= '9'):
			var err error
			if i, err = scanNumber(s, i); err != nil {
				return err
			}
		case c == 't':
			if !hasLiteral(s, i, "true") {
				return jsonErr(i, "invalid literal")
			}
			i += 4
		case c == 'f':
			if !hasLiteral(s, i, "false") {
				return jsonErr(i, "invalid literal")
			}
			i += 5
		case c == 'n':
			if !hasLiteral(s, i, "null") {
				return jsonErr(i, "invalid literal")
			}
			i += 4
		default:
			return jsonErr(i, "unexpected "+quoteByte(c)+", want a value")
		}
	afterValue:
		// Close containers as long as a value ends one.
		for {
			i = skipSpace(s, i)
			if depth == 0 {
				if i != len(s) {
					return jsonErr(i, "unexpected data after the value")
				}
				return nil
			}
			inObject := stack[(depth-1)/64]&(1<<uint((depth-1)%64)) != 0
			if i >= len(s) {
				return jsonErr(i, "unexpected end of input inside an "+map[bool]string{true: "object", false: "array"}[inObject])
			}
			switch {
			case s[i] == ',':
				i = skipSpace(s, i+1)
				if inObject {
					var err error
					if i, err = objectKey(s, i); err != nil {
						return err
					}
				}
			case inObject && s[i] == '}', !inObject && s[i] == ']':
				depth--
				i++
				continue
			default:
				return jsonErr(i, "unexpected "+quoteByte(s[i])+", want ',' or "+map[bool]string{true: "'}'", false: "']'"}[inObject])
			}
			break
		}
	}
}

// objectKey reads `"key" :` at i and returns where the value starts.
func objectKey(s string, i int) (int, error) {
	if i >= len(s) || s[i] != '"' {
		if i >= len(s) {
			return i, jsonErr(i, "unexpected end of input, want an object key")
		}
		return i, jsonErr(i, "unexpected "+quoteByte(s[i])+", want an object key")
	}
	i, err := scanString(s, i)
	if err != nil {
		return i, err
	}
	i = skipSpace(s, i)
	if i >= len(s) || s[i] != ':' {
		return i, jsonErr(i, "want ':' after an object key")
	}
	return skipSpace(s, i+1), nil
}

func skipSpace(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// scanString checks the string starting at the quote at i and returns the
// offset after its closing quote.
func scanString(s string, i int) (int, error) {
	i++
	for i < len(s) {
		// Fast path over plain ASCII.
		for i < len(s) && plainASCII[s[i]] {
			i++
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		switch {
		case c == '"':
			return i + 1, nil
		case c == '\\':
			if i+1 >= len(s) {
				return i, jsonErr(i, "unterminated escape")
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+5 >= len(s) || !IsHex(s[i+2]) || !IsHex(s[i+3]) || !IsHex(s[i+4]) || !IsHex(s[i+5]) {
					return i, jsonErr(i, "invalid \\u escape")
				}
				i += 6
			default:
				return i, jsonErr(i, "invalid escape")
			}
		case c < 0x20:
			return i, jsonErr(i, "control character in a string")
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return i, errString("invalid UTF-8 at offset " + strconv.Itoa(i))
			}
			i += size
		}
	}
	return i, jsonErr(i, "unterminated string")
}

// scanNumber checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at i.
func scanNumber(s string, i int) (int, error) {
	start := i
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return i, jsonErr(start, "invalid number")
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return i, jsonErr(start, "invalid number")
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return i, jsonErr(start, "invalid number")
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i, nil
}

// plainASCII marks the bytes a string may hold as is: printable ASCII other
// than '"' and '\\'.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func hasLiteral(s string, i int, lit string) bool {
	return len(s)-i >= len(lit) && s[i:i+len(lit)] == lit
}

func jsonErr(offset int, msg string) error {
	return errString("invalid JSON at offset " + strconv.Itoa(offset) + ": " + msg)
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "'" + string(c) + "'"
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

func IsHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
