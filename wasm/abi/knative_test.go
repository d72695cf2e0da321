package abi

// The handler's tests run as in celwasm-full: with Knative's event decoding
// and CESQL (package abi's code does not import it).
import _ "github.com/celwasm/celwasm/wasm/events/knative"
