package tekton

import (
	"strings"
	"testing"
)

func TestWhenToCEL(t *testing.T) {
	cases := []struct {
		in   []string
		want string
		err  string
	}{
		{[]string{"$(params.path) == 'README.md'"}, `params.path == 'README.md'`, ""},
		{[]string{"$(tasks.unit-test.results.test-coverage) >= 0.9"}, `tasks["unit-test"].results["test-coverage"] >= 0.9`, ""},
		{[]string{"$(params['my.param']) == \"x\""}, `params["my.param"] == "x"`, ""},
		{[]string{"'a $(params.x) b $(params.y)' == ''"}, `('a ' + string(params.x) + ' b ' + string(params.y)) == ''`, ""},
		{[]string{"\"\"\"$(params.x)\"\"\" == ''"}, `string(params.x) == ''`, ""},
		{[]string{"r'\\d$(params.x)' == ''"}, `(r'\d' + string(params.x)) == ''`, ""},
		{[]string{"'$' + '(params.x)' == ''"}, `'$' + '(params.x)' == ''`, ""},
		{[]string{"a", "b"}, `(a) && (b)`, ""},
		{[]string{"$(tasks.status) == 'Succeeded'", "$(tasks.t.status) == 'Failed'"}, `(tasks.status == 'Succeeded') && (tasks.t.status == 'Failed')`, ""},
		{[]string{"$(context.pipelineRun.name) != ''"}, `context.pipelineRun.name != ''`, ""},
		{[]string{"$(params.x[*]) == ''"}, "", "bad brackets"},
		{[]string{"$(workspaces.w.path) == ''"}, "", "only params, tasks and context"},
		{[]string{"$(tasks.t.results) == ''"}, "", "tasks.TASK.results.NAME"},
		{[]string{"$(params.x == ''"}, "", "unterminated"},
		{[]string{"'abc == ''"}, "", "unterminated string"},
		{[]string{"b'$(params.x)' == b''"}, "", "bytes"},
		{nil, "", "no when expressions"},
	}
	for _, c := range cases {
		got, err := WhenToCEL(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: got %s (%v), want %s", c.in, got, err, c.want)
		}
	}
}
