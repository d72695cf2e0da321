package v1beta2

import (
	"testing"

	"k8s.io/api/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits: generated.pb.go without the protobuf
// encoding methods and their helpers; String and Reset stay (PATCHES.md,
// "No protobuf encoding").
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../..", patchcheck.Patch{
		File:          "resource/v1beta2/generated.pb.go",
		RemoveMethods: []string{"Marshal", "MarshalTo", "MarshalToSizedBuffer", "Size", "Unmarshal"},
		RemoveDecls: []string{"encodeVarintGenerated", "sovGenerated", "sozGenerated", "skipGenerated",
			"ErrInvalidLengthGenerated", "ErrIntOverflowGenerated", "ErrUnexpectedEndOfGroupGenerated"},
		RemoveImports: []string{"io io", "v11 k8s.io/api/core/v1", "resource k8s.io/apimachinery/pkg/api/resource", "v1 k8s.io/apimachinery/pkg/apis/meta/v1", "runtime k8s.io/apimachinery/pkg/runtime", "math_bits math/bits", "k8s_io_apimachinery_pkg_types k8s.io/apimachinery/pkg/types"},
	})
}
