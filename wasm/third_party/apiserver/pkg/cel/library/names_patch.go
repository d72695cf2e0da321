/*
Copyright 2026 The celwasm Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package library

// celwasm patch (wasm/third_party/apiserver/PATCHES.md): the helpers authz.go
// and format.go took from k8s.io/apiserver/pkg/authentication/serviceaccount
// and k8s.io/apimachinery/pkg/api/validation, reproduced here. Importing those
// packages linked k8s.io/api/core/v1 and apimachinery's meta/v1, watch and
// net/http into the WebAssembly modules for these few lines.
// names_patch_test.go compares every helper with the original.

import (
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apiserver/pkg/authentication/user"
)

// serviceAccountUserInfo is
// (&serviceaccount.ServiceAccountInfo{Name: name, Namespace: namespace}).UserInfo():
// no UID, no extra fields.
func serviceAccountUserInfo(namespace, name string) user.Info {
	return &user.DefaultInfo{
		Name:   "system:serviceaccount:" + namespace + ":" + name,
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + namespace},
	}
}

// nameIsDNSSubdomain is apimachinery's validation.NameIsDNSSubdomain.
func nameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return validation.IsDNS1123Subdomain(name)
}

// nameIsDNSLabel is apimachinery's validation.NameIsDNSLabel.
func nameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return validation.IsDNS1123Label(name)
}

// nameIsDNS1035Label is apimachinery's validation.NameIsDNS1035Label.
func nameIsDNS1035Label(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return validation.IsDNS1035Label(name)
}

// maskTrailingDash is apimachinery's validation.maskTrailingDash, as is (it
// drops two characters).
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}
