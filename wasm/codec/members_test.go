package codec

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// membersSeen is what ForEach passes, as text: for Members.ForEach it must
// be exactly what gjson's ForEach over the same object passes.
func membersSeen(each func(fn func(k, v gjson.Result) bool)) string {
	var b strings.Builder
	each(func(k, v gjson.Result) bool {
		fmt.Fprintf(&b, "%q %q %q | %d %q %q %v\n", k.Raw, k.Str, k.Type, v.Type, v.Raw, v.Str, v.Num)
		return true
	})
	return b.String()
}

// rawMembersSeen is what forEachRaw passes, as text: each key, and the value
// jsonValue makes of its text, to compare with gjsonMembersSeen.
func rawMembersSeen(each func(fn func(k, v string) bool)) string {
	var b strings.Builder
	each(func(k, v string) bool {
		r := jsonValue(v)
		fmt.Fprintf(&b, "%q | %d %q %q %v\n", k, r.Type, r.Raw, r.Str, r.Num)
		return true
	})
	return b.String()
}

// gjsonMembersSeen is gjson's ForEach of obj in rawMembersSeen's form.
func gjsonMembersSeen(obj gjson.Result) string {
	var b strings.Builder
	obj.ForEach(func(k, v gjson.Result) bool {
		fmt.Fprintf(&b, "%q | %d %q %q %v\n", k.Str, v.Type, v.Raw, v.Str, v.Num)
		return true
	})
	return b.String()
}

// TestMembersAgreeWithGJSON: over valid objects (seeds with escaped and
// repeated keys, white space everywhere, nesting, and their random
// mutations), the members CheckJSONMembers lists are the members gjson's
// ForEach reads; for anything else, or another object, ForEach reads the
// object itself.
func TestMembersAgreeWithGJSON(t *testing.T) {
	seeds := []string{
		`{}`, ` { } `, `{"a":1}`, `{"a":1,"a":2}`, ` {  "a" :  [ 1 , { "b" : "c" } ] ,"d":{"e":{"f":[]}} , "g" : null } `,
		`{"k\"ey":"v\u00e9","\u00e9\n":true,"x":false,"n":-1.5e3,"s":"a\\b\/"}`, `{"":0,"e":{},"f":[],"g":"é😀"}`,
		`{"specversion":"1.0","id":"1","data":{"a":[1,2,{"b":{"c":"}"}}],"s":"{\"x\":1}"},"time":"2026-01-01T00:00:00Z"}`,
		`[{"a":1}]`, `"a"`, `1`, `null`,
	}
	rng := rand.New(rand.NewSource(7))
	alphabet := []byte("{}[]\":,.-+e0123456789 \\nt")
	cases := append([]string{}, seeds...)
	for _, s := range seeds {
		for k := 0; k < 400; k++ {
			b := []byte(s)
			for m := 0; m < 1+rng.Intn(2); m++ {
				p := rng.Intn(len(b) + 1)
				if rng.Intn(2) == 0 && p < len(b) {
					b[p] = alphabet[rng.Intn(len(alphabet))]
				} else {
					b = append(b[:p], append([]byte{alphabet[rng.Intn(len(alphabet))]}, b[p:]...)...)
				}
			}
			cases = append(cases, string(b))
		}
	}
	var ms Members
	listed := 0
	for _, s := range cases {
		s += strings.Repeat(" ", listMin) // long enough to be listed
		err := CheckJSONMembers(s, &ms)
		if (err == nil) != (validateJSON(s, MaxDepth) == nil) {
			t.Fatalf("%q: CheckJSONMembers %v, CheckJSON %v", s, err, validateJSON(s, MaxDepth))
		}
		if err != nil {
			continue
		}
		obj := gjson.Parse(s)
		if !obj.IsObject() {
			if ms.of != nil {
				t.Errorf("%q: not an object, but members listed", s)
			}
			continue
		}
		if ms.of == nil {
			t.Errorf("%q: an object, no members listed", s)
			continue
		}
		listed++
		got := membersSeen(func(fn func(k, v gjson.Result) bool) { ms.ForEach(obj, fn) })
		if want := membersSeen(obj.ForEach); got != want {
			t.Errorf("%q:\nlisted %s\ngjson  %s", s, got, want)
		}
		// forEachRaw: each key unescaped, each value's text, which
		// jsonValue turns back into what gjson gives.
		for _, o := range []gjson.Result{obj, gjson.Parse(strings.Clone(s))} {
			if got, want := rawMembersSeen(func(fn func(k, v string) bool) { ms.forEachRaw(o.Raw, fn) }), gjsonMembersSeen(o); got != want {
				t.Errorf("%q, raw members:\n%s\ngjson %s", s, got, want)
			}
		}
		// A copy of the text is another object: read, not listed.
		other := gjson.Parse(strings.Clone(s))
		if got, want := membersSeen(func(fn func(k, v gjson.Result) bool) { ms.ForEach(other, fn) }), membersSeen(other.ForEach); got != want {
			t.Errorf("%q, a copy: %s, want %s", s, got, want)
		}
	}
	if listed < 500 {
		t.Fatalf("only %d objects listed", listed)
	}
	if CheckJSONMembers(`{"a":1}`, &ms) != nil || ms.of != nil {
		t.Errorf("a short object: listed")
	}
	var none *Members
	obj := gjson.Parse(`{"a":1}`)
	if got, want := membersSeen(func(fn func(k, v gjson.Result) bool) { none.ForEach(obj, fn) }), membersSeen(obj.ForEach); got != want {
		t.Errorf("nil Members: %s, want %s", got, want)
	}
}

// FuzzEachMember: for any object CheckJSON accepts, and every object nested
// in it, eachMember (an index over an object nobody listed) gives each key
// and value text exactly as gjson's ForEach gives k.Str and v.Raw.
func FuzzEachMember(f *testing.F) {
	for _, s := range []string{
		`{}`, ` { } `, `{"a":1}`, `{"a":1,"a":2}`, ` {  "a" :  [ 1 , { "b" : "c" } ] ,"d":{"e":{"f":[]}} , "g" : null } `,
		`{"k\"ey":"v\u00e9","\u00e9\n":true,"x":false,"n":-1.5e3,"s":"a\\b\/"}`, `{"":0,"e":{},"f":[],"g":"é😀"}`,
		`{"specversion":"1.0","data":{"a":[1,2,{"b":{"c":"}"}}],"s":"{\"x\":1}"},"t":"]"}`,
		"{\"a\"\t:\r\n-0.5E+2\n,\"b\":[\"]\",{}]}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if validateJSON(s, MaxDepth) != nil {
			return
		}
		var check func(r gjson.Result)
		check = func(r gjson.Result) {
			if r.IsObject() {
				var got strings.Builder
				eachMember(r.Raw, func(k, v string) bool {
					fmt.Fprintf(&got, "%q %q\n", k, v)
					return true
				})
				var want strings.Builder
				r.ForEach(func(k, v gjson.Result) bool {
					fmt.Fprintf(&want, "%q %q\n", k.Str, v.Raw)
					return true
				})
				if got.String() != want.String() {
					t.Fatalf("%q:\neachMember %s\ngjson      %s", r.Raw, got.String(), want.String())
				}
			}
			if r.IsObject() || r.IsArray() {
				r.ForEach(func(_, v gjson.Result) bool { check(v); return true })
			}
		}
		check(gjson.Parse(s))
	})
}

// TestEachMemberStops: fn returning false ends the walk; text that is not
// JSON ends it without a panic.
func TestEachMemberStops(t *testing.T) {
	n := 0
	eachMember(`{"a":1,"b":2,"c":3}`, func(k, v string) bool { n++; return k != "b" })
	if n != 2 {
		t.Errorf("walk went on after false: %d calls", n)
	}
	for _, s := range []string{`{`, `{"a`, `{"a"`, `{"a":`, `{"a":"`, `{"a":{`, `{"a":1,`, `{"a":1 x`, `{"a"1}`, `{"a":[{"b":"}]"`} {
		eachMember(s, func(k, v string) bool { return true })
	}
}

// TestMembersDrop: Drop forgets the listed members, so ForEach reads the
// object itself and no listed text is kept.
func TestMembersDrop(t *testing.T) {
	var ms Members
	s := `{"a":"` + strings.Repeat("x", listMin) + `"}`
	if err := CheckJSONMembers(s, &ms); err != nil || ms.of == nil || len(ms.list) != 1 {
		t.Fatalf("not listed: %v", err)
	}
	ms.Drop()
	if ms.lists(s) || len(ms.list) != 0 || ms.list[:1][0] != (Member{}) {
		t.Errorf("Drop kept the members: %+v", ms.list[:1])
	}
}

// TestSkipStringWords checks skipString's word-at-a-time loop: for strings
// of each byte class (quote, backslash, their neighbours, non-ASCII) at
// every offset of a word, every string scanString accepts ends where
// scanString says, escaped exactly when it holds a backslash; one that does
// not end gives back its start.
func TestSkipStringWords(t *testing.T) {
	special := []string{`\"`, `\\`, `\u00e9`, `\n`, "\u00e9", "\U0001F600", "\x7f"}
	plain := []byte{0x20, 0x21, 0x23, 0x5b, 0x5d, 0x5c - 1, 0x5c + 1, 0x22 - 1, 0x22 + 1, 0x7e, 'a'}
	rng := rand.New(rand.NewSource(11))
	for n := 0; n < 50000; n++ {
		var b strings.Builder
		for k := rng.Intn(40); k > 0; k-- {
			if rng.Intn(10) == 0 {
				b.WriteString(special[rng.Intn(len(special))])
			} else {
				b.WriteByte(plain[rng.Intn(len(plain))])
			}
		}
		pad := strings.Repeat(" ", rng.Intn(8))
		doc := pad + `"` + b.String() + `",1]`
		want, err := scanString(doc, len(pad))
		if err != nil {
			t.Fatalf("scanString(%q): %v", doc, err)
		}
		end, escaped := skipString(doc, len(pad))
		if wantEsc := strings.Contains(b.String(), `\`); end != want || escaped != wantEsc {
			t.Fatalf("skipString(%q) = %d, %v; want %d, %v", doc, end, escaped, want, wantEsc)
		}
		if end, _ := skipString(doc[:want-1], len(pad)); end != len(pad) {
			t.Fatalf("skipString(%q) of an unterminated string = %d, want its start %d", doc[:want-1], end, len(pad))
		}
	}
}
