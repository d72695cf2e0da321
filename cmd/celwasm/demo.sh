#!/usr/bin/env bash
# make demo: seed examples (KEP-2876's rule table, the Knative filter
# proposal) evaluated by the celwasm CLI through the WebAssembly module, over
# the real manifests and CloudEvents in conformance/testdata.
set -uo pipefail
CLI=${1:-build/celwasm}
TD=conformance/testdata

quote() {
  local out=() a
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./:=,@+-]+$ ]]; then out+=("$a"); else out+=("'${a//\'/\'\\\'\'}'"); fi
  done
  printf '%s' "${out[*]}"
}

run() {
  printf '\n$ celwasm %s\n' "$(quote "$@")"
  "$CLI" "$@"
  local rc=$?
  [ $rc -ne 0 ] && echo "(exit $rc)"
  return 0
}

"$CLI" version

echo; echo "== CRD validation rules (KEP-2876 rule table) at spec of $TD/k8s/webapp.yaml"
for rule in \
  "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas" \
  "'Available' in self.stateCounts" \
  "(self.list1.size() == 0) != (self.list2.size() == 0)" \
  "!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*\$')" \
  "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*\$'))" \
  "has(self.expired) && timestamp(self.created) + duration(self.ttl) < timestamp(self.expired)" \
  "self.health.startsWith('ok')" \
  "self.widgets.exists(w, w.key == 'x' && w.foo < 10)" \
  "self.set1.all(e, !(e in self.set2))" \
  "self.names.size() == self.details.size() && self.names.all(n, n in self.details)" \
  "quantity(self.memory).isLessThan(quantity('1Gi'))" \
  "self.items.all(i, i.name.matches('^[a-z]+\$'))"
do
  run eval -e "$rule" --at spec -i "$TD/k8s/webapp.yaml"
done

echo; echo "== The KEP table's row as printed (a typo: '=' for '==') is a compile error with a caret"
run eval -e "self.envars.filter(e, e.name = 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*\$')" --at spec -i "$TD/k8s/webapp.yaml"

echo; echo "== Admission-style checks over a Deployment and a Service"
run eval -e "self.spec.template.spec.containers.all(c, quantity(c.resources.limits.memory).isLessThan(quantity('1Gi')))" -i "$TD/k8s/deployment.yaml"
run eval -e "self.spec.template.spec.containers.map(c, c.image.split(':')[1])" -i "$TD/k8s/deployment.yaml" -o text
run eval -e "self.spec.clusterIPs.all(a, cidr('10.96.0.0/12').containsIP(a)) && ip(self.spec.clusterIP).family() == 4" -i "$TD/k8s/service.yaml"
run check -e "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas" --var "self=map(string, int)"

echo; echo "== Knative trigger filters (advanced filtering proposal) over CloudEvents"
run eval --bind ce -e 'ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")' -i "$TD/cloudevents/github-pull-request.json"
run eval --bind ce -e 'ce.source.matches("https://github.com.*")' -i "$TD/cloudevents/github-pull-request.json"
run eval --bind ce -e 'ce.type == "com.github.issue.create" && ce.repository == "proposals"' -i "$TD/cloudevents/github-issue.json"
run eval --bind ce -e 'ce["github.repository"] == "proposals"' -i "$TD/cloudevents/github-issue.json"
run eval --bind ce -e 'ce.github.repository == "eventing"' -i "$TD/cloudevents/github-pull-request.json"
run eval --bind ce -e 'ce.type == "dev.knative.observation" && ce.data.latency > 300.0' -i "$TD/cloudevents/observation.json"
run eval --bind ce -e 'ce.data.pull_request.labels.map(l, l.name)' -i "$TD/cloudevents/github-pull-request.json" -o text

echo; echo "== A Knative Trigger (exact + CESQL) over CloudEvents (structured, binary and batched mode), batch-evaluated"
run filter --explain --filter "$TD/knative/trigger.yaml" -i "$TD/knative/events.ndjson"

echo; echo "== Tekton when expressions (TEP-0145) against a PipelineRun context"
run when --explain --context "$TD/tekton/pipelinerun-context.json" -e '$(tasks.unit-test.results.test-coverage) >= 0.9' -e '"$(params.path)" == "README.md"'

echo; echo "== CRD validation offline: kube-apiserver's validator and cost estimator in the module"
run validate --crd "$TD/crd/kep/crd.yaml" "$TD/crd/kep/valid.yaml"
run validate --crd "$TD/crd/kep/crd.yaml" "$TD/crd/kep/invalid.yaml"
run cost --crd "$TD/crd/expensive/crd.yaml"

echo; echo "== Admission policies offline: kube-apiserver's MutatingAdmissionPolicy and ValidatingAdmissionPolicy plugins"
run admit -f "$TD/admission/demo/policies.yaml" "$TD/admission/demo/deployments.yaml"
