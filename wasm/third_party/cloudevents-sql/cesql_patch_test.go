package v2_test

import (
	"testing"

	cesql "github.com/cloudevents/sdk-go/sql/v2"
	"github.com/cloudevents/sdk-go/sql/v2/internal/importpatch"
	"github.com/cloudevents/sdk-go/sql/v2/parser"
	"github.com/cloudevents/sdk-go/v2/event"
)

// An expression evaluates the SDK's event.Event, the type the broker decodes.
func TestImportPatch(t *testing.T) {
	if n := importpatch.Check(t, "."); n != 2 {
		t.Errorf("%d patched files, want 2 (expression.go, function.go)", n)
	}
	var expr cesql.Expression
	expr, err := parser.Parse("type = 'dev.knative.x' AND EXISTS subject")
	if err != nil {
		t.Fatal(err)
	}
	e := event.New()
	e.SetID("1")
	e.SetSource("s")
	e.SetType("dev.knative.x")
	for _, c := range []struct {
		subject string
		want    bool
	}{{"", false}, {"x", true}} {
		if c.subject != "" {
			e.SetSubject(c.subject)
		}
		got, err := expr.Evaluate(e)
		if err != nil || got != c.want {
			t.Errorf("subject %q: %v %v, want %v", c.subject, got, err, c.want)
		}
	}
}
