package codec

import (
	"encoding/json"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// reference is what validateJSON must agree with: encoding/json's syntax
// check, UTF-8 validity, and the depth bound.
func reference(s string, maxDepth int) bool {
	if !json.Valid([]byte(s)) || !utf8.ValidString(s) {
		return false
	}
	depth, max, inString := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == '[' || c == '{'):
			depth++
			if depth > max {
				max = depth
			}
		case !inString && (c == ']' || c == '}'):
			depth--
		}
	}
	return max <= maxDepth
}

func TestValidateJSONAgreesWithReference(t *testing.T) {
	seeds := []string{
		`{}`, `[]`, `0`, `-0`, `1.5e+10`, `-12.5E-3`, `"a\"\\\/\b\f\n\r\t\u00e9"`, `true`, `false`, `null`,
		`{"a":[1,2,{"b":null}],"c":"é😀"}`, ` [ 1 , [ ] , { } ] `, `{"a":{"b":{"c":[[[]]]}}}`,
		`01`, `1.`, `.5`, `1e`, `+1`, `-`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `[1 2]`, `"abc`, `"\x"`, `"\u12G4"`,
		"\"\x01\"", "\"\xff\"", "\"\xc3\x28\"", `[`, `]`, `{`, `}`, `nul`, `tru`, `falsey`, `1 2`, ``, ` `, `[1]]`, `{"a":1}}`,
		"\"\xe2\x80\xa8\"", `[[[[[[[[[[1]]]]]]]]]]`, `{"a":"b","c":[true,false,null,-1,0.5,"x"]}`,
	}
	rng := rand.New(rand.NewSource(42))
	alphabet := []byte("{}[]\":,.-+eE0123456789 \\ntruefalsnul\x01\xff\xc3\xa9")
	var cases []string
	cases = append(cases, seeds...)
	for _, s := range seeds {
		for k := 0; k < 300; k++ {
			b := []byte(s)
			for m := 0; m < 1+rng.Intn(3); m++ {
				switch op := rng.Intn(3); {
				case op == 0 && len(b) > 0:
					b[rng.Intn(len(b))] = alphabet[rng.Intn(len(alphabet))]
				case op == 1:
					p := rng.Intn(len(b) + 1)
					b = append(b[:p], append([]byte{alphabet[rng.Intn(len(alphabet))]}, b[p:]...)...)
				case len(b) > 0:
					p := rng.Intn(len(b))
					b = append(b[:p], b[p+1:]...)
				}
			}
			cases = append(cases, string(b))
		}
	}
	for _, s := range cases {
		for _, maxDepth := range []int{2, 10000} {
			got := validateJSON(s, maxDepth) == nil
			if want := reference(s, maxDepth); got != want {
				t.Errorf("validateJSON(%q, %d) = %v, want %v", s, maxDepth, got, want)
			}
		}
	}
	if len(cases) < 10000 {
		t.Fatalf("only %d cases", len(cases))
	}
}

func TestValidateJSONDepth(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if err := validateJSON(deep, MaxDepth); err != nil {
		t.Fatal(err)
	}
	tooDeep := strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1)
	if err := validateJSON(tooDeep, MaxDepth); err == nil || !strings.Contains(err.Error(), "nesting") {
		t.Fatalf("got %v", err)
	}
	// A million open brackets: rejected without recursion.
	if err := validateJSON(strings.Repeat("[", 1<<20), MaxDepth); err == nil {
		t.Fatal("want an error")
	}
}

func FuzzValidateJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,"b",null]}`, `[`, "\"\xff\"", `1e5`, `{"url":"https://api.github.com/repos/x/y\"z\u00e9é"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validateJSON(s, 64) == nil, reference(s, 64); got != want {
			t.Errorf("validateJSON(%q) = %v, want %v", s, got, want)
		}
	})
}

// TestScanStringWords checks scanString's word-at-a-time loop: strings made
// of each byte class (control, quote, backslash, their neighbours, DEL,
// non-ASCII), placed at every offset of a word, are accepted exactly when
// the reference accepts them, and a string that stops at a control
// character is refused at that character's offset.
func TestScanStringWords(t *testing.T) {
	special := []byte{0x00, 0x1f, '"', '\\', 0x80, 0xc3, 0xff}
	plain := []byte{0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7e, 0x7f, 'a', '0'}
	rng := rand.New(rand.NewSource(7))
	for n := 0; n < 50000; n++ {
		b := make([]byte, rng.Intn(40))
		for k := range b {
			if rng.Intn(12) == 0 {
				b[k] = special[rng.Intn(len(special))]
			} else {
				b[k] = plain[rng.Intn(len(plain))]
			}
		}
		doc := `["` + string(b) + `"]`
		if got, want := validateJSON(doc, 4) == nil, reference(doc, 4); got != want {
			t.Fatalf("validateJSON(%q) = %v, want %v", doc, got, want)
		}
	}
	for n := 0; n < 40; n++ {
		for p := 0; p < n; p++ {
			b := []byte(strings.Repeat("a", n))
			b[p] = 0x01
			doc := `["` + string(b) + `"]`
			want := "invalid JSON at offset " + strconv.Itoa(p+2) + ": control character in a string"
			if err := validateJSON(doc, 4); err == nil || err.Error() != want {
				t.Fatalf("validateJSON(%q) = %v, want %s", doc, err, want)
			}
		}
	}
}
