//go:build !race

package celwasm_test

const raceEnabled = false
