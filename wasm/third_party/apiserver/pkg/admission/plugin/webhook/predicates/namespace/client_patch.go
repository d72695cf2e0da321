package namespace

import (
	"context"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// celwasm patch: this file is not upstream's (PATCHES.md, "predicates/namespace
// and policy/matching").

// NamespaceClient is the one call Matcher makes on its client
// (clientset.Interface upstream, whose package links every typed client):
// Client.CoreV1().Namespaces().Get, written as the same chain so that
// matcher.go's statements stay upstream's. The modules pass nil, as a
// program without an API server does upstream.
type NamespaceClient interface {
	CoreV1() interface {
		Namespaces() interface {
			Get(ctx context.Context, name string, opts metav1.GetOptions) (*v1.Namespace, error)
		}
	}
}
