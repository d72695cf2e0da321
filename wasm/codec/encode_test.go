package codec

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

// TestAppendDoubleMatchesJavaScript checks doubles against String(x) as
// node printed them (testdata/doubles.tsv), so Go, JS and Python agree.
func TestAppendDoubleMatchesJavaScript(t *testing.T) {
	f, err := os.Open("testdata/doubles.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		bitsHex, want, _ := strings.Cut(line, "\t")
		b, err := hex.DecodeString(bitsHex)
		if err != nil {
			t.Fatal(err)
		}
		v := math.Float64frombits(binary.BigEndian.Uint64(b))
		if got := string(AppendDouble(nil, v)); got != want {
			t.Errorf("AppendDouble(%s = %v) = %q, want %q", bitsHex, v, got, want)
		}
		n++
	}
	if n < 4000 {
		t.Fatalf("only %d doubles checked", n)
	}
}

func TestAppendString(t *testing.T) {
	for in, want := range map[string]string{
		"plain":          `"plain"`,
		"q\"b\\s":        `"q\"b\\s"`,
		"\n\r\t\b\f\x01": `"\n\r\t\b\f\u0001"`,
		"\u2028é😀":       "\"\u2028é😀\"",
		"bad\xffutf8":    "\"bad\uFFFDutf8\"",
		"\x7f":           "\"\x7f\"",
	} {
		if got := string(AppendString(nil, in)); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestTimestampAndDurationForms(t *testing.T) {
	ts := []struct {
		in   time.Time
		want string
	}{
		{time.Unix(1234567890, 0), "2009-02-13T23:31:30Z"},
		{time.Unix(1234567890, 123000000), "2009-02-13T23:31:30.123Z"},
		{time.Unix(1234567890, 123456000), "2009-02-13T23:31:30.123456Z"},
		{time.Unix(1234567890, 123456789), "2009-02-13T23:31:30.123456789Z"},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.FixedZone("x", 3600)), "0000-12-31T23:00:00Z"},
	}
	for _, c := range ts {
		if got := string(AppendTimestamp(nil, c.in)); got != c.want {
			t.Errorf("timestamp %v = %s, want %s", c.in, got, c.want)
		}
	}
	ds := map[time.Duration]string{
		0:                        "0s",
		1500 * time.Millisecond:  "1.500s",
		-1500 * time.Millisecond: "-1.500s",
		time.Nanosecond:          "0.000000001s",
		-time.Microsecond:        "-0.000001s",
		3 * time.Hour:            "10800s",
		math.MinInt64:            "-9223372036.854775808s",
	}
	for d, want := range ds {
		if got := string(AppendDuration(nil, d)); got != want {
			t.Errorf("duration %v = %s, want %s", d, got, want)
		}
	}
}
