package interpreter

// freeList is the pool the interpreter's per-evaluation objects (frames,
// evaluation contexts, activation stacks, folders) come from in a program
// that has one thread: WebAssembly's. It keeps up to len(free) objects.
// sync.Pool pins its per-processor list on every Get and Put; on one
// thread, with no goroutine switch possible inside Get or Put (neither
// calls a function between reading n and writing it), a plain stack is
// enough. Objects are dropped only when the list is full.
type freeList struct {
	New  func() any
	free [16]any
	n    int
}

// Get returns the object put last, or New() when the list is empty.
func (p *freeList) Get() any {
	if p.n > 0 {
		p.n--
		x := p.free[p.n]
		p.free[p.n] = nil
		return x
	}
	return p.New()
}

// Put keeps x for the next Get, unless the list is full.
func (p *freeList) Put(x any) {
	if p.n < len(p.free) {
		p.free[p.n] = x
		p.n++
	}
}
