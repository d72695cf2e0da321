package proxywasm

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/binary"
	"encoding/hex"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// Properties (proxy_get_property) follow Envoy's attribute vocabulary
// (envoyproxy.io, arch_overview/advanced/attributes) and Envoy's
// serialization: strings as their bytes; int, uint, timestamps (Unix
// nanoseconds) and durations (nanoseconds) as 8 bytes little endian; bools
// as one byte; string maps as serialized pairs. The request attributes that
// Envoy derives from headers are read from the (possibly modified) header
// map, as Envoy reads them.

// property returns the value at path for stream s (nil in root callbacks),
// or found=false.
func (v *vm) property(s *Stream, path []string) (value []byte, found bool) {
	p := v.w.p
	if len(path) == 1 {
		switch path[0] {
		case "plugin_name":
			return []byte(p.cfg.Name), true
		case "plugin_root_id":
			return []byte(p.cfg.RootID), true
		case "plugin_vm_id":
			return []byte(p.cfg.VMID), true
		}
	}
	if s == nil || len(path) != 2 {
		return nil, false
	}
	r := s.req
	switch path[0] {
	case "request":
		return s.requestProperty(path[1])
	case "source":
		return addrProperty(r.RemoteAddr, path[1])
	case "destination":
		if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			return addrProperty(a.String(), path[1])
		}
		return nil, false
	case "connection":
		return connectionProperty(r, path[1])
	}
	return nil, false
}

func (s *Stream) requestProperty(name string) ([]byte, bool) {
	header := func(k string) ([]byte, bool) {
		v, ok := s.headers.get(k)
		return []byte(v), ok
	}
	switch name {
	case "path":
		return header(":path")
	case "url_path", "query":
		p, ok := s.headers.get(":path")
		if !ok {
			return nil, false
		}
		path, query, _ := strings.Cut(p, "?")
		if name == "query" {
			return []byte(query), true
		}
		return []byte(path), true
	case "host":
		return header(":authority")
	case "scheme":
		return header(":scheme")
	case "method":
		return header(":method")
	case "headers":
		return serializePairs(joinedHeaders(s.headers.pairs)), true
	case "referer":
		return header("referer")
	case "useragent":
		return header("user-agent")
	case "id":
		return header("x-request-id")
	case "time":
		return i64(s.start.UnixNano()), true
	case "protocol":
		return []byte(protocol(s.req)), true
	case "size":
		// Envoy: the content length when known, else the bytes received
		// so far (none, while the headers are processed).
		n := s.req.ContentLength
		if n < 0 {
			n = 0
		}
		return i64(n), true
	}
	// duration, total_size: only once the request completed.
	return nil, false
}

// joinedHeaders is Envoy's request.headers map: one entry per name,
// repeated values joined with ",".
func joinedHeaders(pairs []Pair) []Pair {
	out := make([]Pair, 0, len(pairs))
	index := map[string]int{}
	for _, p := range pairs {
		if i, ok := index[p.Key]; ok {
			out[i].Value += "," + p.Value
			continue
		}
		index[p.Key] = len(out)
		out = append(out, p)
	}
	return out
}

func protocol(r *http.Request) string {
	switch {
	case r.ProtoMajor == 2:
		return "HTTP/2"
	case r.ProtoMajor == 3:
		return "HTTP/3"
	}
	return r.Proto
}

// addrProperty serves address ("ip:port", as Envoy) and port (int).
func addrProperty(addr, name string) ([]byte, bool) {
	switch name {
	case "address":
		return []byte(addr), true
	case "port":
		_, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, false
		}
		n, err := strconv.ParseInt(port, 10, 64)
		if err != nil {
			return nil, false
		}
		return i64(n), true
	}
	return nil, false
}

func connectionProperty(r *http.Request, name string) ([]byte, bool) {
	cs := r.TLS
	switch name {
	case "id":
		if id, ok := r.Context().Value(connIDKey{}).(uint64); ok {
			return u64(id), true
		}
		return nil, false
	case "mtls":
		return boolBytes(cs != nil && len(cs.PeerCertificates) > 0), true
	case "requested_server_name":
		if cs == nil {
			return []byte{}, true
		}
		return []byte(cs.ServerName), true
	}
	if cs == nil {
		return nil, false
	}
	switch name {
	case "tls_version":
		switch cs.Version {
		case tls.VersionTLS10:
			return []byte("TLSv1"), true
		case tls.VersionTLS11:
			return []byte("TLSv1.1"), true
		case tls.VersionTLS12:
			return []byte("TLSv1.2"), true
		case tls.VersionTLS13:
			return []byte("TLSv1.3"), true
		}
		return nil, false
	}
	if len(cs.PeerCertificates) == 0 {
		return nil, false
	}
	peer := cs.PeerCertificates[0]
	switch name {
	case "subject_peer_certificate":
		return []byte(peer.Subject.String()), true
	case "dns_san_peer_certificate":
		if len(peer.DNSNames) > 0 {
			return []byte(peer.DNSNames[0]), true
		}
	case "uri_san_peer_certificate":
		if len(peer.URIs) > 0 {
			return []byte(peer.URIs[0].String()), true
		}
	case "sha256_peer_certificate_digest":
		sum := sha256.Sum256(peer.Raw)
		return []byte(hex.EncodeToString(sum[:])), true
	}
	return nil, false
}

func i64(n int64) []byte  { return binary.LittleEndian.AppendUint64(nil, uint64(n)) }
func u64(n uint64) []byte { return binary.LittleEndian.AppendUint64(nil, n) }

func boolBytes(b bool) []byte {
	if b {
		return []byte{1}
	}
	return []byte{0}
}

// Connection ids (connection.id).

type connIDKey struct{}

var nextConnID atomic.Uint64

// ConnContext is an http.Server ConnContext hook that numbers connections,
// for the connection.id attribute (Serve sets it).
func ConnContext(ctx context.Context, _ net.Conn) context.Context {
	return context.WithValue(ctx, connIDKey{}, nextConnID.Add(1))
}
