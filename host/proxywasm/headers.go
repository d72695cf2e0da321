package proxywasm

import (
	"encoding/binary"
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// Pair is a header map entry.
type Pair struct{ Key, Value string }

// headerMap is an ordered, lower-cased header map like Envoy's: the request
// pseudo-headers (:authority, :path, :method, :scheme) first, then the
// request's headers.
type headerMap struct{ pairs []Pair }

// requestHeaderMap builds the map for r. Go's http.Header has no order, so
// names are sorted (Envoy keeps wire order).
func requestHeaderMap(r *http.Request) headerMap {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	path := r.RequestURI
	if path == "" || path[0] != '/' {
		path = r.URL.RequestURI()
	}
	h := headerMap{pairs: make([]Pair, 0, 4+len(r.Header)+2)}
	h.pairs = append(h.pairs,
		Pair{":authority", r.Host},
		Pair{":path", path},
		Pair{":method", r.Method},
		Pair{":scheme", scheme},
	)
	keys := make([]string, 0, len(r.Header))
	for k := range r.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		lk := strings.ToLower(k)
		for _, v := range r.Header[k] {
			h.pairs = append(h.pairs, Pair{lk, v})
		}
	}
	return h
}

func (h *headerMap) len() int { return len(h.pairs) }

// get returns the first value of key (lower-cased).
func (h *headerMap) get(key string) (string, bool) {
	key = strings.ToLower(key)
	for _, p := range h.pairs {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

func (h *headerMap) add(key, value string) {
	h.pairs = append(h.pairs, Pair{strings.ToLower(key), value})
}

// replace sets key to value: the first entry keeps its place, the others go.
func (h *headerMap) replace(key, value string) {
	key = strings.ToLower(key)
	out := h.pairs[:0]
	done := false
	for _, p := range h.pairs {
		if p.Key == key {
			if done {
				continue
			}
			p.Value, done = value, true
		}
		out = append(out, p)
	}
	h.pairs = out
	if !done {
		h.pairs = append(h.pairs, Pair{key, value})
	}
}

func (h *headerMap) remove(key string) {
	key = strings.ToLower(key)
	out := h.pairs[:0]
	for _, p := range h.pairs {
		if p.Key != key {
			out = append(out, p)
		}
	}
	h.pairs = out
}

// serialize encodes pairs as the ABI does: count, then key and value sizes,
// then NUL-terminated keys and values (little endian).
func serializePairs(pairs []Pair) []byte {
	if len(pairs) == 0 {
		return nil
	}
	n := 4 + 8*len(pairs)
	for _, p := range pairs {
		n += len(p.Key) + len(p.Value) + 2
	}
	b := make([]byte, 0, n)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(pairs)))
	for _, p := range pairs {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(p.Key)))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(p.Value)))
	}
	for _, p := range pairs {
		b = append(b, p.Key...)
		b = append(b, 0)
		b = append(b, p.Value...)
		b = append(b, 0)
	}
	return b
}

var errSerialized = errors.New("malformed serialized map")

// parsePairs decodes the ABI's map serialization.
func parsePairs(b []byte) ([]Pair, error) {
	if len(b) == 0 || (len(b) == 1 && b[0] == 0) {
		return nil, nil
	}
	if len(b) < 4 {
		return nil, errSerialized
	}
	n := uint64(binary.LittleEndian.Uint32(b))
	if n > uint64(len(b)-4)/10 {
		return nil, errSerialized
	}
	sizes, data := b[4:], b[4+8*n:]
	pairs := make([]Pair, n)
	for i := range pairs {
		k := uint64(binary.LittleEndian.Uint32(sizes[8*i:]))
		v := uint64(binary.LittleEndian.Uint32(sizes[8*i+4:]))
		if k+v+2 > uint64(len(data)) || data[k] != 0 || data[k+1+v] != 0 {
			return nil, errSerialized
		}
		pairs[i] = Pair{string(data[:k]), string(data[k+1 : k+1+v])}
		data = data[k+v+2:]
	}
	return pairs, nil
}

// applyTo writes the (modified) map back into r: regular headers replace
// r.Header, :authority sets r.Host, :method r.Method, :path the URL.
func (h *headerMap) applyTo(r *http.Request) {
	hdr := make(http.Header, len(h.pairs))
	for _, p := range h.pairs {
		switch p.Key {
		case ":authority":
			r.Host = p.Value
		case ":method":
			r.Method = p.Value
		case ":path":
			if p.Value != r.RequestURI {
				if u, err := url.ParseRequestURI(p.Value); err == nil {
					r.URL.Path, r.URL.RawPath, r.URL.RawQuery = u.Path, u.RawPath, u.RawQuery
					r.RequestURI = p.Value
				}
			}
		case ":scheme":
		default:
			hdr.Add(p.Key, p.Value)
		}
	}
	r.Header = hdr
}
