package free

import "testing"

type handles map[uint32]bool

func (h handles) Free(n uint32) bool {
	ok := h[n]
	delete(h, n)
	return ok
}

func TestHandle(t *testing.T) {
	h := handles{7: true}
	for _, c := range []struct{ req, want string }{
		{`{"program":7}`, `{"freed":true}`},
		{`{"program":7}`, `{"freed":false}`},
		{` {"program":8} `, `{"freed":false}`},
		{`{}`, `{"error":{"code":"bad_request","message":"free request: want {\"program\":N}"}}`},
		{`{"program":-1}`, `{"error":{"code":"bad_request","message":"free request: json: cannot unmarshal number -1 into Go struct field request.program of type uint32"}}`},
		{`{"program":1,"x":2}`, `{"error":{"code":"bad_request","message":"free request: json: unknown field \"x\""}}`},
		{`{"program":1}{}`, `{"error":{"code":"bad_request","message":"free request: invalid JSON at offset 13: unexpected data after the value"}}`},
		{"\xff", ``},
		{``, ``},
	} {
		got := string(Handle(h, []byte(c.req)))
		if c.want == "" {
			if len(got) < 40 || got[:39] != `{"error":{"code":"bad_request","message` {
				t.Errorf("%q: %s, want a bad_request error", c.req, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.req, got, c.want)
		}
	}
}
