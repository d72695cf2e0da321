package parser

import (
	"testing"

	"github.com/cloudevents/sdk-go/sql/v2/internal/importpatch"
	"github.com/cloudevents/sdk-go/v2/event"
)

func TestImportPatch(t *testing.T) {
	if n := importpatch.Check(t, "parser"); n != 1 {
		t.Errorf("%d patched files, want 1 (expression_visitor.go)", n)
	}
	expr, err := Parse("CONCAT(source, '/', id) = 's/1'")
	if err != nil {
		t.Fatal(err)
	}
	e := event.New()
	e.SetID("1")
	e.SetSource("s")
	if got, err := expr.Evaluate(e); err != nil || got != true {
		t.Errorf("%v %v", got, err)
	}
}
