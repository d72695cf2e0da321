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
		File:          "flowcontrol/v1beta2/generated.pb.go",
		RemoveMethods: []string{"Marshal", "MarshalTo", "MarshalToSizedBuffer", "Size", "Unmarshal"},
		RemoveDecls: []string{"encodeVarintGenerated", "sovGenerated", "sozGenerated", "skipGenerated",
			"ErrInvalidLengthGenerated", "ErrIntOverflowGenerated", "ErrUnexpectedEndOfGroupGenerated"},
		RemoveImports: []string{"io io", "math_bits math/bits"},
	})
}
