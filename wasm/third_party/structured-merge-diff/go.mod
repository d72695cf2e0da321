module sigs.k8s.io/structured-merge-diff/v6

require (
	github.com/google/go-cmp v0.5.9
	github.com/json-iterator/go v1.1.12
	go.yaml.in/yaml/v2 v2.4.2
	sigs.k8s.io/randfill v0.0.0-20250304075658-069ef1bbf016
)

require (
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
)

go 1.23
