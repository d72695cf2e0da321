package admission

import (
	"k8s.io/apiserver/pkg/cel/environment"
)

// defaultAndValidate defaults the policies and bindings as kube-apiserver
// does when they are created, then refuses what it would refuse: the first
// invalid one in document order is an invalid_policy error with
// kube-apiserver's Status message (validation.go).
func (c *cluster) defaultAndValidate(envs *environment.EnvSet) error {
	for _, p := range c.vaps {
		defaultVAP(p)
	}
	for _, b := range c.vapBindings {
		defaultVAPBinding(b)
	}
	for _, p := range c.maps {
		defaultMAP(p)
	}
	for _, b := range c.mapBindings {
		defaultMAPBinding(b)
	}
	if gk, name, errs := c.firstInvalid(envs); len(errs) > 0 {
		return invalidPolicyError(gk, name, errs)
	}
	return nil
}
