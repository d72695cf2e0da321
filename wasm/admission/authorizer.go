package admission

import (
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/authorization/union"
	rbaclisters "k8s.io/client-go/listers/rbac/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac"
)

// newAuthorizer is the authorizer the policies' `authorizer` variable
// asks: kube-apiserver's chain with the system:masters short-cut it always
// installs, then its RBAC authorizer (k8s.io/kubernetes
// plugin/pkg/auth/authorizer/rbac) over the Roles, ClusterRoles,
// RoleBindings and ClusterRoleBindings given. Anything else has no opinion,
// so it is denied.
func newAuthorizer(objs rbacObjects) (authorizer.Authorizer, error) {
	idx := func() cache.Indexer {
		return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	}
	roles, roleBindings, clusterRoles, clusterRoleBindings := idx(), idx(), idx(), idx()
	for _, o := range objs.roles {
		if err := roles.Add(o); err != nil {
			return nil, err
		}
	}
	for _, o := range objs.roleBindings {
		if err := roleBindings.Add(o); err != nil {
			return nil, err
		}
	}
	for _, o := range objs.clusterRoles {
		if err := clusterRoles.Add(o); err != nil {
			return nil, err
		}
	}
	for _, o := range objs.clusterRoleBindings {
		if err := clusterRoleBindings.Add(o); err != nil {
			return nil, err
		}
	}
	r := rbac.New(
		&rbac.RoleGetter{Lister: rbaclisters.NewRoleLister(roles)},
		&rbac.RoleBindingLister{Lister: rbaclisters.NewRoleBindingLister(roleBindings)},
		&rbac.ClusterRoleGetter{Lister: rbaclisters.NewClusterRoleLister(clusterRoles)},
		&rbac.ClusterRoleBindingLister{Lister: rbaclisters.NewClusterRoleBindingLister(clusterRoleBindings)},
	)
	return union.New(
		union.NamedAuthorizer{AuthorizerName: "privileged groups", Authorizer: authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup)},
		union.NamedAuthorizer{AuthorizerName: "RBAC", Authorizer: r},
	)
}
