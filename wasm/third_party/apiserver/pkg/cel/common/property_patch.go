package common

// propertyFinder is a Schema that finds one property's schema without
// building Properties() (celwasm patch, PATCHES.md): the adaptors of
// apiextensions' structural schemas and of kube-openapi's schemas copy every
// property's schema to build that map.
type propertyFinder interface {
	Property(name string) (Schema, bool)
}

// property is s.Properties()[name].
func property(s Schema, name string) (Schema, bool) {
	if f, ok := s.(propertyFinder); ok {
		return f.Property(name)
	}
	p, ok := s.Properties()[name]
	return p, ok
}
