// Package admission is the differential test of celwasm's admission
// policies: every case of conformance/admission/cases goes through
// kube-apiserver's own admission plugins natively (conformance/admissionref:
// the mutating and validating plugins with fake informers, the RBAC
// authorizer, kube's defaulting and create validation of policies, kube's
// RESTMapper) and through celwasm — the engine natively (wasm/admission) and
// the module celwasm-admission in the Go host on wasmtime-go — and the
// answers must be the same byte for byte (admissionref.Answer's canonical
// JSON): decisions, Status messages, reasons and codes, warnings, audit
// annotations, patched objects, type-checking warnings, and for invalid
// policies the message and field errors.
package admission

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/celwasm/celwasm/conformance/admissionref"
	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/wasmtime"
	"github.com/celwasm/celwasm/wasm/admission"
	"github.com/celwasm/celwasm/wire"
)

var rt *celwasm.Runtime

func TestMain(m *testing.M) {
	ctx := context.Background()
	var err error
	rt, err = celwasm.New(ctx, celwasm.WithInstances(1), wasmtime.Option())
	if err != nil {
		fmt.Fprintln(os.Stderr, "celwasm:", err)
		os.Exit(1)
	}
	code := m.Run()
	rt.Close(ctx)
	os.Exit(code)
}

// engineAnswer is the Answer of celwasm's response or error.
func engineAnswer(resp *wire.AdmitResponse, err error) (admissionref.Answer, error) {
	if err == nil {
		return admissionref.Answer{Response: resp}, nil
	}
	var we *wire.Error
	if errors.As(err, &we) {
		return admissionref.ErrorAnswer(we.Code, we.Message, we.FieldErrors), nil
	}
	var ce *celwasm.Error
	if errors.As(err, &ce) {
		var fields []wire.FieldError
		var fe *celwasm.CRDFieldErrors
		if errors.As(err, &fe) {
			fields = fe.Errors
		}
		return admissionref.ErrorAnswer(ce.Code, ce.Message, fields), nil
	}
	return admissionref.Answer{}, err
}

func TestDifferential(t *testing.T) {
	cases, err := admissionref.LoadCases("cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("%d cases; the corpus has more", len(cases))
	}
	engines := []struct {
		name  string
		admit func(context.Context, *wire.AdmitRequest) (*wire.AdmitResponse, error)
	}{
		{"native", admission.Admit},
		{"module", rt.Admit},
	}
	compared := map[string]int{}
	var allowed, denied, patched, errs, ran int
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			ran++
			ctx := context.Background()
			want, err := admissionref.ReferenceAnswer(ctx, &c.Request)
			if err != nil {
				t.Fatalf("reference: %v", err)
			}
			wantJSON, err := want.JSON()
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range engines {
				got, err := engineAnswer(e.admit(ctx, &c.Request))
				if err != nil {
					t.Fatalf("%s: %v", e.name, err)
				}
				gotJSON, err := got.JSON()
				if err != nil {
					t.Fatal(err)
				}
				if string(gotJSON) != string(wantJSON) {
					t.Errorf("%s and kube-apiserver differ\n%s:\n%s\nkube-apiserver:\n%s", e.name, e.name, gotJSON, wantJSON)
					continue
				}
				compared[e.name]++
			}
			if want.Error != nil {
				errs++
				return
			}
			for _, r := range want.Response.Results {
				if r.Allowed {
					allowed++
				} else {
					denied++
				}
				if string(r.PatchedObject) != "null" {
					patched++
				}
			}
		})
	}
	t.Logf("%d cases (%d allowed, %d denied, %d patched requests; %d error answers); equal to kube-apiserver: native %d, module %d",
		len(cases), allowed, denied, patched, errs, compared["native"], compared["module"])
	if ran == len(cases) && (allowed == 0 || denied == 0 || patched == 0 || errs == 0) {
		t.Errorf("the corpus must have allowed, denied and patched requests and error answers")
	}
}
