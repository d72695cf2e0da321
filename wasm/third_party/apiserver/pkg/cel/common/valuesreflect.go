/*
Copyright 2025 The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package common

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/value"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apiserver/pkg/cel"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// TypedToVal wraps "typed" Go value as CEL ref.Val types using reflection.
// "typed" values must be values declared by Kubernetes API types.go definitions.
func TypedToVal(val interface{}, schema Schema) ref.Val {
	if val == nil {
		return types.NullValue
	}
	v := reflect.ValueOf(val)
	if !v.IsValid() {
		return types.NewErr("invalid data, got invalid reflect value: %v", v)
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return types.NullValue
		}
		v = v.Elem()
	}
	val = v.Interface()

	switch typedVal := val.(type) {
	case bool:
		return types.Bool(typedVal)
	case int:
		return types.Int(typedVal)
	case int32:
		return types.Int(typedVal)
	case int64:
		return types.Int(typedVal)
	case float32:
		return types.Double(typedVal)
	case float64:
		return types.Double(typedVal)
	case string:
		return types.String(typedVal)
	case []byte:
		if typedVal == nil {
			return types.NullValue
		}
		return types.Bytes(typedVal)
	case metav1.Time:
		return types.Timestamp{Time: typedVal.Time}
	case metav1.MicroTime:
		return types.Timestamp{Time: typedVal.Time}
	case metav1.Duration:
		return types.Duration{Duration: typedVal.Duration}
	case intstr.IntOrString:
		switch typedVal.Type {
		case intstr.Int:
			return types.Int(typedVal.IntVal)
		case intstr.String:
			return types.String(typedVal.StrVal)
		}
	case resource.Quantity:
		// For compatibility with CRD Validation rules, represent quantity as a plain string.
		return types.String(typedVal.String())
	case json.Marshaler:
		// All JSON marshaled types must be mapped to a CEL type in the above switch.
		// This ensures that all types are purposefully mapped to CEL types.
		return types.NewErr("unsupported Go type for CEL: %T", typedVal)
	default:
		// continue on to the next switch
	}

	switch v.Kind() {
	case reflect.Slice:
		if schema.Items() == nil {
			return types.NewErr("invalid schema for slice type: %v", schema)
		}
		typedList := typedList{value: v, itemsSchema: schema.Items()}
		listType := schema.XListType()
		if listType != "" {
			switch listType {
			case "map":
				mapKeys := schema.XListMapKeys()
				return &typedMapList{typedList: typedList, keyProps: mapKeys, escapedKeyProps: escapeKeyProps(mapKeys)}
			case "set":
				return &typedSetList{typedList: typedList}
			case "atomic":
				return &typedList
			default:
				return types.NewErr("invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got %s", listType)
			}
		}
		return &typedList
	case reflect.Map:
		if schema.AdditionalProperties() == nil || schema.AdditionalProperties().Schema() == nil {
			return types.NewErr("invalid schema for map type: %v", schema)
		}
		return &typedMap{value: v, valuesSchema: schema.AdditionalProperties().Schema()}
	case reflect.Struct:
		// celwasm patch: the properties are built once per value, not on every lookup.
		props := schema.Properties()
		if props == nil {
			return types.NewErr("invalid schema for struct type: %v", schema)
		}
		return &typedStruct{
			value: v,
			propSchema: func(key string) (Schema, bool) {
				if schema, ok := props[key]; ok {
					return schema, true
				}
				return nil, false
			},
		}
	// Match type aliases to primitives by kind
	case reflect.Bool:
		return types.Bool(v.Bool())
	case reflect.String:
		return types.String(v.String())
	case reflect.Int, reflect.Int32, reflect.Int64:
		return types.Int(v.Int())
	case reflect.Float32, reflect.Float64:
		return types.Double(v.Float())
	default:
		return types.NewErr("unsupported Go type for CEL: %v", v.Type())
	}
}

// typedStruct wraps a struct as a CEL ref.Val and provides lazy access to fields via reflection.
type typedStruct struct {
	value reflect.Value // Kind is required to be: reflect.Struct

	// propSchema finds the schema for a given key.
	// The key is an unescaped JSON name, not an escaped CEL identifier.
	propSchema func(key string) (Schema, bool)
}

func (s *typedStruct) ConvertToNative(typeDesc reflect.Type) (interface{}, error) {
	if s.value.Type().AssignableTo(typeDesc) {
		return s.value.Interface(), nil
	}
	return nil, fmt.Errorf("type conversion error from struct type %v to %v", s.value.Type(), typeDesc)
}

func (s *typedStruct) ConvertToType(typeValue ref.Type) ref.Val {
	switch typeValue {
	case s.Type():
		return s
	case types.MapType:
		return s
	case types.TypeType:
		return s.objType()
	}
	return types.NewErr("type conversion error from struct %s to %s", s.Type().TypeName(), typeValue.TypeName())
}

func (s *typedStruct) Equal(other ref.Val) ref.Val {
	otherStruct, ok := other.(*typedStruct)
	if ok {
		return types.Bool(apiequality.Semantic.DeepEqual(s.value.Interface(), otherStruct.value.Interface()))
	}
	return types.MaybeNoSuchOverloadErr(other)
}

func (s *typedStruct) Type() ref.Type {
	return s.objType()
}

func (s *typedStruct) objType() *types.Type {
	typeName := s.value.Type().Name()
	if pkgPath := s.value.Type().PkgPath(); pkgPath != "" {
		typeName = pkgPath + "." + typeName
	}
	return types.NewObjectType(typeName)
}

func (s *typedStruct) Value() interface{} {
	return s.value.Interface()
}

// IsSet returns true if the field is set. escapedField must be a types.String containing the
// escaped CEL identifier. For example, "__if__" for JSON name "if".
func (s *typedStruct) IsSet(escapedField ref.Val) ref.Val {
	v, found := s.lookupField(escapedField)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

// Get returns the value of a field. escapedKey must be a types.String containing the
// escaped CEL identifier. For example, "__if__" for JSON name "if".
func (s *typedStruct) Get(escapedKey ref.Val) ref.Val {
	v, found := s.lookupField(escapedKey)
	if !found {
		return types.NewErr("no such key: %v", escapedKey)
	}
	return v
}

// lookupField finds a field by name. escapedKey must be a types.String containing the escaped
// CEL identifier of the field name. For example, "__if__" for JSON name "if".
func (s *typedStruct) lookupField(escapedKey ref.Val) (ref.Val, bool) {
	escapedKeyStr, ok := escapedKey.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(escapedKey), true
	}
	unescapedFieldName, ok := cel.Unescape(escapedKeyStr.Value().(string))
	if !ok {
		return nil, false
	}

	cacheEntry := value.TypeReflectEntryOf(s.value.Type())
	fieldCache, ok := cacheEntry.Fields()[unescapedFieldName]
	if !ok {
		return nil, false
	}

	if e := fieldCache.GetFrom(s.value); !fieldCache.CanOmit(e) {
		if propSchema, ok := s.propSchema(unescapedFieldName); ok {
			v := TypedToVal(e.Interface(), propSchema)
			if v == types.NullValue {
				return nil, false
			}
			return v, true
		}
	}
	return nil, false
}

type typedList struct {
	value reflect.Value // Kind is required to be: reflect.Slice

	itemsSchema Schema
}

func (t *typedList) ConvertToNative(typeDesc reflect.Type) (interface{}, error) {
	switch typeDesc.Kind() {
	case reflect.Slice:
		return t.value.Interface(), nil
	default:
		return nil, fmt.Errorf("type conversion error from '%s' to '%s'", t.Type(), typeDesc)
	}
}

func (t *typedList) ConvertToType(typeValue ref.Type) ref.Val {
	switch typeValue {
	case types.ListType:
		return t
	case types.TypeType:
		return types.ListType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", t.Type(), typeValue.TypeName())
}

func (t *typedList) Equal(other ref.Val) ref.Val {
	oList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz := types.Int(t.value.Len())
	if sz != oList.Size() {
		return types.False
	}
	for i := range types.Int(sz) {
		eq := t.Get(i).Equal(oList.Get(i))
		if eq != types.True {
			return eq // either false or error
		}
	}
	return types.True
}

func (t *typedList) Type() ref.Type {
	return types.ListType
}

func (t *typedList) Value() interface{} {
	return t.value.Interface()
}

func (t *typedList) Add(other ref.Val) ref.Val {
	oList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz := t.value.Len()
	otherSz, _ := oList.Size().(types.Int)
	elements := make([]ref.Val, 0, sz+int(otherSz))
	for i := range sz {
		elements = append(elements, t.Get(types.Int(i)))
	}
	for it := oList.Iterator(); it.HasNext() == types.True; {
		elements = append(elements, it.Next())
	}
	return types.NewRefValList(types.DefaultTypeAdapter, elements)
}

func (t *typedList) Contains(val ref.Val) ref.Val {
	if types.IsUnknownOrError(val) {
		return val
	}
	var err ref.Val
	sz := t.value.Len()
	for i := range sz {
		elem := TypedToVal(t.value.Index(i).Interface(), t.itemsSchema)
		cmp := elem.Equal(val)
		b, ok := cmp.(types.Bool)
		if !ok && err == nil {
			err = types.MaybeNoSuchOverloadErr(cmp)
		}
		if b == types.True {
			return types.True
		}
	}
	if err != nil {
		return err
	}
	return types.False
}

func (t *typedList) Get(idx ref.Val) ref.Val {
	iv, isInt := idx.(types.Int)
	if !isInt {
		return types.ValOrErr(idx, "unsupported index: %v", idx)
	}
	i := int(iv)
	if i < 0 || i >= t.value.Len() {
		return types.NewErr("index out of bounds: %v", idx)
	}
	return TypedToVal(t.value.Index(i).Interface(), t.itemsSchema)
}

func (t *typedList) Iterator() traits.Iterator {
	elements := make([]ref.Val, t.value.Len())
	sz := t.value.Len()
	for i := range sz {
		elements[i] = TypedToVal(t.value.Index(i).Interface(), t.itemsSchema)
	}
	return &sliceIter{typedList: t, elements: elements}
}

func (t *typedList) Size() ref.Val {
	return types.Int(t.value.Len())
}

type sliceIter struct {
	*typedList
	elements []ref.Val
	idx      int
}

func (it *sliceIter) HasNext() ref.Val {
	return types.Bool(it.idx < len(it.elements))
}

func (it *sliceIter) Next() ref.Val {
	if it.idx >= len(it.elements) {
		return types.NewErr("iterator exhausted")
	}
	elem := it.elements[it.idx]
	it.idx++
	return elem
}

type typedMapList struct {
	typedList
	// keyProps are unescaped JSON property names
	keyProps []string

	// escapedKeyProps are escaped CEL identifiers
	escapedKeyProps []string

	sync.Once // for lazy load of mapOfList since it is only needed if Equals is called
	mapOfList map[interface{}]interface{}
}

func (t *typedMapList) getMap() map[interface{}]interface{} {
	t.Do(func() {
		sz := t.value.Len()
		t.mapOfList = make(map[interface{}]interface{}, sz)
		for i := range types.Int(sz) {
			v := t.Get(i)
			e := reflect.ValueOf(v.Value())
			t.mapOfList[t.toMapKey(e)] = e.Interface()
		}
	})
	return t.mapOfList
}

// toMapKey returns a valid golang map key for the given element of the map list.
// element must be a valid map list entry where all map key props are scalar types (which are comparable in go
// and valid for use in a golang map key).
func (t *typedMapList) toMapKey(element reflect.Value) interface{} {
	if element.Kind() != reflect.Struct {
		return types.NewErr("unexpected data format for element of array with x-kubernetes-list-type=map: %T", element)
	}
	cacheEntry := value.TypeReflectEntryOf(element.Type())
	var fieldEntries []*value.FieldCacheEntry
	for i := range len(t.keyProps) {
		if ce, ok := cacheEntry.Fields()[t.keyProps[i]]; !ok { // Fields() is keyed by unescaped JSON property names.
			return types.NewErr("unexpected data format for element of array with x-kubernetes-list-type=map: %T", element)
		} else {
			fieldEntries = append(fieldEntries, ce)
		}
	}

	getKeyValue := func(fieldEntry *value.FieldCacheEntry) interface{} {
		v := fieldEntry.GetFrom(element)
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return nil
			}
			v = v.Elem()
		}
		raw := v.Interface()
		if raw != nil && !reflect.TypeOf(raw).Comparable() {
			// %#v includes type information and quotes strings, so the
			// serialized form cannot collide with a comparable raw value.
			return fmt.Sprintf("%#v", raw)
		}
		return raw
	}

	// Arrays are comparable in go and may be used as map keys, but maps and slices are not.
	// So we can special case small numbers of key props as arrays and fall back to serialization
	// for larger numbers of key props
	if len(fieldEntries) == 1 {
		return getKeyValue(fieldEntries[0])
	}
	if len(fieldEntries) == 2 {
		return [2]interface{}{getKeyValue(fieldEntries[0]), getKeyValue(fieldEntries[1])}
	}
	if len(fieldEntries) == 3 {
		return [3]interface{}{getKeyValue(fieldEntries[0]), getKeyValue(fieldEntries[1]), getKeyValue(fieldEntries[2])}
	}

	key := make([]interface{}, len(fieldEntries))
	for i := range fieldEntries {
		key[i] = getKeyValue(fieldEntries[i])
	}
	// Serialize to a string for more than 3 keys. %#v quotes strings.
	return fmt.Sprintf("%#v", key)
}

// Equal on a map list ignores list element order.
func (t *typedMapList) Equal(other ref.Val) ref.Val {
	oMapList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz := types.Int(t.value.Len())
	if sz != oMapList.Size() {
		return types.False
	}
	tMap := t.getMap()
	seen := make(map[interface{}]struct{}, len(tMap))
	for it := oMapList.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := t.toMapKey(reflect.ValueOf(v.Value()))
		tVal, ok := tMap[k]
		if !ok {
			return types.False
		}
		eq := TypedToVal(tVal, t.itemsSchema).Equal(v)
		if eq != types.True {
			return eq // either false or error
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(tMap))
}

// Add for a map list `X + Y` performs a merge where the array positions of all keys in `X` are preserved but the values
// are overwritten by values in `Y` when the key sets of `X` and `Y` intersect. Elements in `Y` with
// non-intersecting keys are appended, retaining their partial order.
func (t *typedMapList) Add(other ref.Val) ref.Val {
	oMapList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz := t.value.Len()
	elements := make([]ref.Val, sz)
	for i := range sz {
		elements[i] = t.Get(types.Int(i))
	}
	return addToMapList(elements, oMapList, t.escapedKeyProps)
}

// addToMapList merges the elements of other into the given map list elements
// according to x-kubernetes-list-type=map semantics: elements of other with
// intersecting keys overwrite the matching entries of elements in place, and
// elements with non-intersecting keys are appended. elements may be mutated in
// place and may be appended to, so callers must not retain or reuse elements
// after the call.
//
// escapedKeyProps must contain the escaped CEL identifiers keys.
func addToMapList(elements []ref.Val, other traits.Lister, escapedKeyProps []string) ref.Val {
	keyToIdx := make(map[interface{}]int, len(elements))
	for i, e := range elements {
		keyToIdx[refValMapKey(e, escapedKeyProps)] = i
	}
	for it := other.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := refValMapKey(v, escapedKeyProps)
		if overwritePosition, ok := keyToIdx[k]; ok {
			elements[overwritePosition] = v
		} else {
			elements = append(elements, v)
		}
	}
	return &refValMapList{
		Lister:          types.NewRefValList(types.DefaultTypeAdapter, elements),
		escapedKeyProps: escapedKeyProps,
	}
}

// refValMapKey returns a valid golang map key for the given element of a map list.
// escapedKeyProps must contain the escaped CEL identifiers of the keys.
func refValMapKey(element ref.Val, escapedKeyProps []string) interface{} {
	get := func(escapedProp string) interface{} {
		key := types.String(escapedProp)
		var v ref.Val
		var found bool
		switch e := element.(type) {
		case traits.Mapper:
			v, found = e.Find(key)
		case traits.Indexer:
			if tester, ok := element.(traits.FieldTester); ok {
				found = tester.IsSet(key) == types.True
			}
			if found {
				v = e.Get(key)
			}
		}
		if !found || v == nil || types.IsUnknownOrError(v) {
			return nil
		}
		raw := v.Value()
		if raw != nil && !reflect.TypeOf(raw).Comparable() {
			// %#v includes type information and quotes strings, so the
			// serialized form cannot collide with a comparable raw value.
			return fmt.Sprintf("%#v", raw)
		}
		return raw
	}

	if len(escapedKeyProps) == 1 {
		return get(escapedKeyProps[0])
	}
	if len(escapedKeyProps) == 2 {
		return [2]interface{}{get(escapedKeyProps[0]), get(escapedKeyProps[1])}
	}
	if len(escapedKeyProps) == 3 {
		return [3]interface{}{get(escapedKeyProps[0]), get(escapedKeyProps[1]), get(escapedKeyProps[2])}
	}

	key := make([]interface{}, len(escapedKeyProps))
	for i, kf := range escapedKeyProps {
		key[i] = get(kf)
	}
	// Serialize to a string for more than 3 keys. %#v quotes strings.
	return fmt.Sprintf("%#v", key)
}

type refValMapList struct {
	traits.Lister
	escapedKeyProps []string
}

func (l *refValMapList) Add(other ref.Val) ref.Val {
	oMapList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	elements := make([]ref.Val, int(sz))
	for i := range types.Int(sz) {
		elements[i] = l.Get(i)
	}
	return addToMapList(elements, oMapList, l.escapedKeyProps)
}

func (l *refValMapList) Equal(other ref.Val) ref.Val {
	oMapList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	if sz != oMapList.Size() {
		return types.False
	}
	keyToElement := make(map[interface{}]ref.Val, int(sz))
	for i := range types.Int(sz) {
		e := l.Get(i)
		keyToElement[refValMapKey(e, l.escapedKeyProps)] = e
	}
	seen := make(map[interface{}]struct{}, int(sz))
	for it := oMapList.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := refValMapKey(v, l.escapedKeyProps)
		e, ok := keyToElement[k]
		if !ok {
			return types.False
		}
		eq := e.Equal(v)
		if eq != types.True {
			return eq
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(keyToElement))
}

type typedSetList struct {
	typedList

	sync.Once // for lazy load of setOfList since it is only needed if Equals is called
	set       map[interface{}]struct{}
	setErr    ref.Val
}

func (t *typedSetList) getSet() (map[interface{}]struct{}, ref.Val) {
	t.Do(func() {
		sz := t.value.Len()
		t.set = make(map[interface{}]struct{}, sz)
		for i := range types.Int(sz) {
			k, err := setElementKey(t.Get(i))
			if err != nil {
				t.set, t.setErr = nil, err
				return
			}
			t.set[k] = struct{}{}
		}
	})
	return t.set, t.setErr
}

// Equal on a set list ignores list element order.
func (t *typedSetList) Equal(other ref.Val) ref.Val {
	oSetList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz := types.Int(t.value.Len())
	if sz != oSetList.Size() {
		return types.False
	}
	tSet, err := t.getSet()
	if err != nil {
		return err
	}
	seen := make(map[interface{}]struct{}, len(tSet))
	for it := oSetList.Iterator(); it.HasNext() == types.True; {
		k, err := setElementKey(it.Next())
		if err != nil {
			return err
		}
		if _, ok := tSet[k]; !ok {
			return types.False
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(tSet))
}

// Add for a set list `X + Y` performs a union where the array positions of all elements in `X` are preserved and
// non-intersecting elements in `Y` are appended, retaining their partial order.
func (t *typedSetList) Add(other ref.Val) ref.Val {
	oSetList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz := t.value.Len()
	elements := make([]ref.Val, sz)
	for i := range sz {
		elements[i] = t.Get(types.Int(i))
	}
	return addToSetList(elements, oSetList)
}

// addToSetList unions the elements of other into the given set list elements
// according to x-kubernetes-list-type=set semantics: the array positions of
// elements are preserved, and elements of other that are not already present
// are appended to maintain partial order. elements may be appended to,
// so callers must not retain or reuse elements after the call.
func addToSetList(elements []ref.Val, other traits.Lister) ref.Val {
	set := make(map[interface{}]struct{}, len(elements))
	for _, e := range elements {
		k, err := setElementKey(e)
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	for it := other.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k, err := setElementKey(v)
		if err != nil {
			return err
		}
		if _, exists := set[k]; !exists {
			set[k] = struct{}{}
			elements = append(elements, v)
		}
	}
	return &refValSetList{Lister: types.NewRefValList(types.DefaultTypeAdapter, elements)}
}

// setElementKey returns a valid golang map key for the given element of a set list.
// Set elements are expected to be scalars; if the element is a non-scalar an error is returned.
func setElementKey(element ref.Val) (value interface{}, err ref.Val) {
	switch element.(type) {
	case traits.Lister, traits.Mapper:
		return nil, types.NewErr("listSet operations are only supported on lists of scalar values")
	}
	raw := element.Value()
	if raw != nil && !reflect.TypeOf(raw).Comparable() {
		// %#v includes type information and quotes strings, so the
		// serialized form cannot collide with a comparable raw value.
		return fmt.Sprintf("%#v", raw), nil
	}
	return raw, nil
}

type refValSetList struct {
	traits.Lister
}

func (l *refValSetList) Add(other ref.Val) ref.Val {
	oSetList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	elements := make([]ref.Val, int(sz))
	for i := range sz {
		elements[i] = l.Get(i)
	}
	return addToSetList(elements, oSetList)
}

// Equal on a set list ignores list element order.
func (l *refValSetList) Equal(other ref.Val) ref.Val {
	oSetList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	if sz != oSetList.Size() {
		return types.False
	}
	set := make(map[interface{}]struct{}, int(sz))
	for i := range sz {
		k, err := setElementKey(l.Get(i))
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	seen := make(map[interface{}]struct{}, len(set))
	for it := oSetList.Iterator(); it.HasNext() == types.True; {
		k, err := setElementKey(it.Next())
		if err != nil {
			return err
		}
		if _, exists := set[k]; !exists {
			return types.False
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(set))
}

type typedMap struct {
	value reflect.Value // Kind is required to be: reflect.Map

	valuesSchema Schema
}

func (t *typedMap) ConvertToNative(typeDesc reflect.Type) (interface{}, error) {
	switch typeDesc.Kind() {
	case reflect.Map:
		return t.value.Interface(), nil
	default:
		return nil, fmt.Errorf("type conversion error from '%s' to '%s'", t.Type(), typeDesc)
	}
}

func (t *typedMap) ConvertToType(typeValue ref.Type) ref.Val {
	switch typeValue {
	case types.MapType:
		return t
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", t.Type(), typeValue.TypeName())
}

func (t *typedMap) Equal(other ref.Val) ref.Val {
	oMap, isMap := other.(traits.Mapper)
	if !isMap {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(t.value.Len()) != oMap.Size() {
		return types.False
	}
	for it := t.value.MapRange(); it.Next(); {
		key := it.Key()
		value := it.Value()
		ov, found := oMap.Find(types.String(key.String()))
		if !found {
			return types.False
		}
		v := TypedToVal(value.Interface(), t.valuesSchema)
		vEq := v.Equal(ov)
		if vEq != types.True {
			return vEq // either false or error
		}
	}
	return types.True
}

func (t *typedMap) Type() ref.Type {
	return types.MapType
}

func (t *typedMap) Value() interface{} {
	return t.value.Interface()
}

func (t *typedMap) Contains(key ref.Val) ref.Val {
	v, found := t.Find(key)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}

	return types.Bool(found)
}

func (t *typedMap) Get(key ref.Val) ref.Val {
	v, found := t.Find(key)
	if found {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

func (t *typedMap) Size() ref.Val {
	return types.Int(t.value.Len())
}

// Find returns the value of the map entry for the given key, if present. The map keys
// are normal strings, not CEL identifiers, and are not escaped.
func (t *typedMap) Find(key ref.Val) (ref.Val, bool) {
	keyStr, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	k := keyStr.Value().(string)
	if v := t.value.MapIndex(reflect.ValueOf(k)); v.IsValid() {
		return TypedToVal(v.Interface(), t.valuesSchema), true
	}
	return nil, false
}

func (t *typedMap) Iterator() traits.Iterator {
	keys := make([]ref.Val, t.value.Len())
	for i, k := range t.value.MapKeys() {
		keys[i] = types.String(k.String())
	}
	sortStringVals(keys)
	return &mapIter{typedMap: t, keys: keys}
}

type mapIter struct {
	*typedMap
	keys []ref.Val
	idx  int
}

func (it *mapIter) HasNext() ref.Val {
	return types.Bool(it.idx < len(it.keys))
}

func (it *mapIter) Next() ref.Val {
	key := it.keys[it.idx]
	it.idx++
	return key
}
