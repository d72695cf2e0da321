package codec

import (
	"encoding/base64"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// AppendValue appends the canonical typed JSON of a CEL value to dst
// (docs/value-encoding.md): null, bool, string and list as JSON; every other
// value as a one-key object naming its kind. Identical values give identical
// bytes. Errors and unknowns are not values and return an error.
func AppendValue(dst []byte, v ref.Val) ([]byte, error) {
	return appendValue(dst, v, 0)
}

// maxEncodeDepth bounds recursion while encoding (values built from
// activations are already bounded by MaxDepth).
const maxEncodeDepth = MaxDepth + 64

func appendValue(dst []byte, v ref.Val, depth int) ([]byte, error) {
	if depth > maxEncodeDepth {
		return dst, fmt.Errorf("result nests deeper than %d", maxEncodeDepth)
	}
	switch x := v.(type) {
	case nil:
		return dst, fmt.Errorf("no value")
	case types.Null:
		return append(dst, "null"...), nil
	case types.Bool:
		if x {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case types.Int:
		dst = append(dst, `{"int":"`...)
		dst = strconv.AppendInt(dst, int64(x), 10)
		return append(dst, `"}`...), nil
	case types.Uint:
		dst = append(dst, `{"uint":"`...)
		dst = strconv.AppendUint(dst, uint64(x), 10)
		return append(dst, `"}`...), nil
	case types.Double:
		dst = append(dst, `{"double":"`...)
		dst = AppendDouble(dst, float64(x))
		return append(dst, `"}`...), nil
	case types.String:
		return AppendString(dst, string(x)), nil
	case types.Bytes:
		dst = append(dst, `{"bytes":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, []byte(x))
		return append(dst, `"}`...), nil
	case types.Timestamp:
		dst = append(dst, `{"timestamp":"`...)
		dst = AppendTimestamp(dst, x.Time)
		return append(dst, `"}`...), nil
	case types.Duration:
		dst = append(dst, `{"duration":"`...)
		dst = AppendDuration(dst, x.Duration)
		return append(dst, `"}`...), nil
	case *types.Optional:
		dst = append(dst, `{"optional":[`...)
		if x.HasValue() {
			var err error
			if dst, err = appendValue(dst, x.GetValue(), depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, "]}"...), nil
	case *types.Type:
		dst = append(dst, `{"type":`...)
		dst = AppendString(dst, x.TypeName())
		return append(dst, '}'), nil
	case *types.Err:
		return dst, x
	case *types.Unknown:
		return dst, fmt.Errorf("unknown value")
	case traits.Lister:
		return appendList(dst, x, depth)
	case traits.Mapper:
		return appendMap(dst, x, depth)
	}
	if msg, ok := v.Value().(proto.Message); ok {
		return appendMessage(dst, msg)
	}
	// Object values of library types (kubernetes.Quantity, net.IP, ...):
	// the type name and, when the value has one, its string form.
	dst = append(dst, `{"object":{"type":`...)
	dst = AppendString(dst, v.Type().TypeName())
	// (Receiver-only values such as an authz Decision have an error as
	// their Value; they have no string form.)
	if s, ok := v.Value().(fmt.Stringer); ok && !isError(v.Value()) {
		dst = append(dst, `,"value":`...)
		dst = AppendString(dst, s.String())
	}
	return append(dst, "}}"...), nil
}

func appendList(dst []byte, l traits.Lister, depth int) ([]byte, error) {
	dst = append(dst, '[')
	it := l.Iterator()
	first := true
	for it.HasNext() == types.True {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		var err error
		if dst, err = appendValue(dst, it.Next(), depth+1); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

type mapKV struct {
	k, v ref.Val
	rank int
}

func keyRank(k ref.Val) int {
	switch k.(type) {
	case types.Bool:
		return 0
	case types.Int:
		return 1
	case types.Uint:
		return 2
	case types.String:
		return 3
	}
	return 4
}

func keyLess(a, b mapKV) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	switch x := a.k.(type) {
	case types.Bool:
		return !bool(x) && bool(b.k.(types.Bool))
	case types.Int:
		return x < b.k.(types.Int)
	case types.Uint:
		return x < b.k.(types.Uint)
	case types.String:
		return x < b.k.(types.String)
	}
	return false
}

func appendMap(dst []byte, m traits.Mapper, depth int) ([]byte, error) {
	var kvs []mapKV
	it := m.Iterator()
	for it.HasNext() == types.True {
		k := it.Next()
		r := keyRank(k)
		if r == 4 {
			return dst, fmt.Errorf("map key of type %s cannot be encoded", k.Type().TypeName())
		}
		v := m.Get(k)
		kvs = append(kvs, mapKV{k: k, v: v, rank: r})
	}
	sort.Slice(kvs, func(i, j int) bool { return keyLess(kvs[i], kvs[j]) })
	dst = append(dst, `{"map":[`...)
	for i, kv := range kvs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		var err error
		if dst, err = appendValue(dst, kv.k, depth+1); err != nil {
			return dst, err
		}
		dst = append(dst, ',')
		if dst, err = appendValue(dst, kv.v, depth+1); err != nil {
			return dst, err
		}
		dst = append(dst, ']')
	}
	return append(dst, "]}"...), nil
}

func appendMessage(dst []byte, msg proto.Message) ([]byte, error) {
	b, err := protojson.MarshalOptions{}.Marshal(msg)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `{"message":{"type":`...)
	dst = AppendString(dst, string(msg.ProtoReflect().Descriptor().FullName()))
	dst = append(dst, `,"json":`...)
	dst, err = AppendCanonicalJSON(dst, b)
	if err != nil {
		return dst, err
	}
	return append(dst, "}}"...), nil
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string escaped per RFC 8785: only '"',
// '\\' and control characters below U+0020 are escaped; invalid UTF-8 is
// replaced by U+FFFD.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendDouble appends f in ECMAScript Number::toString form (what JS
// String(x) gives), except that negative zero is "-0". NaN and the
// infinities are "NaN", "Infinity" and "-Infinity".
func AppendDouble(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0"...)
		}
		return append(dst, '0')
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // d.ddde±XX, shortest round-trip digits
	mant, exp, _ := strings.Cut(string(e), "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k := len(digits)
	n := x + 1 // position of the decimal point relative to the digits
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for i := 0; i < n-k; i++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -n; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}

// AppendTimestamp appends t as RFC 3339 in UTC with "Z" and 0, 3, 6 or 9
// fraction digits.
func AppendTimestamp(dst []byte, t time.Time) []byte {
	t = t.UTC()
	dst = t.AppendFormat(dst, "2006-01-02T15:04:05")
	dst = appendFraction(dst, t.Nanosecond())
	return append(dst, 'Z')
}

// AppendDuration appends d in seconds with 0, 3, 6 or 9 fraction digits and
// an "s" suffix, as protobuf's JSON mapping writes durations ("1.500s").
func AppendDuration(dst []byte, d time.Duration) []byte {
	if d < 0 {
		dst = append(dst, '-')
	}
	secs := int64(d / time.Second)
	nanos := int64(d % time.Second)
	if secs < 0 {
		secs = -secs
	}
	if nanos < 0 {
		nanos = -nanos
	}
	dst = strconv.AppendInt(dst, secs, 10)
	dst = appendFraction(dst, int(nanos))
	return append(dst, 's')
}

func appendFraction(dst []byte, nanos int) []byte {
	if nanos == 0 {
		return dst
	}
	s := fmt.Sprintf("%09d", nanos)
	switch {
	case nanos%1000000 == 0:
		s = s[:3]
	case nanos%1000 == 0:
		s = s[:6]
	}
	dst = append(dst, '.')
	return append(dst, s...)
}

func isError(x any) bool {
	_, ok := x.(error)
	return ok
}
