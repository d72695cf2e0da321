// Examples from the project's seeds, over the real documents in conformance/testdata:
// KEP-2876's CRD validation rule table, the Knative advanced-filtering proposal (as CEL over `ce`,
// and as trigger filters the module turns into CEL), and Tekton's TEP-0145 CEL `when` expressions
// (as CEL, and as written with $(…) references), the Kubernetes documentation's admission policies
// (the demo of conformance/testdata/admission) and KEP-2876's WebApp CRD with objects to validate.
// Each example is a complete playground state.
import webapp from '../../../conformance/testdata/k8s/webapp.yaml?raw';
import deployment from '../../../conformance/testdata/k8s/deployment.yaml?raw';
import service from '../../../conformance/testdata/k8s/service.yaml?raw';
import pullRequest from '../../../conformance/testdata/cloudevents/github-pull-request.json?raw';
import issue from '../../../conformance/testdata/cloudevents/github-issue.json?raw';
import observation from '../../../conformance/testdata/cloudevents/observation.json?raw';
import binaryPing from '../../../conformance/testdata/cloudevents/binary-ping.json?raw';
import dialects from '../../../conformance/testdata/filters/20-subscriptions-dialects.yaml?raw';
import knativeTrigger from '../../../conformance/testdata/knative/trigger.yaml?raw';
import knativePR from '../../../conformance/testdata/knative/pull-request.json?raw';
import complex from '../../../conformance/testdata/filters/11-complex-boolean.yaml?raw';
import pipelineRun from '../../../conformance/testdata/tekton/pipelinerun-context.json?raw';
import admissionPolicies from '../../../conformance/testdata/admission/demo/policies.yaml?raw';
import admissionDeployments from '../../../conformance/testdata/admission/demo/deployments.yaml?raw';
import webappCRD from '../../../conformance/testdata/crd/kep/crd.yaml?raw';
import webappValid from '../../../conformance/testdata/crd/kep/valid.yaml?raw';
import webappInvalid from '../../../conformance/testdata/crd/kep/invalid.yaml?raw';
import webappOld from '../../../conformance/testdata/crd/kep/old.yaml?raw';
import webappNewInvalid from '../../../conformance/testdata/crd/kep/new-invalid.yaml?raw';

const crd = (title, expr) => ({ group: 'CRD validation rules (KEP-2876)', title, expr, doc: webapp, bind: 'self', at: 'spec', base: 'kubernetes' });
const knative = (title, expr, doc = pullRequest) => ({ group: 'Knative trigger filters', title, expr, doc, bind: 'ce', at: '', base: 'kubernetes' });

// Trigger filters as written (the module derives the CEL), over one CloudEvent.
const trigger = (title, expr, doc = pullRequest) => ({ group: 'Knative trigger filters', title, expr, doc, bind: '', at: '', base: 'cel', mode: 'filter' });
// Tekton when expressions as written, $(…) references and all, over a PipelineRun's context.
const when = (title, exprs) => ({ group: 'Tekton when expressions (TEP-0145)', title, expr: exprs.join('\n'), doc: pipelineRun, bind: '', at: '', base: 'cel', mode: 'when' });

const tektonDoc = `# What Tekton substitutes into a when expression: $(params.x), $(tasks.t.results.r)
params:
  path: README.md
  branch: release/v0.53
  param1: ""
  param2: "8.5"
tasks:
  unit-test:
    results:
      test-coverage: 0.93
  check-file:
    results:
      exists: "yes"
`;
/** The i-th document (0-based) of a multi-document YAML file, its own comments kept. */
function yamlDocument(text, i) {
  const docs = text.split(/^---[ \t]*$/m).filter((d) => d.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#')));
  return docs[i].replace(/^\n+/, '');
}

// The Kubernetes documentation's ValidatingAdmissionPolicy (replica limit with a ConfigMap param
// and a namespace selector), a Warn+Audit label rule and a defaulting MutatingAdmissionPolicy
// (conformance/testdata/admission/demo), over the demo's Deployments.
const admission = (title, doc, extra = {}) => ({ group: 'Admission policies (Kubernetes documentation)', title, mode: 'admission', expr: admissionPolicies, doc, bind: '', at: '', base: 'kubernetes', ...extra });
const nginx = yamlDocument(admissionDeployments, 1);

// KEP-2876's WebApp CRD (conformance/testdata/crd/kep) with objects of that folder.
const crdMode = (title, doc, old = '') => ({ group: 'CRD validation and cost (KEP-2876)', title, mode: 'crd', expr: webappCRD, doc, old, bind: '', at: '', base: 'kubernetes' });

const tekton = (title, expr) => ({ group: 'Tekton when expressions (TEP-0145)', title, expr, doc: tektonDoc, bind: '', at: '', base: 'cel' });

export const examples = [
  crd('Replicas ordered', 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas'),
  crd("Map has key 'Available'", "'Available' in self.stateCounts"),
  crd('Exactly one list non-empty', '(self.list1.size() == 0) != (self.list2.size() == 0)'),
  crd('Map value for a key matches', "!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')"),
  crd('listMap entry value', "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))"),
  crd('Expiry after created + ttl', 'has(self.expired) && timestamp(self.created) + duration(self.ttl) < timestamp(self.expired)'),
  crd("Prefix 'ok'", "self.health.startsWith('ok')"),
  crd('listMap item property', "self.widgets.exists(w, w.key == 'x' && w.foo < 10)"),
  crd('Disjoint listSets', 'self.set1.all(e, !(e in self.set2))'),
  crd('Map keyed by a listSet', 'self.names.size() == self.details.size() && self.names.all(n, n in self.details)'),
  crd('Quantity below 1Gi', "quantity(self.memory).isLessThan(quantity('1Gi'))"),
  crd('100 item names match', "self.items.all(i, i.name.matches('^[a-z]+$'))"),
  crd("The KEP table's typo (compile error)", "self.envars.filter(e, e.name = 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$')"),
  { group: 'Kubernetes objects', title: 'Container memory limits (Deployment)', expr: "self.spec.template.spec.containers.all(c, quantity(c.resources.limits.memory).isLessThan(quantity('1Gi')))", doc: deployment, bind: 'self', at: '', base: 'kubernetes' },
  { group: 'Kubernetes objects', title: 'Image tags (Deployment)', expr: "self.spec.template.spec.containers.map(c, c.image.split(':')[1])", doc: deployment, bind: 'self', at: '', base: 'kubernetes' },
  { group: 'Kubernetes objects', title: 'Cluster IPs in the service CIDR', expr: "self.spec.clusterIPs.all(a, cidr('10.96.0.0/12').containsIP(a)) && ip(self.spec.clusterIP).family() == 4", doc: service, bind: 'self', at: '', base: 'kubernetes' },
  knative('Type and source prefix', 'ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")'),
  knative('Source regular expression', 'ce.source.matches("https://github.com.*")'),
  knative('Extension attribute', 'ce.type == "com.github.issue.create" && ce.repository == "proposals"', issue),
  knative('Dotted extension name', 'ce["github.repository"] == "proposals"', issue),
  knative('Nested extension', 'ce.github.repository == "eventing"'),
  knative('Data field inequality', 'ce.type == "dev.knative.observation" && ce.data.latency > 300.0', observation),
  knative('Label names of a pull request', 'ce.data.pull_request.labels.map(l, l.name)'),
  trigger('Trigger: Subscriptions API dialects', dialects, knativePR),
  trigger('Trigger: exact and CESQL', knativeTrigger, '{"specversion":"1.0","type":"dev.knative.example","source":"knativesource","id":"1","myextension":"my-extension-value"}'),
  trigger('Trigger: CEL expression filter', complex),
  trigger('Trigger: binary-mode event', 'attributes:\n  type: dev.knative.sources.ping\n  source: /apis/v1/namespaces/shop/pingsources/nightly\n', binaryPing),
  when('When list: file, coverage, task status', ["'$(params.path)' == 'README.md'", '$(tasks.unit-test.results.test-coverage) >= 0.9', "'$(tasks.check-file.status)' == 'Succeeded'"]),
  when('When: an injection attempt stays a string', ["'$(params.injection)' == 'x'"]),
  tekton('File is README.md', "params.path == 'README.md'"),
  tekton('ANY of the params', "params.param1 != '' || params.param2 == '8.5' || params.param2 == '8.6'"),
  tekton('Coverage threshold', "tasks['unit-test'].results['test-coverage'] >= 0.9"),
  tekton('Release branch', "params.branch.matches('release/.*')"),
  tekton('Result of another task', "tasks['check-file'].results.exists in ['yes']"),
  admission('Demo policies: two Deployments', admissionDeployments),
  admission('Replica limit: scaling up (UPDATE)', nginx, { old: nginx.replace('replicas: 5', 'replicas: 2') }),
  admission('Deleting a Deployment (no policy matches DELETE)', nginx, { operation: 'DELETE' }),
  crdMode('WebApp: replicas above maxReplicas', yamlDocument(webappInvalid, 0)),
  crdMode('WebApp: a valid object', yamlDocument(webappValid, 0)),
  crdMode('WebApp: an update that changes an immutable field', yamlDocument(webappNewInvalid, 0), webappOld),
];
