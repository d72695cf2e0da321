package engine

import (
	"fmt"

	"github.com/celwasm/celwasm/wire"
)

// Errors of the engine are *wire.Error, with the codes of package wire.

func envErr(format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.CodeInvalidEnv, Message: fmt.Sprintf(format, args...)}
}

// Errorf returns a *wire.Error with the given code.
func Errorf(code, format string, args ...any) *wire.Error {
	return &wire.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
