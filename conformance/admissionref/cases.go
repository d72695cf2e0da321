package admissionref

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/celwasm/celwasm/wire"
)

// Case is one case of the corpus (conformance/admission/cases/NAME.yaml,
// README.md there): an admit request, and the checks the reference's test
// makes on its answer (Expect; the differential test ignores them).
type Case struct {
	Name        string
	Description string
	Request     wire.AdmitRequest
	// Expect has one entry per request (or is empty).
	Expect []Expect
	// ExpectError is set when the whole request must fail.
	ExpectError *ExpectError
	// TypeWarnings is the expected number of type-checking warnings.
	TypeWarnings int
}

// Expect are hand-written facts about one request's result, taken from the
// Kubernetes documentation or kube-apiserver's source: not a recorded answer.
type Expect struct {
	Allowed         *bool    `json:"allowed,omitempty"`
	Message         string   `json:"message,omitempty"`
	MessageContains string   `json:"messageContains,omitempty"`
	Code            int32    `json:"code,omitempty"`
	Warnings        int      `json:"warnings,omitempty"`
	AuditKeys       []string `json:"auditAnnotationKeys,omitempty"`
	Patched         *bool    `json:"patched,omitempty"`
	// Patch is a JSON fragment the patched object must contain.
	Patch json.RawMessage `json:"patch,omitempty"`
}

// ExpectError is the expected error of a case.
type ExpectError struct {
	Code            string `json:"code"`
	MessageContains string `json:"messageContains,omitempty"`
}

type caseFile struct {
	Description string `json:"description"`
	wire.AdmitRequest
	Expect       []Expect     `json:"expect,omitempty"`
	ExpectError  *ExpectError `json:"expectError,omitempty"`
	TypeWarnings int          `json:"typeWarnings,omitempty"`
}

// LoadCases reads every *.yaml file of dir, sorted by name.
func LoadCases(dir string) ([]Case, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var cases []Case
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		js, err := yaml.YAMLToJSON(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		d := json.NewDecoder(bytes.NewReader(js))
		d.DisallowUnknownFields()
		var f caseFile
		if err := d.Decode(&f); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if len(f.Requests) == 0 {
			return nil, fmt.Errorf("%s: no requests", p)
		}
		if len(f.Expect) != 0 && len(f.Expect) != len(f.Requests) {
			return nil, fmt.Errorf("%s: %d expect entries for %d requests", p, len(f.Expect), len(f.Requests))
		}
		cases = append(cases, Case{
			Name:         strings.TrimSuffix(filepath.Base(p), ".yaml"),
			Description:  f.Description,
			Request:      f.AdmitRequest,
			Expect:       f.Expect,
			ExpectError:  f.ExpectError,
			TypeWarnings: f.TypeWarnings,
		})
	}
	return cases, nil
}

// Answer is a case's answer in the form the differential test compares
// (engine answer JSON == reference answer JSON): the response, or the error.
// An error's message is kept only for invalid_policy, where it is
// kube-apiserver's Status message; other errors' messages are the
// reference's own words, so only their code is compared.
type Answer struct {
	Response *wire.AdmitResponse `json:"response,omitempty"`
	Error    *AnswerError        `json:"error,omitempty"`
}

// AnswerError is the error part of an Answer.
type AnswerError struct {
	Code        string            `json:"code"`
	Message     string            `json:"message,omitempty"`
	FieldErrors []wire.FieldError `json:"fieldErrors,omitempty"`
	// Detail is the message of any error, for people (not compared).
	Detail string `json:"-"`
}

// NewAnswer makes the Answer of the reference's results.
func NewAnswer(resp *wire.AdmitResponse, err error) (Answer, error) {
	if err == nil {
		return Answer{Response: resp}, nil
	}
	var ip *InvalidPolicyError
	if errors.As(err, &ip) {
		return ErrorAnswer(ip.Err.Code, ip.Err.Message, ip.FieldErrors), nil
	}
	var we *wire.Error
	if errors.As(err, &we) {
		return ErrorAnswer(we.Code, we.Message, nil), nil
	}
	return Answer{}, err
}

// ErrorAnswer is the Answer of an error response (the engine's too): the
// message and field errors are kept for invalid_policy only.
func ErrorAnswer(code, message string, fieldErrors []wire.FieldError) Answer {
	e := &AnswerError{Code: code, Detail: message}
	if code == wire.CodeInvalidPolicy {
		e.Message, e.FieldErrors = message, fieldErrors
	}
	return Answer{Error: e}
}

// ReferenceAnswer runs the reference on a request and returns its Answer;
// the error is the reference's own failure (not an answer).
func ReferenceAnswer(ctx context.Context, req *wire.AdmitRequest) (Answer, error) {
	resp, err := Admit(ctx, req)
	return NewAnswer(resp, err)
}

// JSON is the Answer's canonical JSON: object keys sorted (patched objects
// included), no HTML escaping, no trailing newline. Decode another
// implementation's answer into an Answer and compare the JSON of both.
func (a Answer) JSON() ([]byte, error) {
	b, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	e := json.NewEncoder(&out)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}

// Diff describes how got differs from want (both canonical Answers), per
// result and field, or returns "" when their JSON is equal.
func Diff(want, got Answer) string {
	wj, err1 := want.JSON()
	gj, err2 := got.JSON()
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("cannot encode: %v %v", err1, err2)
	}
	if bytes.Equal(wj, gj) {
		return ""
	}
	if want.Response == nil || got.Response == nil || len(want.Response.Results) != len(got.Response.Results) {
		return fmt.Sprintf("want %s\n got %s", wj, gj)
	}
	var b strings.Builder
	field := func(i int, name string, w, g any) {
		wb, _ := json.Marshal(w)
		gb, _ := json.Marshal(g)
		if !bytes.Equal(wb, gb) {
			fmt.Fprintf(&b, "results[%d].%s: want %s, got %s\n", i, name, wb, gb)
		}
	}
	for i := range want.Response.Results {
		w, g := want.Response.Results[i], got.Response.Results[i]
		field(i, "allowed", w.Allowed, g.Allowed)
		field(i, "message", w.Message, g.Message)
		field(i, "reason", w.Reason, g.Reason)
		field(i, "code", w.Code, g.Code)
		field(i, "warnings", w.Warnings, g.Warnings)
		field(i, "auditAnnotations", w.AuditAnnotations, g.AuditAnnotations)
		wp, _ := Answer{Response: &wire.AdmitResponse{Results: []wire.AdmitResult{{PatchedObject: w.PatchedObject}}}}.JSON()
		gp, _ := Answer{Response: &wire.AdmitResponse{Results: []wire.AdmitResult{{PatchedObject: g.PatchedObject}}}}.JSON()
		if !bytes.Equal(wp, gp) {
			fmt.Fprintf(&b, "results[%d].patchedObject: want %s, got %s\n", i, w.PatchedObject, g.PatchedObject)
		}
	}
	field(-1, "warnings", want.Response.Warnings, got.Response.Warnings)
	if b.Len() == 0 {
		return fmt.Sprintf("want %s\n got %s", wj, gj)
	}
	return strings.TrimSuffix(strings.ReplaceAll(b.String(), "results[-1].", "response."), "\n")
}
