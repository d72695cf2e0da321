package codec

import (
	"strconv"
	"testing"
)

// FuzzShortInt: shortInt accepts only text strconv.ParseInt reads in base
// 10 (an optional '-' and 1 to 18 digits), and reads it as ParseInt does.
func FuzzShortInt(f *testing.F) {
	for _, s := range []string{"0", "-0", "7", "-42", "123456789012345678", "-999999999999999999",
		"1234567890123456789", "9223372036854775807", "-9223372036854775808", "", "-", "1.5", "1e3", "+1", "0x10", "1_000", " 1", "--1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := shortInt(s)
		want, err := strconv.ParseInt(s, 10, 64)
		if ok && (err != nil || n != want) {
			t.Fatalf("shortInt(%q) = %d; ParseInt gives %d, %v", s, n, want, err)
		}
		digits := len(s)
		if digits > 0 && s[0] == '-' {
			digits--
		}
		if !ok && err == nil && digits <= 18 && s[0] != '+' {
			t.Fatalf("shortInt(%q) refused what ParseInt reads as %d", s, want)
		}
	})
}
