//go:build race

package celwasm_test

// raceEnabled: the race detector slows wazero's interpreter (Go code) about
// tenfold more; its tests run without it (make test-go).
const raceEnabled = true
