// Copyright 2022 Google LLC
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//      http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package interpreter

import (
	"errors"
	"math"

	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/internal/itab"
)

// WARNING: Any changes to cost calculations in this file require a corresponding change in checker/cost.go

// ActualCostEstimator provides function call cost estimations at runtime
// CallCost returns an estimated cost for the function overload invocation with the given args, or nil if it has no
// estimate to provide. CEL attempts to provide reasonable estimates for its standard function library, so CallCost
// should typically not need to provide an estimate for CELs standard function.
type ActualCostEstimator interface {
	CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64
}

// costTrackPlanOption modifies the cost tracking factory associatied with the CostObserver
type costTrackPlanOption func(*costTrackerFactory) *costTrackerFactory

// CostTrackerFactory configures the factory method to generate a new cost-tracker per-evaluation.
func CostTrackerFactory(factory func() (*CostTracker, error)) costTrackPlanOption {
	return func(fac *costTrackerFactory) *costTrackerFactory {
		fac.factory = factory
		return fac
	}
}

// CostTrackerTemplate configures the observer to track each evaluation's
// cost with a tracker configured as template, kept in the evaluation's
// pooled state: unlike CostTrackerFactory's clones, it allocates nothing
// per evaluation once its stack has grown. The tracker is valid until the
// frame of the evaluation is closed; read its cost before that.
//
// celwasm patch: allocations are the price of an evaluation in WebAssembly
// (a 64-byte object costs 6-12x native), and the clone, its stack and its
// argument buffer were made anew by every evaluation.
func CostTrackerTemplate(template *CostTracker) costTrackPlanOption {
	return func(fac *costTrackerFactory) *costTrackerFactory {
		fac.template = template
		return fac
	}
}

// CostObserver provides an observer that tracks runtime cost.
func CostObserver(opts ...costTrackPlanOption) PlannerOption {
	ct := &costTrackerFactory{}
	for _, o := range opts {
		ct = o(ct)
	}
	return func(p *planner) (*planner, error) {
		if ct.factory == nil && ct.template == nil {
			return nil, errors.New("cost tracker factory not configured")
		}
		p.observers = append(p.observers, ct)
		p.decorators = append(p.decorators, decObserveEval(ct.Observe))
		return p, nil
	}
}

// costTrackerFactory holds a factory for producing new CostTracker instances on each Eval call.
type costTrackerFactory struct {
	factory  func() (*CostTracker, error)
	template *CostTracker // celwasm patch: see CostTrackerTemplate
}

// InitState produces a CostTracker and bundles it into an Activation in a way which is not visible
// to expression evaluation.
func (ct *costTrackerFactory) InitState(frame *ExecutionFrame) (any, error) {
	if ct.template != nil {
		if frame.ctx == nil {
			frame.ctx = evalContextPool.Get().(*evalContext)
		}
		tracker := &frame.ctx.tracker
		tracker.reuse(ct.template)
		frame.ctx.costs = tracker
		return tracker, nil
	}
	tracker, err := ct.factory()
	if err != nil {
		return nil, err
	}
	if frame.ctx == nil {
		frame.ctx = evalContextPool.Get().(*evalContext)
	}
	frame.ctx.costs = tracker
	return tracker, nil
}

// GetState extracts the CostTracker from the Activation.
func (ct *costTrackerFactory) GetState(frame *ExecutionFrame) any {
	if frame == nil || frame.ctx == nil {
		return nil
	}
	return frame.ctx.costs
}

// Observe computes the incremental cost of each step and records it into the CostTracker associated
// with the evaluation.
func (ct *costTrackerFactory) Observe(vars Activation, id int64, programStep any, val ref.Val) {
	frame := AsFrame(vars)
	state := ct.GetState(frame)
	if state == nil {
		return
	}
	tracker, ok := state.(*CostTracker)
	if !ok {
		// The state is configured with CostTrackFactory so this shouldn't happen.
		return
	}
	// celwasm patch: the steps most evaluations observe are matched by
	// concrete type first. The switch after them tries interface cases
	// first, and on wasm each interface case is an itab lookup at run time
	// (Go disables its interface switch cache there): up to five per step.
	// Each fast case does what the case its type reaches below does
	// (observe_patch_test.go checks which case that is).
	switch t := programStep.(type) {
	case *evalConst:
		// InterpretableConst: zero cost
	case *evalAttr:
		if _, isCond := t.attr.(*conditionalAttribute); isCond {
			tracker.observeAttr(t, programStep)
		} else {
			// observeAttr's default case with the ID as observed
			// (evalWatchAttr.ID, equal to t.Attr().ID()), not asked for
			// again (celwasm patch 13).
			tracker.stack.drop(id)
			tracker.cost += common.SelectAndIdentCost
		}
	case *evalTestOnly:
		tracker.observeAttr(t, programStep)
	case *stringQualifier, *intQualifier, *uintQualifier, *boolQualifier, *doubleQualifier, *fieldQualifier, *testOnlyQualifier:
		// ConstantQualifier
		tracker.cost++
	case *evalBinary:
		tracker.observeCall(t, val)
	case *evalEq:
		tracker.observeCall(t, val)
	case *evalNe:
		tracker.observeCall(t, val)
	case *evalUnary:
		tracker.observeCall(t, val)
	case *evalVarArgs:
		tracker.observeCall(t, val)
	case *evalAnd:
		for _, term := range t.terms {
			tracker.stack.drop(term.ID())
		}
	case *evalOr:
		for _, term := range t.terms {
			tracker.stack.drop(term.ID())
		}
	default:
		// A step type that reached observeStep's InterpretableCall case
		// before reaches it again, without the itab lookups of the cases
		// before it on wasm (package itab; celwasm patch).
		if t, ok := callStep.Lookup(programStep); ok {
			tracker.observeCall(t, val)
		} else {
			tracker.observeStep(programStep, val)
		}
	}
	tracker.stack.push(val, id)

	if tracker.Limit != nil && tracker.cost > *tracker.Limit {
		panic(EvalCancelledError{Cause: CostLimitExceeded, Message: "operation cancelled: actual cost limit exceeded"})
	}
}

// callStep holds the step types for which observeStep's switch reaches
// its InterpretableCall case, and sizerCache serves actualSize's assertion
// to traits.Sizer (celwasm patch, package itab).
var (
	callStep   itab.Cache[InterpretableCall]
	sizerCache itab.Cache[traits.Sizer]
)

// observeStep is upstream's switch of Observe over the step's kind
// (celwasm patch: moved here, unchanged, behind the concrete-type cases).
func (tracker *CostTracker) observeStep(programStep any, val ref.Val) {
	switch t := programStep.(type) {
	case ConstantQualifier:
		// TODO: Push identifiers on to the stack before observing constant qualifiers that apply to them
		// and enable the below pop. Once enabled this can case can be collapsed into the Qualifier case.
		tracker.cost++
	case InterpretableConst:
		// zero cost
	case InterpretableAttribute:
		tracker.observeAttr(t, programStep)
	case *evalExhaustiveConditional:
		// Ternary has no direct cost. All cost is from the conditional and the true/false branch expressions.
		tracker.stack.drop(t.attr.falsy.ID(), t.attr.truthy.ID(), t.attr.expr.ID())

	// While the field names are identical, the boolean operation eval structs do not share an interface and so
	// must be handled individually.
	case *evalOr:
		for _, term := range t.terms {
			tracker.stack.drop(term.ID())
		}
	case *evalAnd:
		for _, term := range t.terms {
			tracker.stack.drop(term.ID())
		}
	case *evalExhaustiveOr:
		for _, term := range t.terms {
			tracker.stack.drop(term.ID())
		}
	case *evalExhaustiveAnd:
		for _, term := range t.terms {
			tracker.stack.drop(term.ID())
		}
	case *evalFold:
		tracker.stack.drop(t.iterRange.ID())
	case Qualifier:
		tracker.cost++
	case InterpretableCall:
		callStep.Remember(programStep, t)
		tracker.observeCall(t, val)
	case InterpretableConstructor:
		tracker.stack.dropArgs(t.InitVals())
		switch t.Type() {
		case types.ListType:
			tracker.cost += common.ListCreateBaseCost
		case types.MapType:
			tracker.cost += common.MapCreateBaseCost
		default:
			tracker.cost += common.StructCreateBaseCost
		}
	}
}

// observeAttr is the InterpretableAttribute case of observeStep (celwasm patch: shared with Observe's fast path).
func (tracker *CostTracker) observeAttr(t InterpretableAttribute, programStep any) {
	switch a := t.Attr().(type) {
	case *conditionalAttribute:
		// Ternary has no direct cost. All cost is from the conditional and the true/false branch expressions.
		tracker.stack.drop(a.falsy.ID(), a.truthy.ID(), a.expr.ID())
	default:
		tracker.stack.drop(t.Attr().ID())
		tracker.cost += common.SelectAndIdentCost
	}
	if !tracker.presenceTestHasCost {
		if _, isTestOnly := programStep.(*evalTestOnly); isTestOnly {
			tracker.cost -= common.SelectAndIdentCost
		}
	}
}

// observeCall is the InterpretableCall case of observeStep (celwasm patch: shared with Observe's fast path).
func (tracker *CostTracker) observeCall(t InterpretableCall, val ref.Val) {
	if argVals, ok := tracker.stack.dropArgs(t.Args()); ok {
		tracker.cost += tracker.costCall(t, argVals, val)
	}
}

// CostTrackerOption configures the behavior of CostTracker objects.
type CostTrackerOption func(*CostTracker) error

// CostTrackerLimit sets the runtime limit on the evaluation cost during execution and will terminate the expression
// evaluation if the limit is exceeded.
func CostTrackerLimit(limit uint64) CostTrackerOption {
	return func(tracker *CostTracker) error {
		tracker.Limit = &limit
		return nil
	}
}

// PresenceTestHasCost determines whether presence testing has a cost of one or zero.
// Defaults to presence test has a cost of one.
func PresenceTestHasCost(hasCost bool) CostTrackerOption {
	return func(tracker *CostTracker) error {
		tracker.presenceTestHasCost = hasCost
		return nil
	}
}

// NewCostTracker creates a new CostTracker with a given estimator and a set of functional CostTrackerOption values.
func NewCostTracker(estimator ActualCostEstimator, opts ...CostTrackerOption) (*CostTracker, error) {
	tracker := &CostTracker{
		Estimator:           estimator,
		overloadTrackers:    map[string]FunctionTracker{},
		presenceTestHasCost: true,
	}
	for _, opt := range opts {
		err := opt(tracker)
		if err != nil {
			return nil, err
		}
	}
	// celwasm patch: see ActualCostValueEstimator.
	if ve, ok := estimator.(ActualCostValueEstimator); ok {
		tracker.valueEstimator, tracker.valueFrom = ve, estimator
	}
	return tracker, nil
}

// OverloadCostTracker binds an overload ID to a runtime FunctionTracker implementation.
//
// OverloadCostTracker instances augment or override ActualCostEstimator decisions, allowing for  versioned and/or
// optional cost tracking changes.
func OverloadCostTracker(overloadID string, fnTracker FunctionTracker) CostTrackerOption {
	return func(tracker *CostTracker) error {
		tracker.overloadTrackers[overloadID] = fnTracker
		tracker.trackedIDs.add(overloadID) // celwasm patch: see trackerFilter
		return nil
	}
}

// FunctionTracker computes the actual cost of evaluating the functions with the given arguments and result.
type FunctionTracker func(args []ref.Val, result ref.Val) *uint64

// CostTracker represents the information needed for tracking runtime cost.
type CostTracker struct {
	Estimator           ActualCostEstimator
	overloadTrackers    map[string]FunctionTracker
	Limit               *uint64
	presenceTestHasCost bool

	cost  uint64
	stack refValStack

	// celwasm patch: trackedIDs filters lookups in overloadTrackers
	// (trackerFilter); valueEstimator is Estimator when it reports costs
	// without allocating, valueFrom the Estimator it was read from.
	trackedIDs     trackerFilter
	valueEstimator ActualCostValueEstimator
	valueFrom      ActualCostEstimator
}

// Clone makes a shallow copy of the tracker.
// The different clones can be used independently from
// each other.
func (c *CostTracker) Clone() (*CostTracker, error) {
	tracker := &CostTracker{
		Estimator:           c.Estimator,
		overloadTrackers:    c.overloadTrackers,
		Limit:               c.Limit,
		presenceTestHasCost: c.presenceTestHasCost,
		trackedIDs:          c.trackedIDs,
		valueEstimator:      c.valueEstimator,
		valueFrom:           c.valueFrom,
	}
	return tracker, nil
}

// reuse configures c as template with a cost of zero, keeping the memory of
// c's stack (celwasm patch, CostTrackerTemplate).
func (c *CostTracker) reuse(template *CostTracker) {
	c.Estimator = template.Estimator
	c.overloadTrackers = template.overloadTrackers
	c.Limit = template.Limit
	c.presenceTestHasCost = template.presenceTestHasCost
	c.trackedIDs = template.trackedIDs
	c.valueEstimator, c.valueFrom = template.valueEstimator, template.valueFrom
	c.cost = 0
	c.stack.items = c.stack.items[:0]
	c.stack.stopCounting()
}

// maxKeptStack is the most stack entries a pooled tracker keeps between
// evaluations (celwasm patch, CostTrackerTemplate); a larger stack is
// dropped rather than held by an idle pooled tracker.
const maxKeptStack = 1024

// release clears the references the stack holds, so that a pooled tracker
// keeps no values of the evaluation that used it.
func (s *refValStack) release() {
	if cap(s.items) > maxKeptStack {
		s.items = nil
	} else {
		clear(s.items[:s.used])
		s.items = s.items[:0]
	}
	s.used = 0
	s.stopCounting()
	clear(s.args)
}

// ActualCost returns the runtime cost
func (c *CostTracker) ActualCost() uint64 {
	return c.cost
}

// Interrupted, when set, is called before the cost of every function call
// is tracked; when it reports true the evaluation stops with an
// EvalCancelledError (cause ContextCancelled).
//
// celwasm patch: a WebAssembly instance cannot be signalled, so the host
// stores to a flag in linear memory and the module points Interrupted at
// it. Checking here makes every program with cost tracking interruptible,
// including those kube-apiserver's libraries build (the CRD validator's).
var Interrupted func() bool

func (c *CostTracker) costCall(call InterpretableCall, args []ref.Val, result ref.Val) uint64 {
	if Interrupted != nil && Interrupted() {
		panic(EvalCancelledError{Cause: ContextCancelled, Message: "operation interrupted by the host"})
	}
	var cost uint64
	if len(c.overloadTrackers) != 0 && c.trackedIDs.mayHold(call.OverloadID()) {
		if tracker, found := c.overloadTrackers[call.OverloadID()]; found {
			callCost := tracker(args, result)
			if callCost != nil {
				cost += *callCost
				return cost
			}
		}
	}
	if c.Estimator != nil {
		// celwasm patch: an estimator that reports its cost as a value is
		// asked for it that way (see ActualCostValueEstimator).
		if c.valueEstimator != nil && c.valueFrom == c.Estimator {
			if callCost, ok := c.valueEstimator.CallCostValue(call.Function(), call.OverloadID(), args, result); ok {
				cost += callCost
				return cost
			}
		} else if callCost := c.Estimator.CallCost(call.Function(), call.OverloadID(), args, result); callCost != nil {
			cost += *callCost
			return cost
		}
	}
	// if user didn't specify, the default way of calculating runtime cost would be used.
	// if user has their own implementation of ActualCostEstimator, make sure to cover the mapping between overloadId and cost calculation
	switch call.OverloadID() {
	// O(n) functions
	case overloads.StartsWithString, overloads.EndsWithString:
		cost += uint64(math.Ceil(float64(actualSize(args[1])) * common.StringTraversalCostFactor))
	case overloads.StringToBytes, overloads.BytesToString, overloads.ExtQuoteString, overloads.ExtFormatString:
		cost += uint64(math.Ceil(float64(actualSize(args[0])) * common.StringTraversalCostFactor))
	case overloads.InList:
		// If a list is composed entirely of constant values this is O(1), but we don't account for that here.
		// We just assume all list containment checks are O(n).
		cost += actualSize(args[1])
	// O(min(m, n)) functions
	case overloads.LessString, overloads.GreaterString, overloads.LessEqualsString, overloads.GreaterEqualsString,
		overloads.LessBytes, overloads.GreaterBytes, overloads.LessEqualsBytes, overloads.GreaterEqualsBytes,
		overloads.Equals, overloads.NotEquals:
		// When we check the equality of 2 scalar values (e.g. 2 integers, 2 floating-point numbers, 2 booleans etc.),
		// the CostTracker.ActualSize() function by definition returns 1 for each operand, resulting in an overall cost
		// of 1.
		lhsSize := actualSize(args[0])
		rhsSize := actualSize(args[1])
		minSize := lhsSize
		if rhsSize < minSize {
			minSize = rhsSize
		}
		cost += uint64(math.Ceil(float64(minSize) * common.StringTraversalCostFactor))
	// O(m+n) functions
	case overloads.AddString, overloads.AddBytes:
		// In the worst case scenario, we would need to reallocate a new backing store and copy both operands over.
		cost += uint64(math.Ceil(float64(actualSize(args[0])+actualSize(args[1])) * common.StringTraversalCostFactor))
	// O(nm) functions
	case overloads.Matches, overloads.MatchesString:
		// https://swtch.com/~rsc/regexp/regexp1.html applies to RE2 implementation supported by CEL
		// Add one to string length for purposes of cost calculation to prevent product of string and regex to be 0
		// in case where string is empty but regex is still expensive.
		strCost := uint64(math.Ceil((1.0 + float64(actualSize(args[0]))) * common.StringTraversalCostFactor))
		// We don't know how many expressions are in the regex, just the string length (a huge
		// improvement here would be to somehow get a count the number of expressions in the regex or
		// how many states are in the regex state machine and use that to measure regex cost).
		// For now, we're making a guess that each expression in a regex is typically at least 4 chars
		// in length.
		regexCost := uint64(math.Ceil(float64(actualSize(args[1])) * common.RegexStringLengthCostFactor))
		cost += strCost * regexCost
	case overloads.ContainsString:
		strCost := uint64(math.Ceil(float64(actualSize(args[0])) * common.StringTraversalCostFactor))
		substrCost := uint64(math.Ceil(float64(actualSize(args[1])) * common.StringTraversalCostFactor))
		cost += strCost * substrCost

	default:
		// The following operations are assumed to have O(1) complexity.
		// - AddList due to the implementation. Index lookup can be O(c) the
		//    number of concatenated lists, but we don't track that is cost calculations.
		// - Conversions, since none perform a traversal of a type of unbound length.
		// - Computing the size of strings, byte sequences, lists and maps.
		// - Logical operations and all operators on fixed width scalars (comparisons, equality)
		// - Any functions that don't have a declared cost either here or in provided ActualCostEstimator.
		cost++

	}
	return cost
}

// actualSize returns the size of the value for all traits.Sizer values, a fixed size for all proto-based
// objects, and a size of 1 for all other value types.
func actualSize(value ref.Val) uint64 {
	if sz, ok := sizerCache.Assert(value); ok {
		return uint64(sz.Size().(types.Int))
	}
	if opt, ok := value.(*types.Optional); ok && opt.HasValue() {
		return actualSize(opt.GetValue())
	}
	return 1
}

type stackVal struct {
	Val ref.Val
	ID  int64
}

// refValStack keeps track of values of the stack for cost calculation purposes
//
// celwasm patch: once the stack is deep (values of comprehension steps are
// pushed and never popped, so it grows with every iteration), counts records
// how many entries each ID has, so that drop and dropArgs skip an ID that is
// not on the stack instead of scanning the whole stack for it. Without it an
// evaluation of l.all(x, a && b) is quadratic in the size of l. Behaviour is
// unchanged: the same entries are found and removed.
//
// The counts of IDs below denseIDs (an AST's IDs count up from 1) are a
// slice indexed by ID, kept from evaluation to evaluation; other IDs go to
// a map. A map was a tenth of (c) in the module (celwasm patch).
//
// celwasm patch: args holds the values dropArgs returns, reused from call to
// call; their one reader, costCall, does not keep them.
type refValStack struct {
	items    []stackVal
	counting bool
	counts   []int32         // by ID, for IDs below denseIDs
	far      map[int64]int32 // other IDs
	args     []ref.Val
	// used is the most entries the stack has held since release, which
	// clears only those (celwasm patch).
	used int
}

// countThreshold is the depth from which IDs are counted.
const countThreshold = 64

// denseIDs bounds the IDs counted in the slice.
const denseIDs = 1 << 16

func (s *refValStack) push(val ref.Val, id int64) {
	s.items = append(s.items, stackVal{Val: val, ID: id})
	s.used = max(s.used, len(s.items))
	if s.counting {
		s.count(id, 1)
	} else if len(s.items) >= countThreshold {
		s.counting = true
		for _, it := range s.items {
			s.count(it.ID, 1)
		}
	}
}

// count adds d to id's count.
func (s *refValStack) count(id int64, d int32) {
	if uint64(id) < denseIDs {
		if int(id) >= len(s.counts) {
			s.counts = append(s.counts, make([]int32, int(id)+1-len(s.counts))...)
		}
		s.counts[id] += d
		return
	}
	if s.far == nil {
		s.far = map[int64]int32{}
	}
	s.far[id] += d
}

// absent reports, when IDs are counted, that id is not on the stack.
func (s *refValStack) absent(id int64) bool {
	if !s.counting {
		return false
	}
	if uint64(id) < denseIDs {
		return uint64(id) >= uint64(len(s.counts)) || s.counts[id] == 0
	}
	return s.far[id] == 0
}

// stopCounting forgets the counts, keeping the slice's memory.
func (s *refValStack) stopCounting() {
	if s.counting {
		clear(s.counts)
		s.far = nil
		s.counting = false
	}
}

// truncate removes the entry at idx and all entries above it.
func (s *refValStack) truncate(idx int) {
	if s.counting {
		for _, it := range s.items[idx:] {
			s.count(it.ID, -1)
		}
	}
	s.items = s.items[:idx]
}

// TODO: Allowing drop and dropArgs to remove stack items above the IDs they are provided is a workaround. drop and dropArgs
// should find and remove only the stack items matching the provided IDs once all attributes are properly pushed and popped from stack.

// drop searches the stack for each ID and removes the ID and all stack items above it.
// If none of the IDs are found, the stack is not modified.
// WARNING: It is possible for multiple expressions with the same ID to exist (due to how macros are implemented) so it's
// possible that a dropped ID will remain on the stack.  They should be removed when IDs on the stack are popped.
func (s *refValStack) drop(ids ...int64) {
	for _, id := range ids {
		if s.absent(id) {
			continue
		}
		for idx := len(s.items) - 1; idx >= 0; idx-- {
			if s.items[idx].ID == id {
				s.truncate(idx)
				break
			}
		}
	}
}

// dropArgs searches the stack for all the args by their IDs, accumulates their associated ref.Vals and drops any
// stack items above any of the arg IDs. If any of the IDs are not found the stack, false is returned.
// Args are assumed to be found in the stack in reverse order, i.e. the last arg is expected to be found highest in
// the stack.
// WARNING: It is possible for multiple expressions with the same ID to exist (due to how macros are implemented) so it's
// possible that a dropped ID will remain on the stack.  They should be removed when IDs on the stack are popped.
func (s *refValStack) dropArgs(args []InterpretableV2) ([]ref.Val, bool) {
	if cap(s.args) < len(args) {
		s.args = make([]ref.Val, max(len(args), 4))
	}
	result := s.args[:len(args)]
argloop:
	for nIdx := len(args) - 1; nIdx >= 0; nIdx-- {
		id := args[nIdx].ID()
		if s.absent(id) {
			return nil, false
		}
		for idx := len(s.items) - 1; idx >= 0; idx-- {
			if s.items[idx].ID == id {
				el := s.items[idx]
				s.truncate(idx)
				result[nIdx] = el.Val
				continue argloop
			}
		}
		return nil, false
	}
	return result, true
}

