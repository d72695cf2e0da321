// Package lazyregexp is not part of kube-openapi: celwasm's copy adds it
// (PATCHES.md). A Regexp is compiled on its first use instead of when its
// package initialises, so that a program that never validates a hostname
// does not compile strfmt's hostname expression at start. The patched files
// import it under the name regexp; their regexp.MustCompile calls are
// unchanged.
package lazyregexp

import (
	"regexp"
	"sync"
	"sync/atomic"
)

// Regexp is a regular expression compiled by the standard library's
// regexp.MustCompile on first use; it is safe for concurrent use.
type Regexp struct {
	pattern string
	once    sync.Once
	rx      atomic.Pointer[regexp.Regexp]
}

// MustCompile returns a Regexp for pattern without compiling it. The
// compilation happens on first use and panics there if pattern is invalid
// (every pattern passed here is one of upstream's constants, which compile).
func MustCompile(pattern string) *Regexp {
	return &Regexp{pattern: pattern}
}

func (r *Regexp) re() *regexp.Regexp {
	if rx := r.rx.Load(); rx != nil {
		return rx
	}
	r.once.Do(func() { r.rx.Store(regexp.MustCompile(r.pattern)) })
	return r.rx.Load()
}

// Compiled reports whether the expression has been compiled yet.
func (r *Regexp) Compiled() bool { return r.rx.Load() != nil }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.re().ReplaceAllString(src, repl)
}
