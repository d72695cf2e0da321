package celwasm

import "github.com/celwasm/celwasm/wasm/input/celtext"

// FormatText renders canonical typed JSON as CEL literal text for people:
// 1, 2u, 3.0, "s", b"\xff", timestamp("..."), duration("1.5s"),
// [1, 2], {"a": 1}, optional.of(1), optional.none(), quantity("1Gi").
// The form is specified in docs/value-encoding.md; the module's
// celwasm_input export ("text") renders it with the same code
// (wasm/input/celtext), so that every host's CLI prints the same bytes.
func FormatText(canonical []byte) (string, error) { return celtext.Format(canonical) }
