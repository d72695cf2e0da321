package function

import (
	"testing"

	"github.com/cloudevents/sdk-go/sql/v2/internal/importpatch"
	"github.com/cloudevents/sdk-go/v2/event"
)

func TestImportPatch(t *testing.T) {
	if n := importpatch.Check(t, "function"); n != 4 {
		t.Errorf("%d patched files, want 4", n)
	}
	got, err := UpperFunction.Run(event.New(), []interface{}{"knative"})
	if err != nil || got != "KNATIVE" {
		t.Errorf("UPPER('knative'): %v %v", got, err)
	}
}
