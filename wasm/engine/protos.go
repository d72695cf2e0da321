package engine

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"sync"

	"github.com/google/cel-go/common/types/ref"
	"github.com/tidwall/gjson"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// loadDescriptorSet reads a base64 google.protobuf.FileDescriptorSet (as
// protoc --descriptor_set_out writes it), optionally gzip-compressed.
// Imports missing from the set are resolved against the well-known types
// compiled into the module, and files of the set the module already has (by
// path: the well-known types it links) are taken from the module, so a
// self-contained set (protoc --include_imports) works everywhere.
//
// Parsed sets are cached by content (after decompression), so environments
// built from the same set share its descriptors; and the set's message types
// are registered globally (when no type of that name is registered yet),
// because cel-go unpacks google.protobuf.Any values, and protojson writes
// them, through the global type registry, and message equality compares
// descriptors by identity. With two sets defining the same message name,
// Any values of that name resolve to the first set's definition. An
// instance keeps at most maxDescriptorSets sets; later ones work, except for
// Any values of their own messages.
func loadDescriptorSet(b64 string) (*protoregistry.Files, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("descriptorSet: not base64: %v", err)
	}
	if len(raw) >= 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		if raw, err = gunzip(raw); err != nil {
			return nil, fmt.Errorf("descriptorSet: %v", err)
		}
	}
	key := sha256.Sum256(raw)
	descriptorSets.Lock()
	defer descriptorSets.Unlock()
	if f, ok := descriptorSets.m[key]; ok {
		return f, nil
	}
	files, raws, err := parseDescriptorSet(raw)
	if err != nil {
		return nil, err
	}
	if len(descriptorSets.m) < maxDescriptorSets {
		files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
			registerMessages(fd.Messages())
			if _, ok := descriptorSets.files[fd.Path()]; !ok {
				descriptorSets.files[fd.Path()] = knownFile{fd, raws[fd.Path()]}
			}
			return true
		})
		descriptorSets.m[key] = files
	}
	return files, nil
}

var deterministic = proto.MarshalOptions{Deterministic: true}

// knownFile is a file of a cached set: a later set holding the same file
// (same path, same content) reuses its descriptors, so that messages and
// Any values of both sets have the same descriptors.
type knownFile struct {
	fd  protoreflect.FileDescriptor
	raw []byte
}

// maxDescriptorSets bounds the parsed descriptor sets an instance keeps.
const maxDescriptorSets = 64

var descriptorSets = struct {
	sync.Mutex
	m     map[[32]byte]*protoregistry.Files
	files map[string]knownFile
}{m: map[[32]byte]*protoregistry.Files{}, files: map[string]knownFile{}}

func registerMessages(msgs protoreflect.MessageDescriptors) {
	for i := 0; i < msgs.Len(); i++ {
		md := msgs.Get(i)
		if _, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName()); err != nil {
			protoregistry.GlobalTypes.RegisterMessage(dynamicpb.NewMessageType(md))
		}
		registerMessages(md.Messages())
	}
}

// parseDescriptorSet builds a set's files and returns them with each file's
// serialized descriptor; the caller holds descriptorSets.
func parseDescriptorSet(raw []byte) (*protoregistry.Files, map[string][]byte, error) {
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(raw, &set); err != nil {
		return nil, nil, fmt.Errorf("descriptorSet: not a FileDescriptorSet: %v", err)
	}
	files := new(protoregistry.Files)
	raws := map[string][]byte{}
	resolver := chainResolver{files, protoregistry.GlobalFiles}
	pending := set.File
	for len(pending) > 0 {
		var next []*descriptorpb.FileDescriptorProto
		var lastErr error
		for _, fdp := range pending {
			if _, err := files.FindFileByPath(fdp.GetName()); err == nil {
				continue
			}
			if _, err := protoregistry.GlobalFiles.FindFileByPath(fdp.GetName()); err == nil {
				continue
			}
			b, _ := deterministic.Marshal(fdp)
			raws[fdp.GetName()] = b
			if k, ok := descriptorSets.files[fdp.GetName()]; ok && bytes.Equal(b, k.raw) && sameImports(k.fd, resolver) {
				if err := files.RegisterFile(k.fd); err != nil {
					return nil, nil, fmt.Errorf("descriptorSet: %v", err)
				}
				continue
			}
			fd, err := protodesc.NewFile(fdp, resolver)
			if err != nil {
				next, lastErr = append(next, fdp), err
				continue
			}
			if err := files.RegisterFile(fd); err != nil {
				return nil, nil, fmt.Errorf("descriptorSet: %v", err)
			}
		}
		if len(next) == len(pending) {
			return nil, nil, fmt.Errorf("descriptorSet: %v", lastErr)
		}
		pending = next
	}
	return files, raws, nil
}

// sameImports reports whether every import of a known file resolves, in the
// set being built, to the very descriptor the known file was built with.
func sameImports(fd protoreflect.FileDescriptor, r chainResolver) bool {
	imps := fd.Imports()
	for i := 0; i < imps.Len(); i++ {
		got, err := r.FindFileByPath(imps.Get(i).Path())
		if err != nil || got != imps.Get(i).FileDescriptor {
			return false
		}
	}
	return true
}

// maxDescriptorSet bounds a gzip-compressed descriptor set's size once
// decompressed.
const maxDescriptorSet = 64 << 20

// gunzip decompresses a gzip-compressed descriptor set (protoc's output
// compresses about five times).
func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxDescriptorSet+1))
	if err != nil {
		return nil, fmt.Errorf("gzip: %v", err)
	}
	if len(out) > maxDescriptorSet {
		return nil, fmt.Errorf("larger than %d bytes once decompressed", maxDescriptorSet)
	}
	return out, nil
}

// chainResolver finds files and descriptors in the first registry that has them.
type chainResolver struct {
	local  *protoregistry.Files
	global *protoregistry.Files
}

func (c chainResolver) FindFileByPath(p string) (protoreflect.FileDescriptor, error) {
	if fd, err := c.local.FindFileByPath(p); err == nil {
		return fd, nil
	}
	return c.global.FindFileByPath(p)
}

func (c chainResolver) FindDescriptorByName(n protoreflect.FullName) (protoreflect.Descriptor, error) {
	if d, err := c.local.FindDescriptorByName(n); err == nil {
		return d, nil
	}
	return c.global.FindDescriptorByName(n)
}

// decodeMessage reads {"type": FULL_NAME, "json": PROTOJSON} into a message
// of a type from the environment's descriptor set (or a well-known type).
func (e *Env) DecodeMessage(body gjson.Result) (ref.Val, error) {
	name := protoreflect.FullName(body.Get("type").Str)
	var md protoreflect.MessageDescriptor
	for _, reg := range []*protoregistry.Files{e.files, protoregistry.GlobalFiles} {
		if reg == nil {
			continue
		}
		if d, err := reg.FindDescriptorByName(name); err == nil {
			if m, ok := d.(protoreflect.MessageDescriptor); ok {
				md = m
				break
			}
		}
	}
	if md == nil {
		return nil, fmt.Errorf("unknown message type %q (add its descriptorSet to the environment)", name)
	}
	msg := dynamicpb.NewMessage(md)
	opts := protojson.UnmarshalOptions{}
	if e.files != nil {
		opts.Resolver = dynamicpb.NewTypes(e.files)
	}
	if err := opts.Unmarshal([]byte(body.Get("json").Raw), msg); err != nil {
		return nil, fmt.Errorf("message %s: %v", name, err)
	}
	return e.cel.CELTypeAdapter().NativeToValue(msg), nil
}
