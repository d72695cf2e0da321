module k8s.io/klog/v2

go 1.21

require github.com/go-logr/logr v1.4.1
