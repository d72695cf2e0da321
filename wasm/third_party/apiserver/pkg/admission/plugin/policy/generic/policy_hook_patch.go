package generic

import "k8s.io/client-go/tools/cache"

// celwasm patch: this file is not upstream's (PATCHES.md, "policy/generic").

// genericInformer is informers.GenericInformer's method set. The informers
// package links every typed informer and the clientset; PolicyHook.ParamInformer
// and CollectParams only call these two methods.
type genericInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() cache.GenericLister
}

// dynamicInterface stands for dynamic.Interface, which links client-go's REST
// client. The modules have no API server to call: its one method is
// unexported and nothing implements it, so PolicyHook.DynamicClient is always
// nil, as upstream's is when no client is set, and CollectParams never takes
// the direct-API fallback it needs one for.
type dynamicInterface interface {
	celwasmNoDynamicClient()
}
