package admission

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// typeConverters gives the ApplyConfiguration patcher the structure of each
// kind (k8s.io/apiserver's patch.TypeConverterManager), which decides how
// lists merge (containers by name, ...). kube-apiserver builds it from its
// OpenAPI definitions with managedfields.NewTypeConverter; here built-in
// kinds get the same, from the kube definitions the module embeds for the
// type checker (builtinschemas.json.gz). Custom resources get the deduced
// converter (maps merge, lists are replaced whole), which differs from
// kube-apiserver for lists a CRD marks x-kubernetes-list-type: map or set.
type typeConverters struct{ resources *resourceMap }

// builtinTypeConverter is built once, on the first mutation of a built-in
// kind; nil when the definitions do not convert (a broken build).
var builtinTypeConverter = sync.OnceValue(func() managedfields.TypeConverter {
	d, err := builtinDefinitions()
	if err != nil {
		return nil
	}
	models := make(map[string]*spec.Schema, len(d.Definitions))
	for name := range d.Definitions {
		s, err := d.definition(name)
		if err != nil || s == nil {
			return nil
		}
		c := *s
		models[name] = &c
	}
	for _, k := range d.Kinds {
		m := models[k.Ref]
		if m == nil {
			continue
		}
		ext := spec.Extensions{}
		for key, v := range m.Extensions {
			ext[key] = v
		}
		gvks, _ := ext["x-kubernetes-group-version-kind"].([]any)
		ext["x-kubernetes-group-version-kind"] = append(gvks, map[string]any{"group": k.Group, "version": k.Version, "kind": k.Kind})
		m.Extensions = ext
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		return nil
	}
	return tc
})

func (t typeConverters) GetTypeConverter(gvk schema.GroupVersionKind) managedfields.TypeConverter {
	if _, builtin := t.resources.builtin[gvk]; builtin {
		if tc := builtinTypeConverter(); tc != nil {
			return tc
		}
	}
	return managedfields.NewDeducedTypeConverter()
}

func (typeConverters) Run(context.Context) {}
