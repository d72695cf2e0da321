//go:build race

package proxywasm_test

const raceEnabled = true
