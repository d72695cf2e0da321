// Package free is the Extism plugin's free request: the raw module's
// celwasm_free takes the handle as an i32, an Extism call takes bytes, so the
// plugin reads {"program":N} and answers {"freed":true|false}.
package free

import (
	"bytes"
	"encoding/json"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wire"
)

// Freer releases a program handle (abi.Handler.Free).
type Freer interface {
	Free(handle uint32) bool
}

type request struct {
	Program *uint32 `json:"program"`
}

var (
	freed    = []byte(`{"freed":true}`)
	notFreed = []byte(`{"freed":false}`)
)

// Handle frees the request's program and returns the response JSON; a
// request that is not {"program":N} (N a uint32) is a bad_request error.
func Handle(f Freer, req []byte) []byte {
	var r request
	err := codec.CheckJSON(string(req))
	d := json.NewDecoder(bytes.NewReader(req))
	d.DisallowUnknownFields()
	if err == nil {
		err = d.Decode(&r)
	}
	if err == nil && d.More() {
		err = errTrailing
	}
	if err == nil && r.Program == nil {
		err = errMissing
	}
	if err != nil {
		b, _ := json.Marshal(struct {
			Error wire.Error `json:"error"`
		}{wire.Error{Code: wire.CodeBadRequest, Message: "free request: " + err.Error()}})
		return b
	}
	if f.Free(*r.Program) {
		return freed
	}
	return notFreed
}

type requestError string

func (e requestError) Error() string { return string(e) }

const (
	errTrailing = requestError("trailing data after the JSON object")
	errMissing  = requestError(`want {"program":N}`)
)
