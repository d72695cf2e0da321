package k8s

import (
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

// The reference reading of the declarative authorizer table
// (docs/value-encoding.md): the first rule whose named attributes all match
// the check decides it; no match is "no opinion".
type authzTableJSON struct {
	User struct {
		Name   string              `json:"name"`
		UID    string              `json:"uid"`
		Groups []string            `json:"groups"`
		Extra  map[string][]string `json:"extra"`
	} `json:"user"`
	Rules           []map[string]string `json:"rules"`
	RequestResource *struct {
		Group, Version, Resource, Subresource, Namespace, Name string
	} `json:"requestResource"`
}

func authzValue(typeName string, raw json.RawMessage) (ref.Val, error) {
	var t authzTableJSON
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	u := &user.DefaultInfo{Name: t.User.Name, UID: t.User.UID, Groups: t.User.Groups, Extra: t.User.Extra}
	a := tableAuthorizer(t.Rules)
	if typeName == "kubernetes.authorization.Authorizer" {
		return library.NewAuthorizerVal(u, a), nil
	}
	if t.RequestResource == nil {
		return nil, fmt.Errorf("requestResource missing")
	}
	rr := *t.RequestResource
	return library.NewResourceAuthorizerVal(u, a, resourceOf{
		gvr: schema.GroupVersionResource{Group: rr.Group, Version: rr.Version, Resource: rr.Resource},
		sub: rr.Subresource, ns: rr.Namespace, name: rr.Name,
	}), nil
}

type resourceOf struct {
	gvr           schema.GroupVersionResource
	sub, ns, name string
}

func (r resourceOf) GetName() string                          { return r.name }
func (r resourceOf) GetNamespace() string                     { return r.ns }
func (r resourceOf) GetResource() schema.GroupVersionResource { return r.gvr }
func (r resourceOf) GetSubresource() string                   { return r.sub }

type tableAuthorizer []map[string]string

func (t tableAuthorizer) Authorize(_ context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
	attrs := map[string]string{"verb": a.GetVerb()}
	if u := a.GetUser(); u != nil {
		attrs["user"] = u.GetName()
	}
	if a.IsResourceRequest() {
		attrs["apiGroup"], attrs["resource"], attrs["subresource"] = a.GetAPIGroup(), a.GetResource(), a.GetSubresource()
		attrs["namespace"], attrs["name"] = a.GetNamespace(), a.GetName()
		if reqs, err := a.GetFieldSelector(); err == nil {
			var parts []string
			for _, r := range reqs {
				parts = append(parts, r.Field+string(r.Operator)+r.Value)
			}
			attrs["fieldSelector"] = strings.Join(parts, ",")
		}
		if reqs, err := a.GetLabelSelector(); err == nil {
			var parts []string
			for _, r := range reqs {
				parts = append(parts, r.String())
			}
			attrs["labelSelector"] = strings.Join(parts, ",")
		}
	} else {
		attrs["path"] = a.GetPath()
	}
rules:
	for _, rule := range t {
		for k, want := range rule {
			switch k {
			case "decision", "reason", "error":
				continue
			}
			got, present := attrs[k]
			if !present || (want != "*" && want != got) {
				continue rules
			}
		}
		d := authorizer.DecisionAllow
		switch rule["decision"] {
		case "deny":
			d = authorizer.DecisionDeny
		case "noOpinion":
			d = authorizer.DecisionNoOpinion
		}
		var err error
		if rule["error"] != "" {
			err = errors.New(rule["error"])
		}
		return d, rule["reason"], err
	}
	return authorizer.DecisionNoOpinion, "", nil
}
