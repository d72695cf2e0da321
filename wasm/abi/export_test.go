package abi

// For the CRD handlers' fuzz targets (crd_fuzz_test.go, package abi_test).
var (
	CheckResponse = checkResponse
	Clone         = clone
	CRDSeeds      = crdSeeds
)
