package events_test

import (
	"encoding/json"
	. "github.com/celwasm/celwasm/wasm/events"
	_ "github.com/celwasm/celwasm/wasm/events/knative"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/cloudevents/sdk-go/v2/binding/spec"
	"github.com/cloudevents/sdk-go/v2/event"
	cetest "github.com/cloudevents/sdk-go/v2/test"
	"github.com/tidwall/gjson"
	"sigs.k8s.io/yaml"
)

// TestCESQLTCK runs the CloudEvents SQL TCK that github.com/cloudevents/sdk-go/sql/v2
// carries (test/tck/*.yaml) through the cesql filter: each test's event is
// sent as a structured event, and the filter must deliver it exactly when
// the TCK expects the result true without an error; parse errors must be
// compile errors.
func TestCESQLTCK(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/cloudevents/sdk-go/sql/v2").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "test", "tck", "*.yaml"))
	if len(files) < 15 {
		t.Fatalf("TCK files: %v", files)
	}
	env := filterEnv(t)
	n := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var tck struct {
			Tests []struct {
				Name           string         `json:"name"`
				Expression     string         `json:"expression"`
				Result         any            `json:"result"`
				Error          string         `json:"error"`
				Event          *event.Event   `json:"event"`
				EventOverrides map[string]any `json:"eventOverrides"`
			} `json:"tests"`
		}
		if err := yaml.Unmarshal(b, &tck); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, tc := range tck.Tests {
			n++
			name := filepath.Base(file) + ": " + tc.Name
			filter, _ := json.Marshal(map[string]string{"cesql": tc.Expression})
			expr, err := FilterToCEL(gjson.ParseBytes(filter))
			if tc.Error == "parse" {
				if err == nil {
					t.Errorf("%s: %q compiled", name, tc.Expression)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			ev := cetest.FullEvent()
			if tc.Event != nil {
				ev = *tc.Event
			}
			ev.SetSpecVersion(event.CloudEventsVersionV1)
			for k, v := range tc.EventOverrides {
				if err := spec.V1.SetAttribute(ev.Context, k, v); err != nil {
					t.Fatal(err)
				}
			}
			raw, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			prg, err := env.Compile(expr)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			act, err := Activation(env, gjson.ParseBytes(raw))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			v, _, err := prg.Eval(act, 0)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			got, _ := codec.AppendValue(nil, v)
			want := "false"
			if tc.Error == "" && tc.Result == true {
				want = "true"
			}
			if string(got) != want {
				t.Errorf("%s: %s over %s = %s, want %s (TCK result %v, error %q)", name, tc.Expression, raw, got, want, tc.Result, tc.Error)
			}
		}
	}
	t.Logf("%d TCK tests", n)
}
