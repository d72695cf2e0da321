/*
Copyright 2024 The Kubernetes Authors.

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

package generic

// celwasm patch: without the API-server-backed policy source (policySource, NewPolicySource); PolicyHook stays (PATCHES.md, "policy/generic").

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

type PolicyHook[P runtime.Object, B runtime.Object, E Evaluator] struct {
	Policy   P
	Bindings []B

	// ParamInformer is the informer for the param CRD for this policy, or nil if
	// there is no param or if there was a configuration error
	ParamInformer genericInformer // celwasm patch: informers.GenericInformer upstream
	ParamScope    meta.RESTScope

	// DynamicClient is used for direct API calls to handle cache misses
	DynamicClient dynamicInterface // celwasm patch: dynamic.Interface upstream; always nil here
	// RESTMapper is used to resolve GVK to GVR for direct API calls
	RESTMapper meta.RESTMapper

	Evaluator          E
	ConfigurationError error
}
