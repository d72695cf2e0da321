package engine

import (
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// constCtors are the Kubernetes CEL library's constructors from a string
// whose value, for a constant argument, constCtorCall computes once when the
// program is planned. ip, cidr and semver values are immutable and no
// library function changes a URL; a Quantity is copied per evaluation.
var constCtors = map[string]bool{"quantity": true, "ip": true, "cidr": true, "url": true, "semver": true}

// constCtorCall is a call of a constCtors function on a constant: cel-go's
// OptOptimize folds only type conversions, so `quantity('1Gi')` would be
// parsed again on every evaluation. The argument still runs, so the cost
// observer sees the same steps and charges the call exactly as before.
type constCtorCall struct {
	interpreter.InterpretableCall
	val ref.Val
}

func (c *constCtorCall) Exec(f *interpreter.ExecutionFrame) ref.Val {
	c.Args()[0].Exec(f)
	return c.value()
}

func (c *constCtorCall) Eval(a interpreter.Activation) ref.Val {
	c.Args()[0].Eval(a)
	return c.value()
}

// value is the planned value; a Quantity is copied because resource.Quantity
// changes itself when read: Cmp against a quantity in inf.Dec form turns the
// receiver into inf.Dec form too (after which isInteger() is false) and
// String() caches its text. Within one evaluation kube-apiserver shares one
// value the same way; the copy keeps that from leaking into the next.
func (c *constCtorCall) value() ref.Val {
	if q, ok := c.val.(apiservercel.Quantity); ok {
		cp := q.Quantity.DeepCopy()
		return apiservercel.Quantity{Quantity: &cp}
	}
	return c.val
}

// decorateConstCtors is the cel.CustomDecoratorV2 of the kubernetes base.
// Custom decorators run before cel-go's cost observer wraps the node, and
// after it wrapped the argument. An error (a constant the library rejects)
// is left to be raised at evaluation as before.
func decorateConstCtors(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	call, ok := i.(interpreter.InterpretableCall)
	if !ok || len(call.Args()) != 1 || !constCtors[call.Function()] {
		return i, nil
	}
	if _, ok := call.Args()[0].(interpreter.InterpretableConst); !ok {
		return i, nil
	}
	val := call.Eval(interpreter.EmptyActivation())
	if types.IsUnknownOrError(val) {
		return i, nil
	}
	return &constCtorCall{InterpretableCall: call, val: val}, nil
}
