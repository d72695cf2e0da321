package abi

import (
	"fmt"

	"github.com/celwasm/celwasm/wire"
)

// What request handlers outside this package (wasm/abi/crdhandler) answer
// with, so that their responses have the same shape and buffer rules.

// ErrorResponse is the response of a failed request: {"error": {...}}.
type ErrorResponse = errorResponse

// Reply returns v as the response JSON, valid until the next call on h.
func (h *Handler) Reply(v any) []byte { return h.ok(v) }

// Fail returns the error response of err (code internal unless err is a
// *wire.Error), valid until the next call on h.
func (h *Handler) Fail(err error) []byte { return h.fail(err) }

// Panicked returns the response of a handler that recovered r.
func (h *Handler) Panicked(r any) []byte {
	return h.fail(&wire.Error{Code: wire.CodeInternal, Message: fmt.Sprintf("panic: %v", r)})
}

// Marshal is json.Marshal without HTML escaping, as every response.
func Marshal(v any) ([]byte, error) { return marshal(v) }

// DecodeStrict decodes one JSON request into v, refusing unknown members
// and trailing data.
func DecodeStrict(b []byte, v any) error { return decodeStrict(b, v) }
