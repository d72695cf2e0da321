package importpatch

import (
	"strings"
	"testing"
)

func TestImportPatchCompare(t *testing.T) {
	upstream := "package p\n\nimport (\n\t\"fmt\"\n\n\t" + From + "\n)\n\nvar _ cloudevents.Event\nvar _ = fmt.Sprint\n"
	patched := strings.Replace(upstream, From, To, 1)
	plain := "package p\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n"
	rootUnnamed := "package p\n\nimport \"github.com/cloudevents/sdk-go/v2\"\n\nvar _ v2.Event\n"
	for _, c := range []struct {
		name, mine, theirs string
		patched            bool
		err                string
	}{
		{"patched", patched, upstream, true, ""},
		{"not patched", upstream, upstream, true, "not upstream's file"},
		{"patched and edited", patched + "var x int\n", upstream, true, "not upstream's file"},
		{"no root import, as upstream", plain, plain, false, ""},
		{"no root import, edited", plain + "\n", plain, false, "not upstream's file"},
		{"root imported twice", upstream, upstream + "import " + From + "\n", false, "2 times"},
		{"root imported on another line", rootUnnamed, rootUnnamed, false, "still imports"},
	} {
		p, err := Compare("f.go", []byte(c.mine), []byte(c.theirs))
		if p != c.patched || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: patched %v, error %v; want %v, %q", c.name, p, err, c.patched, c.err)
		}
	}
}
