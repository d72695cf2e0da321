package admission

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// typeConverters gives the ApplyConfiguration patcher the structure of each
// kind (k8s.io/apiserver's patch.TypeConverterManager), which decides how
// lists merge (containers by name, ...). kube-apiserver reads it from its
// OpenAPI v3 documents. Here built-in kinds get the schema client-go
// generates from the same definitions (applyconfigurations.NewTypeConverter);
// custom resources get the deduced converter (maps merge, lists are
// replaced whole), which differs from kube-apiserver for lists a CRD marks
// x-kubernetes-list-type: map or set.
type typeConverters struct{ resources *resourceMap }

var builtinTypeConverter = sync.OnceValue(func() managedfields.TypeConverter {
	return applyconfigurations.NewTypeConverter(clientgoscheme.Scheme)
})

func (t typeConverters) GetTypeConverter(gvk schema.GroupVersionKind) managedfields.TypeConverter {
	if clientgoscheme.Scheme.Recognizes(gvk) {
		return builtinTypeConverter()
	}
	return managedfields.NewDeducedTypeConverter()
}

func (typeConverters) Run(context.Context) {}
