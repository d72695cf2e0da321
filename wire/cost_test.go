package wire

import "testing"

func TestFormatCost(t *testing.T) {
	for n, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567",
		10_000_000: "10,000,000", UnboundedCost - 1: "18,446,744,073,709,551,614", UnboundedCost: "unbounded"} {
		if got := FormatCost(n); got != want {
			t.Errorf("FormatCost(%d) = %q, want %q", n, got, want)
		}
	}
}
