package admission

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// resourceMap maps kinds to the resources kube-apiserver serves them as
// (request.resource) and their scope: the built-in kinds below and the
// kinds of the CustomResourceDefinitions given.
type resourceMap struct {
	byKind  map[schema.GroupVersionKind]resourceInfo
	builtin map[schema.GroupVersionKind]bool // the kinds of the table below
}

type resourceInfo struct {
	resource   schema.GroupVersionResource
	namespaced bool
}

// builtin lists kube-apiserver 1.37's built-in kinds: group, versions,
// kind, plural, namespaced. The differential test checks each row
// against kube's own RESTMapper (conformance/admissionref).
var builtin = []struct {
	group, versions, kind, plural string
	namespaced                    bool
}{
	{"", "v1", "Binding", "bindings", true},
	{"", "v1", "ConfigMap", "configmaps", true},
	{"", "v1", "Endpoints", "endpoints", true},
	{"", "v1", "Event", "events", true},
	{"", "v1", "LimitRange", "limitranges", true},
	{"", "v1", "Namespace", "namespaces", false},
	{"", "v1", "Node", "nodes", false},
	{"", "v1", "PersistentVolume", "persistentvolumes", false},
	{"", "v1", "PersistentVolumeClaim", "persistentvolumeclaims", true},
	{"", "v1", "Pod", "pods", true},
	{"", "v1", "PodTemplate", "podtemplates", true},
	{"", "v1", "ReplicationController", "replicationcontrollers", true},
	{"", "v1", "ResourceQuota", "resourcequotas", true},
	{"", "v1", "Secret", "secrets", true},
	{"", "v1", "Service", "services", true},
	{"", "v1", "ServiceAccount", "serviceaccounts", true},
	{"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations", false},
	{"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations", false},
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy", "validatingadmissionpolicies", false},
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding", "validatingadmissionpolicybindings", false},
	{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicy", "mutatingadmissionpolicies", false},
	{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicyBinding", "mutatingadmissionpolicybindings", false},
	{"apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions", false},
	{"apps", "v1", "ControllerRevision", "controllerrevisions", true},
	{"apps", "v1", "DaemonSet", "daemonsets", true},
	{"apps", "v1", "Deployment", "deployments", true},
	{"apps", "v1", "ReplicaSet", "replicasets", true},
	{"apps", "v1", "StatefulSet", "statefulsets", true},
	{"autoscaling", "v1,v2", "HorizontalPodAutoscaler", "horizontalpodautoscalers", true},
	{"batch", "v1", "CronJob", "cronjobs", true},
	{"batch", "v1", "Job", "jobs", true},
	{"certificates.k8s.io", "v1", "CertificateSigningRequest", "certificatesigningrequests", false},
	{"coordination.k8s.io", "v1", "Lease", "leases", true},
	{"discovery.k8s.io", "v1", "EndpointSlice", "endpointslices", true},
	{"events.k8s.io", "v1", "Event", "events", true},
	{"flowcontrol.apiserver.k8s.io", "v1", "FlowSchema", "flowschemas", false},
	{"flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration", "prioritylevelconfigurations", false},
	{"networking.k8s.io", "v1", "Ingress", "ingresses", true},
	{"networking.k8s.io", "v1", "IngressClass", "ingressclasses", false},
	{"networking.k8s.io", "v1", "IPAddress", "ipaddresses", false},
	{"networking.k8s.io", "v1", "NetworkPolicy", "networkpolicies", true},
	{"networking.k8s.io", "v1", "ServiceCIDR", "servicecidrs", false},
	{"node.k8s.io", "v1", "RuntimeClass", "runtimeclasses", false},
	{"policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", true},
	{"rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", false},
	{"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", "clusterrolebindings", false},
	{"rbac.authorization.k8s.io", "v1", "Role", "roles", true},
	{"rbac.authorization.k8s.io", "v1", "RoleBinding", "rolebindings", true},
	{"resource.k8s.io", "v1", "DeviceClass", "deviceclasses", false},
	{"resource.k8s.io", "v1", "ResourceClaim", "resourceclaims", true},
	{"resource.k8s.io", "v1", "ResourceClaimTemplate", "resourceclaimtemplates", true},
	{"resource.k8s.io", "v1", "ResourceSlice", "resourceslices", false},
	{"scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses", false},
	{"storage.k8s.io", "v1", "CSIDriver", "csidrivers", false},
	{"storage.k8s.io", "v1", "CSINode", "csinodes", false},
	{"storage.k8s.io", "v1", "CSIStorageCapacity", "csistoragecapacities", true},
	{"storage.k8s.io", "v1", "StorageClass", "storageclasses", false},
	{"storage.k8s.io", "v1", "VolumeAttachment", "volumeattachments", false},
	{"storage.k8s.io", "v1", "VolumeAttributesClass", "volumeattributesclasses", false},
}

func newResourceMap() *resourceMap {
	m := &resourceMap{byKind: map[schema.GroupVersionKind]resourceInfo{}, builtin: map[schema.GroupVersionKind]bool{}}
	for _, b := range builtin {
		for _, v := range strings.Split(b.versions, ",") {
			gvk := schema.GroupVersionKind{Group: b.group, Version: v, Kind: b.kind}
			m.add(gvk, b.plural, b.namespaced)
			m.builtin[gvk] = true
		}
	}
	return m
}

func (m *resourceMap) add(gvk schema.GroupVersionKind, plural string, namespaced bool) {
	m.byKind[gvk] = resourceInfo{resource: gvk.GroupVersion().WithResource(plural), namespaced: namespaced}
}

// lookup returns the resource and scope of a kind; ok is false for a kind
// the cluster does not serve.
func (m *resourceMap) lookup(gvk schema.GroupVersionKind) (resourceInfo, bool) {
	r, ok := m.byKind[gvk]
	return r, ok
}
