package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/conformance/adversarial"
)

// TestAdversarialCorpus runs the adversarial corpus (conformance/adversarial)
// through the CLI: each activation as a file (-i FILE --activation), the
// outcome by the CLI's exit-status rule: a value on stdout and 0; an input
// the module calls invalid_activation is unreadable input, 2; a compile,
// evaluation or cost failure, 1, with the module's code on stderr (cel-go's
// issues for a compile error). Where a
// file is read differently from an activation (several JSON objects in a
// row are several documents, as kubectl reads them), the case says so in
// "cli".
func TestAdversarialCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB documents")
	}
	cases, err := adversarial.Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i, c := range cases {
		file := filepath.Join(dir, strconv.Itoa(i)+".json")
		if err := os.WriteFile(file, c.Activation, 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"eval", "-e", string(c.Expression), "--activation", "-i", file, "-o", "json"}
		for _, n := range c.Names() {
			args = append(args, "--var", n+"="+c.Variables[n])
		}
		if c.CostLimit > 0 {
			args = append(args, "--cost-limit", strconv.FormatUint(c.CostLimit, 10))
		}
		stdout, stderr, code := cli(t, "", args...)
		os.Remove(file)
		var want []json.RawMessage
		wantCode, wantErr := 0, c.Expect.Error
		switch {
		case c.CLI != nil:
			want, wantCode, wantErr = c.CLI.Values, c.CLI.Exit, c.CLI.Error
		case wantErr == "invalid_activation":
			wantCode, wantErr = 2, ""
		case wantErr == "compile_error":
			wantCode, wantErr = 1, "ERROR: <input>:" // cel-go's issues with their caret
		case wantErr != "":
			wantCode = 1
		default:
			want = []json.RawMessage{c.Expect.Value}
		}
		if code != wantCode || (wantErr != "" && !strings.Contains(stderr, wantErr)) {
			t.Errorf("%s: exit %d, stderr %.300q; want exit %d with %q", c.ID, code, stderr, wantCode, wantErr)
			continue
		}
		if code == 0 {
			var got []any
			dec := json.NewDecoder(strings.NewReader(stdout))
			for dec.More() {
				var v any
				if err := dec.Decode(&v); err != nil {
					t.Fatalf("%s: stdout %q: %v", c.ID, stdout, err)
				}
				got = append(got, v)
			}
			var exp []any
			for _, w := range want {
				var v any
				json.Unmarshal(w, &v)
				exp = append(exp, v)
			}
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("%s: printed %.200s, want %s", c.ID, stdout, want)
			}
		}
	}
}
