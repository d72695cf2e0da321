package engine

import (
	"encoding/base64"
	"fmt"

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
// protoc --descriptor_set_out writes it). Imports missing from the set are
// resolved against the well-known types compiled into the module.
func loadDescriptorSet(b64 string) (*protoregistry.Files, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("descriptorSet: not base64: %v", err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(raw, &set); err != nil {
		return nil, fmt.Errorf("descriptorSet: not a FileDescriptorSet: %v", err)
	}
	files := new(protoregistry.Files)
	resolver := chainResolver{files, protoregistry.GlobalFiles}
	pending := set.File
	for len(pending) > 0 {
		var next []*descriptorpb.FileDescriptorProto
		var lastErr error
		for _, fdp := range pending {
			if _, err := files.FindFileByPath(fdp.GetName()); err == nil {
				continue
			}
			fd, err := protodesc.NewFile(fdp, resolver)
			if err != nil {
				next, lastErr = append(next, fdp), err
				continue
			}
			if err := files.RegisterFile(fd); err != nil {
				return nil, fmt.Errorf("descriptorSet: %v", err)
			}
		}
		if len(next) == len(pending) {
			return nil, fmt.Errorf("descriptorSet: %v", lastErr)
		}
		pending = next
	}
	return files, nil
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
func (e *Env) decodeMessage(body gjson.Result) (ref.Val, error) {
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
