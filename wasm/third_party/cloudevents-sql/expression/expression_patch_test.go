package expression

import (
	"testing"

	"github.com/cloudevents/sdk-go/sql/v2/internal/importpatch"
	"github.com/cloudevents/sdk-go/v2/event"
)

func TestImportPatch(t *testing.T) {
	if n := importpatch.Check(t, "expression"); n != 12 {
		t.Errorf("%d patched files, want 12", n)
	}
	e := event.New()
	e.SetType("com.example")
	like, err := NewLikeExpression(NewIdentifierExpression("type"), "com.%")
	if err != nil {
		t.Fatal(err)
	}
	got, err := like.Evaluate(e)
	if err != nil || got != true {
		t.Errorf("type LIKE 'com.%%': %v %v", got, err)
	}
}
