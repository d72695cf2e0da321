package lazyregexp

import (
	"regexp"
	"sync"
	"testing"
)

// TestLazyRegexpPatchCompilesOnFirstUseOnly: nothing is compiled by
// MustCompile; the first use compiles once, even when many goroutines make
// it at the same time, and every use answers as the standard library does.
func TestLazyRegexpPatchCompilesOnFirstUseOnly(t *testing.T) {
	const pattern = `((\d+)\s*([A-Za-zµ]+))`
	r := MustCompile(pattern)
	if r.Compiled() {
		t.Fatal("compiled before its first use")
	}
	std := regexp.MustCompile(pattern)
	in := "3 hours 12min 5µs x"
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r.MatchString(in) != std.MatchString(in) {
				t.Error("MatchString differs from regexp's")
			}
		}()
	}
	wg.Wait()
	if !r.Compiled() {
		t.Fatal("not compiled after use")
	}
	if got, want := r.FindAllStringSubmatch(in, -1), std.FindAllStringSubmatch(in, -1); len(got) != len(want) || len(got) != 3 {
		t.Fatalf("FindAllStringSubmatch: %q, regexp's %q", got, want)
	} else {
		for i := range got {
			for j := range got[i] {
				if got[i][j] != want[i][j] {
					t.Fatalf("FindAllStringSubmatch: %q, regexp's %q", got, want)
				}
			}
		}
	}
	if got, want := r.ReplaceAllString(in, "-"), std.ReplaceAllString(in, "-"); got != want {
		t.Fatalf("ReplaceAllString: %q, regexp's %q", got, want)
	}
}

// TestLazyRegexpPatchPanicsOnFirstUse: an invalid pattern panics as
// regexp.MustCompile does, at the first use instead of at MustCompile.
func TestLazyRegexpPatchPanicsOnFirstUse(t *testing.T) {
	r := MustCompile("(")
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for an invalid pattern")
		}
	}()
	r.MatchString("x")
}
