package interpreter

import "github.com/google/cel-go/common/types/ref"

// ActualCostValueEstimator is an ActualCostEstimator that can also report a
// call's cost as a value: CallCostValue returns (cost, true) exactly when
// CallCost returns a pointer to cost, and (0, false) when it returns nil.
// The cost tracker asks for the value, so an estimator that builds a new
// *uint64 per call allocates nothing. The tracker reads the interface once,
// from the estimator given to NewCostTracker, and uses it only while
// Estimator is still that estimator; an implementation must be comparable
// (a pointer, as Kubernetes' library.CostEstimator is).
//
// celwasm patch: in WebAssembly an allocation costs 6-12x native, and
// Kubernetes' estimator allocated one for every call of its libraries.
type ActualCostValueEstimator interface {
	ActualCostEstimator
	CallCostValue(function, overloadID string, args []ref.Val, result ref.Val) (uint64, bool)
}

// trackerFilter answers, for an overload ID, whether a tracker's
// overloadTrackers may hold it: each key sets one bit in each of two
// 256-bit sets, chosen by two mixes of its length and a few of its bytes,
// and an ID missing either bit is no key. It never answers false for a key,
// so a lookup it skips would have found nothing.
//
// celwasm patch: on WebAssembly Go hashes strings without AES instructions,
// and the map lookup of every call's overload ID was 2-3% of evaluating a
// rule with two or three calls. With the 30 IDs that cel-go's extensions
// give trackers, the filter turns away every overload ID of cel-go's
// standard library.
type trackerFilter struct {
	a, b  [4]uint64
	short bool // a key shorter than two bytes was added
}

func trackerFilterBits(id string) (x, y uint, ok bool) {
	n := len(id)
	if n < 2 {
		return 0, 0, false
	}
	x = (uint(id[n-1])*31 + uint(id[n/2]) + uint(n)*17) & 255
	y = (uint(id[n-2])*131 + uint(id[n/2-1])*7 + uint(id[0])) & 255
	return x, y, true
}

func (f *trackerFilter) add(id string) {
	x, y, ok := trackerFilterBits(id)
	if !ok {
		f.short = true
		return
	}
	f.a[x>>6] |= 1 << (x & 63)
	f.b[y>>6] |= 1 << (y & 63)
}

func (f *trackerFilter) mayHold(id string) bool {
	x, y, ok := trackerFilterBits(id)
	if !ok {
		return f.short
	}
	return f.a[x>>6]&(1<<(x&63)) != 0 && f.b[y>>6]&(1<<(y&63)) != 0
}
