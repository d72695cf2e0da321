// Package authz is the authorizer library of celwasm's typed values: a
// declarative table (user, ordered rules) that becomes a value of the
// Kubernetes authz library's kubernetes.authorization.Authorizer or
// ResourceCheck type (k8s.io/apiserver/pkg/cel/library), so expressions
// like authorizer.group("apps").resource("deployments").check("create").allowed()
// evaluate offline (docs/value-encoding.md).
package authz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/cel-go/common/types/ref"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/cel/library"
)

// The authz library's object types that typed values can build.
const (
	authorizerTypeName    = "kubernetes.authorization.Authorizer"
	resourceCheckTypeName = "kubernetes.authorization.ResourceCheck"
)

// Table is a declarative authorizer: the user it authorizes for and
// an ordered list of rules; the first rule that matches a check decides it.
// A check no rule matches gets "no opinion" (not allowed). It is the value
// of {"object":{"type":"kubernetes.authorization.Authorizer","value":TABLE}}
// in a typed activation (docs/value-encoding.md).
type Table struct {
	User  User   `json:"user"`
	Rules []Rule `json:"rules"`
	// RequestResource is the resource of the request under admission; only
	// for a kubernetes.authorization.ResourceCheck value (the
	// authorizer.requestResource variable of admission policies).
	RequestResource *Resource `json:"requestResource,omitempty"`
}

// User is the user whose permissions are checked.
type User struct {
	Name   string              `json:"name"`
	UID    string              `json:"uid,omitempty"`
	Groups []string            `json:"groups,omitempty"`
	Extra  map[string][]string `json:"extra,omitempty"`
}

// Resource names the resource of an admission request.
type Resource struct {
	Group       string `json:"group,omitempty"`
	Version     string `json:"version,omitempty"`
	Resource    string `json:"resource"`
	Subresource string `json:"subresource,omitempty"`
	Namespace   string `json:"namespace,omitempty"`
	Name        string `json:"name,omitempty"`
}

// Rule matches checks by the attributes it names (absent: any value;
// "*": any value). A rule naming Path matches only path (non-resource)
// checks; one naming a resource attribute matches only resource checks.
// Selectors match the check's parsed selector written back as
// requirements joined by ",".
type Rule struct {
	User          *string `json:"user,omitempty"`
	Verb          *string `json:"verb,omitempty"`
	Path          *string `json:"path,omitempty"`
	APIGroup      *string `json:"apiGroup,omitempty"`
	Resource      *string `json:"resource,omitempty"`
	Subresource   *string `json:"subresource,omitempty"`
	Namespace     *string `json:"namespace,omitempty"`
	Name          *string `json:"name,omitempty"`
	FieldSelector *string `json:"fieldSelector,omitempty"`
	LabelSelector *string `json:"labelSelector,omitempty"`
	// Decision is "allow" (default), "deny" or "noOpinion".
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Error, when set, is returned as the authorizer's error alongside the
	// decision (Decision.errored() is then true).
	Error string `json:"error,omitempty"`
}

// Decode builds an Authorizer or ResourceCheck value from its table.
func Decode(typeName, raw string) (ref.Val, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
	dec.DisallowUnknownFields()
	var t Table
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%s table: %v", typeName, err)
	}
	for i, r := range t.Rules {
		switch r.Decision {
		case "", "allow", "deny", "noOpinion":
		default:
			return nil, fmt.Errorf("%s table: rule %d: decision must be \"allow\", \"deny\" or \"noOpinion\", got %q", typeName, i, r.Decision)
		}
	}
	u := &user.DefaultInfo{Name: t.User.Name, UID: t.User.UID, Groups: t.User.Groups, Extra: t.User.Extra}
	a := tableAuthorizer{rules: t.Rules}
	if typeName == authorizerTypeName {
		if t.RequestResource != nil {
			return nil, fmt.Errorf("%s table: requestResource is for %s values", typeName, resourceCheckTypeName)
		}
		return library.NewAuthorizerVal(u, a), nil
	}
	if t.RequestResource == nil {
		return nil, fmt.Errorf("%s table: requestResource is required", typeName)
	}
	return library.NewResourceAuthorizerVal(u, a, requestResource(*t.RequestResource)), nil
}

type tableAuthorizer struct{ rules []Rule }

func (t tableAuthorizer) Authorize(_ context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
	for _, r := range t.rules {
		if !r.matches(a) {
			continue
		}
		d := authorizer.DecisionAllow
		switch r.Decision {
		case "deny":
			d = authorizer.DecisionDeny
		case "noOpinion":
			d = authorizer.DecisionNoOpinion
		}
		var err error
		if r.Error != "" {
			err = errors.New(r.Error)
		}
		return d, r.Reason, err
	}
	return authorizer.DecisionNoOpinion, "", nil
}

func (r Rule) matches(a authorizer.Attributes) bool {
	user := ""
	if u := a.GetUser(); u != nil {
		user = u.GetName()
	}
	if !match(r.User, user) || !match(r.Verb, a.GetVerb()) {
		return false
	}
	if !a.IsResourceRequest() {
		return r.APIGroup == nil && r.Resource == nil && r.Subresource == nil && r.Namespace == nil &&
			r.Name == nil && r.FieldSelector == nil && r.LabelSelector == nil && match(r.Path, a.GetPath())
	}
	if r.Path != nil {
		return false
	}
	if !match(r.APIGroup, a.GetAPIGroup()) || !match(r.Resource, a.GetResource()) ||
		!match(r.Subresource, a.GetSubresource()) || !match(r.Namespace, a.GetNamespace()) || !match(r.Name, a.GetName()) {
		return false
	}
	if r.FieldSelector != nil {
		reqs, err := a.GetFieldSelector()
		if err != nil {
			return false
		}
		parts := make([]string, len(reqs))
		for i, q := range reqs {
			parts[i] = q.Field + string(q.Operator) + q.Value
		}
		if !match(r.FieldSelector, strings.Join(parts, ",")) {
			return false
		}
	}
	if r.LabelSelector != nil {
		reqs, err := a.GetLabelSelector()
		if err != nil {
			return false
		}
		parts := make([]string, len(reqs))
		for i, q := range reqs {
			parts[i] = q.String()
		}
		if !match(r.LabelSelector, strings.Join(parts, ",")) {
			return false
		}
	}
	return true
}

func match(want *string, got string) bool {
	return want == nil || *want == "*" || *want == got
}

type requestResource Resource

func (r requestResource) GetName() string        { return r.Name }
func (r requestResource) GetNamespace() string   { return r.Namespace }
func (r requestResource) GetSubresource() string { return r.Subresource }
func (r requestResource) GetResource() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Resource}
}

// IsTableType reports whether a typed value of this type name is given as
// a table (Decode).
func IsTableType(typeName string) bool {
	return typeName == authorizerTypeName || typeName == resourceCheckTypeName
}
