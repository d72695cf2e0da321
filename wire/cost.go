package wire

import "strconv"

// UnboundedCost is the estimator's saturated cost estimate (2^64−1): no
// schema bound limits the size it depends on.
const UnboundedCost = ^uint64(0)

// FormatCost is how every celwasm front end prints a cost in cost units:
// digits grouped by thousands ("1,723,858,944"), or "unbounded" for
// UnboundedCost.
func FormatCost(n uint64) string {
	if n == UnboundedCost {
		return "unbounded"
	}
	return GroupDigits(n)
}

// GroupDigits formats n with thousands separators: 1234567 → "1,234,567".
func GroupDigits(n uint64) string {
	s := strconv.FormatUint(n, 10)
	b := make([]byte, 0, len(s)+len(s)/3)
	for i := 0; i < len(s); i++ {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}
