package library

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
)

// names are the inputs the patched helpers are compared on: edge cases
// around the DNS label and subdomain rules and their length limits, then
// random strings over an alphabet that hits every branch.
func names() []string {
	out := []string{"", "a", "-", "a-", "-a", "ab-", "a--", "a.b", "a..b", ".a", "a.", "A", "aB", "1a", "a1",
		"a_b", "my-name", "my.name-1", "x-", "--", "0", "ab.cd-", "é", "a b", "a\x00",
		strings.Repeat("a", 62) + "-", strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 63) + "-",
		strings.Repeat("a", 253), strings.Repeat("a", 254), strings.Repeat("a.", 126) + "a", strings.Repeat("a", 252) + "-"}
	const alphabet = "ab0-.A_Z9- ."
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		n := rng.Intn(12)
		if i%50 == 0 {
			n = 60 + rng.Intn(200)
		}
		b := make([]byte, n)
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		out = append(out, string(b))
	}
	return out
}

// TestNameHelpersPatchMatchApimachinery compares the reproduced helpers with
// k8s.io/apimachinery/pkg/api/validation's, messages included.
func TestNameHelpersPatchMatchApimachinery(t *testing.T) {
	helpers := []struct {
		name              string
		patched, upstream func(string, bool) []string
	}{
		{"NameIsDNSSubdomain", nameIsDNSSubdomain, apimachineryvalidation.NameIsDNSSubdomain},
		{"NameIsDNSLabel", nameIsDNSLabel, apimachineryvalidation.NameIsDNSLabel},
		{"NameIsDNS1035Label", nameIsDNS1035Label, apimachineryvalidation.NameIsDNS1035Label},
		{"ValidateServiceAccountName", nameIsDNSSubdomain, apimachineryvalidation.ValidateServiceAccountName},
		{"ValidateNamespaceName", nameIsDNSLabel, apimachineryvalidation.ValidateNamespaceName},
	}
	valid, invalid := 0, 0
	for _, s := range names() {
		for _, prefix := range []bool{false, true} {
			for _, h := range helpers {
				got, want := h.patched(s, prefix), h.upstream(s, prefix)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s(%q, %v) = %q, upstream %q", h.name, s, prefix, got, want)
				}
				if len(want) == 0 {
					valid++
				} else {
					invalid++
				}
			}
		}
	}
	// Both outcomes must have been compared, many times.
	if valid < 1000 || invalid < 1000 {
		t.Fatalf("compared %d valid and %d invalid names; the inputs no longer cover both", valid, invalid)
	}
}

// TestServiceAccountUserInfoPatchMatchesServiceaccount compares the
// reproduced user with serviceaccount.ServiceAccountInfo.UserInfo's.
func TestServiceAccountUserInfoPatchMatchesServiceaccount(t *testing.T) {
	ns := names()
	for i, name := range ns[:2000] {
		namespace := ns[len(ns)-1-i]
		got := serviceAccountUserInfo(namespace, name)
		want := (&serviceaccount.ServiceAccountInfo{Name: name, Namespace: namespace}).UserInfo()
		if got.GetName() != want.GetName() || got.GetUID() != want.GetUID() ||
			!reflect.DeepEqual(got.GetGroups(), want.GetGroups()) || !reflect.DeepEqual(got.GetExtra(), want.GetExtra()) {
			t.Fatalf("serviceAccount(%q, %q) = %+v, upstream %+v", namespace, name, got, want)
		}
	}
}
