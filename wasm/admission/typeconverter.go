package admission

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
)

// typeConverters gives the ApplyConfiguration patcher the structure of each
// kind (k8s.io/apiserver's patch.TypeConverterManager). kube-apiserver reads
// it from its OpenAPI v3 documents; here every kind gets the deduced
// converter (maps merge, lists are replaced whole), which differs from
// kube-apiserver for lists with x-kubernetes-list-type map or set.
type typeConverters struct{ resources *resourceMap }

func (t typeConverters) GetTypeConverter(gvk schema.GroupVersionKind) managedfields.TypeConverter {
	return managedfields.NewDeducedTypeConverter()
}

func (typeConverters) Run(context.Context) {}
