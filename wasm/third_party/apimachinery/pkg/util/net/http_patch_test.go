package net

import (
	"net/http"
	"testing"

	"k8s.io/apimachinery/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits: defaultTransport is a function reading
// http.DefaultTransport instead of a variable initialized from it
// (PATCHES.md, "util/net").
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../..", patchcheck.Patch{
		File: "pkg/util/net/http.go",
		Replace: [][2]string{
			{"var defaultTransport = http.DefaultTransport.(*http.Transport)\n",
				"func defaultTransport() *http.Transport { return http.DefaultTransport.(*http.Transport) }\n"},
			{"defaultTransport.DialContext", "defaultTransport().DialContext"},
			{"defaultTransport.TLSHandshakeTimeout", "defaultTransport().TLSHandshakeTimeout"},
			{"defaultTransport.IdleConnTimeout", "defaultTransport().IdleConnTimeout"},
		},
	})
}

// The defaults SetOldTransportDefaults fills in are http.DefaultTransport's,
// as upstream's, which read them from the same transport at init.
func TestPatchSetOldTransportDefaultsUsesDefaultTransport(t *testing.T) {
	d := http.DefaultTransport.(*http.Transport)
	tr := SetOldTransportDefaults(&http.Transport{})
	if tr.DialContext == nil || tr.TLSHandshakeTimeout != d.TLSHandshakeTimeout || tr.IdleConnTimeout != d.IdleConnTimeout {
		t.Fatalf("defaults %v %v, want %v %v", tr.TLSHandshakeTimeout, tr.IdleConnTimeout, d.TLSHandshakeTimeout, d.IdleConnTimeout)
	}
}
