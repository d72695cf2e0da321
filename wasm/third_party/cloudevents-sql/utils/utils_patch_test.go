package utils

import (
	"testing"

	"github.com/cloudevents/sdk-go/sql/v2/internal/importpatch"
	"github.com/cloudevents/sdk-go/v2/event"
)

func TestImportPatch(t *testing.T) {
	if n := importpatch.Check(t, "utils"); n != 1 {
		t.Errorf("%d patched files, want 1 (event.go)", n)
	}
	e := event.New()
	e.SetExtension("count", 7)
	if got := GetAttribute(e, "count"); got != int32(7) {
		t.Errorf("GetAttribute(count): %#v", got)
	}
	if ContainsAttribute(e, "subject") {
		t.Error("ContainsAttribute(subject) of an event without one")
	}
}
