package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestDefaultGCPercent: with no GOGC in the environment, init leaves the
// collector at DefaultGCPercent (go test runs init first).
func TestDefaultGCPercent(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set")
	}
	got := debug.SetGCPercent(DefaultGCPercent)
	if got != DefaultGCPercent {
		t.Errorf("GOGC after init = %d, want %d", got, DefaultGCPercent)
	}
}
