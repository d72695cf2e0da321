// Package itab remembers the itab of an assertion to an interface per
// dynamic type (celwasm patch).
//
// Go disables its interface switch cache on wasm (internal/abi,
// UseInterfaceSwitchCache), so there every assertion to an interface, and
// every interface case of a type switch, is an itab lookup at run time
// (runtime.typeAssert, getitab, itabTableType.find). A Cache is the cache
// the compiler emits on other architectures, for one interface at one
// call site: built for wasm it answers from what an earlier assertion of
// the same dynamic type found; elsewhere it holds nothing and Assert is the
// plain assertion. Its type parameter must be an interface type. Built for
// wasm a Cache is written without synchronisation, which is sound only
// because Go runs on one thread there.
package itab
