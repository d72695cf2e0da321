package codec

import (
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// validateJSON checks in one pass, without recursion, that s is exactly one
// JSON value (RFC 8259) in valid UTF-8 whose arrays and objects nest at most
// maxDepth deep. Every activation and event is checked this way before
// gjson reads it lazily; one pass instead of three (depth, UTF-8, syntax)
// matters at a few bytes per nanosecond inside WebAssembly.
func validateJSON(s string, maxDepth int) error {
	return checkJSON(s, maxDepth, nil)
}

// checkJSON is validateJSON that, given members, also lists the members of
// s when it is an object (Members), so that no second pass has to find them.
func checkJSON(s string, maxDepth int, members *Members) error {
	// The top-level member being read: its key is s[key:keyEnd], its value
	// starts at value (-1: none).
	key, keyEnd, value := 0, 0, -1
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
				start := i
				ke, v, err := objectKey(s, i)
				if err != nil {
					return err
				}
				if i = v; depth == 1 && members != nil {
					key, keyEnd, value = start, ke, v
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
			if depth == 1 && value >= 0 {
				// A top-level member's value ends here.
				members.list = append(members.list, Member{Key: s[key:keyEnd], Value: s[value:i]})
				value = -1
			}
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
					start := i
					ke, v, err := objectKey(s, i)
					if err != nil {
						return err
					}
					if i = v; depth == 1 && members != nil {
						key, keyEnd, value = start, ke, v
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

// objectKey reads `"key" :` at i and returns where the key's closing quote
// ends and where the value starts.
func objectKey(s string, i int) (keyEnd, value int, err error) {
	if i >= len(s) || s[i] != '"' {
		if i >= len(s) {
			return i, i, jsonErr(i, "unexpected end of input, want an object key")
		}
		return i, i, jsonErr(i, "unexpected "+quoteByte(s[i])+", want an object key")
	}
	if keyEnd, err = scanString(s, i); err != nil {
		return keyEnd, keyEnd, err
	}
	i = skipSpace(s, keyEnd)
	if i >= len(s) || s[i] != ':' {
		return keyEnd, i, jsonErr(i, "want ':' after an object key")
	}
	return keyEnd, skipSpace(s, i+1), nil
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

// Strings are scanned a word at a time (scanString, skipString): ones has
// a one in every byte of a word, highs every byte's high bit.
const ones, highs = 0x0101010101010101, 0x8080808080808080

// word8 returns s[i:i+8] as a little-endian word; the compiler makes the
// eight loads one 64-bit load.
func word8(s string, i int) uint64 {
	t := s[i:][:8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// scanString checks the string starting at the quote at i and returns the
// offset after its closing quote.
func scanString(s string, i int) (int, error) {
	i++
	for i < len(s) {
		// Fast path over plain ASCII, eight bytes at a time, then byte by
		// byte. A word is tested at once: a byte's high bit in w-0x20…,
		// (w^'"'…)-1… or (w^'\\'…)-1… is set when it is a control character,
		// a quote or a backslash, and in w when it is not ASCII. A borrow
		// only flags bytes above one that is flagged already, so the lowest
		// flag is exact. The compiler makes the eight loads one 64-bit load;
		// the loop is written here, not called, as a call per string cost
		// more than it saved (wasmtime).
		for i+8 <= len(s) {
			w := word8(s, i)
			q, b := w^(ones*'"'), w^(ones*'\\')
			if m := ((w - ones*0x20) | (q - ones) | (b - ones) | w) & highs; m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
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
