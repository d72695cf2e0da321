package v1beta1

import (
	"testing"

	"k8s.io/api/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits: generated.pb.go without the protobuf
// encoding methods and their helpers; String and Reset stay (PATCHES.md,
// "No protobuf encoding").
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../..", patchcheck.Patch{
		File:          "extensions/v1beta1/generated.pb.go",
		RemoveMethods: []string{"Marshal", "MarshalTo", "MarshalToSizedBuffer", "Size", "Unmarshal"},
		RemoveDecls: []string{"encodeVarintGenerated", "sovGenerated", "sozGenerated", "skipGenerated",
			"ErrInvalidLengthGenerated", "ErrIntOverflowGenerated", "ErrUnexpectedEndOfGroupGenerated"},
		RemoveImports: []string{"io io", "k8s_io_api_core_v1 k8s.io/api/core/v1", "v11 k8s.io/api/core/v1", "v1 k8s.io/apimachinery/pkg/apis/meta/v1", "math_bits math/bits", "intstr k8s.io/apimachinery/pkg/util/intstr"},
	})
}
