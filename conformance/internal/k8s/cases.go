package k8s

import (
	"fmt"
	"strings"
)

// The Kubernetes cases: expressions and inputs only. Whether a case
// compiles, its value, cost estimate and actual cost are computed by the
// reference (reference.go), never written here.

// Var declares a variable by celwasm type name.
type Var struct{ Name, Type string }

// Case is one Kubernetes case.
type Case struct {
	Lib       string
	Name      string // default: the expression, plus the variant
	Expr      string
	Vars      []Var
	Act       string // plain JSON activation; object keys in sorted order
	Typed     string // typed activation (canonical typed JSON)
	Version   string // compatibility version; default the newest
	Stored    bool   // StoredExpressions instead of NewExpressions
	Exts      []string
	CostLimit uint64
}

// Newest is the default compatibility version.
const Newest = "1.37"

func (c Case) version() string {
	if c.Version == "" {
		return Newest
	}
	return c.Version
}

func (c Case) envType() string {
	if c.Stored {
		return "StoredExpressions"
	}
	return "NewExpressions"
}

// ID is "k8s/<library>/<name>".
func (c Case) ID() string {
	name := c.Name
	if name == "" {
		name = c.Expr
		if c.Act != "" && len(c.Act) <= 80 {
			name += " over " + strings.ReplaceAll(c.Act, `"`, "")
		}
		if c.Version != "" {
			name += " @" + c.Version
		}
		if c.Stored {
			name += " stored"
		}
	}
	var sb strings.Builder
	for _, r := range name {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			fmt.Fprintf(&sb, "<U+%04X>", r)
			continue
		}
		sb.WriteRune(r)
	}
	return "k8s/" + c.Lib + "/" + sb.String()
}

type opt func(*Case)

func vars(kv ...string) opt {
	return func(c *Case) {
		for i := 0; i+1 < len(kv); i += 2 {
			c.Vars = append(c.Vars, Var{kv[i], kv[i+1]})
		}
	}
}
func act(j string) opt       { return func(c *Case) { c.Act = j } }
func typedAct(j string) opt  { return func(c *Case) { c.Typed = j } }
func at(v string) opt        { return func(c *Case) { c.Version = v } }
func stored() opt            { return func(c *Case) { c.Stored = true } }
func exts(x ...string) opt   { return func(c *Case) { c.Exts = x } }
func limit(n uint64) opt     { return func(c *Case) { c.CostLimit = n } }
func named(n string) opt     { return func(c *Case) { c.Name = n } }
func with(opts ...opt) []opt { return opts }

type builder struct {
	current string
	cases   []Case
}

func (b *builder) lib(name string) { b.current = name }

// add adds one case per expression, all with the same options.
func (b *builder) add(opts []opt, exprs ...string) {
	for _, e := range exprs {
		c := Case{Lib: b.current, Expr: e}
		for _, o := range opts {
			o(&c)
		}
		b.cases = append(b.cases, c)
	}
}

// plain adds cases without options.
func (b *builder) plain(exprs ...string) { b.add(nil, exprs...) }

// The authorizer every authz case uses.
const authorizerTable = `{"authorizer":{"object":{"type":"kubernetes.authorization.Authorizer","value":{` +
	`"user":{"name":"alice","groups":["dev","system:authenticated"]},` +
	`"rules":[` +
	`{"path":"/healthz","verb":"get","reason":"health checks are public"},` +
	`{"path":"/metrics","verb":"get","decision":"deny","reason":"metrics are private"},` +
	`{"user":"system:serviceaccount:shop:builder","resource":"pods","namespace":"shop","verb":"*","reason":"builder manages pods"},` +
	`{"apiGroup":"apps","resource":"deployments","namespace":"shop","verb":"delete","decision":"deny","reason":"no deletes in shop"},` +
	`{"apiGroup":"apps","resource":"deployments","subresource":"scale","verb":"update","reason":"autoscaler"},` +
	`{"apiGroup":"apps","resource":"deployments","namespace":"shop","verb":"*","reason":"shop developers"},` +
	`{"resource":"secrets","decision":"noOpinion","error":"webhook authorizer timed out"},` +
	`{"resource":"pods","fieldSelector":"spec.nodeName=node-1","verb":"list","reason":"pods on node-1"},` +
	`{"resource":"pods","labelSelector":"app=web","verb":"list","reason":"web pods"},` +
	`{"apiGroup":"","resource":"configmaps","name":"settings","verb":"get","reason":"one configmap"}` +
	`]}}}}`

const requestResource = `{"rr":{"object":{"type":"kubernetes.authorization.ResourceCheck","value":{` +
	`"user":{"name":"alice"},` +
	`"rules":[{"user":"alice","apiGroup":"apps","resource":"deployments","namespace":"shop","name":"web","verb":"update","reason":"owner"}],` +
	`"requestResource":{"group":"apps","version":"v1","resource":"deployments","namespace":"shop","name":"web"}}}}}`

const libObjects = `{"addr":{"object":{"type":"net.IP","value":"fd00::1"}},` +
	`"net":{"object":{"type":"net.CIDR","value":"fd00::/64"}},` +
	`"q":{"object":{"type":"kubernetes.Quantity","value":"1536Mi"}},` +
	`"u":{"object":{"type":"kubernetes.URL","value":"https://example.com:8443/api/v1?watch=true"}},` +
	`"v":{"object":{"type":"kubernetes.Semver","value":"1.27.3"}}}`

// Cases returns every Kubernetes case; object is the JSON of a Deployment.
func Cases(object string) []Case {
	b := &builder{}
	objectVar := with(vars("object", "dyn"), act(`{"object":`+object+`}`))

	b.lib("lists")
	b.plain(
		`[1, 2, 3].isSorted()`, `[3, 2, 1].isSorted()`, `[1, 1, 2].isSorted()`,
		`[1u, 3u, 2u].isSorted()`, `[1.5, 2.5, 2.5].isSorted()`, `[false, true].isSorted()`, `[true, false].isSorted()`,
		`['a', 'b', 'b'].isSorted()`, `['b', 'a'].isSorted()`, `[b'a', b'b'].isSorted()`, `[b'b', b'a'].isSorted()`,
		`[duration('1s'), duration('1m')].isSorted()`, `[duration('1h'), duration('1m')].isSorted()`,
		`[timestamp('2024-01-02T00:00:00Z'), timestamp('2024-01-01T00:00:00Z')].isSorted()`,
		`[timestamp('2024-01-01T00:00:00Z'), timestamp('2024-01-02T00:00:00Z')].isSorted()`,
		`[].isSorted()`, `[[1], [2]].isSorted()`,
		`[1, 2, 3].sum()`, `[1u, 2u].sum()`, `[1.5, 2.25].sum()`, `[duration('1s'), duration('500ms')].sum()`,
		`[].sum()`, `[9223372036854775807, 1].sum()`, `['a', 'b'].sum()`,
		`[3, 1, 2].min()`, `[3, 1, 2].max()`, `[3u, 1u].min()`, `[3u, 1u].max()`, `[2.5, -1.5].min()`, `[2.5, -1.5].max()`,
		`[true, false].min()`, `[true, false].max()`, `['b', 'a', 'c'].min()`, `['b', 'a', 'c'].max()`,
		`[b'b', b'a'].min()`, `[b'b', b'a'].max()`, `[duration('2s'), duration('1s')].min()`, `[duration('2s'), duration('1s')].max()`,
		`[timestamp('2024-01-02T00:00:00Z'), timestamp('2024-01-01T00:00:00Z')].min()`,
		`[timestamp('2024-01-02T00:00:00Z'), timestamp('2024-01-01T00:00:00Z')].max()`,
		`[].min()`, `[].max()`, `[7].min() == [7].max()`,
		`[1, 2, 3, 2].indexOf(2)`, `[1, 2, 3, 2].lastIndexOf(2)`, `['a', 'b'].indexOf('c')`, `['a', 'b'].lastIndexOf('c')`,
		`[1.0, 2.0].indexOf(2.0)`, `[[1], [2]].indexOf([2])`, `[].indexOf(1)`, `[1, 2].indexOf('a')`,
		`[1, 2, 3].includes(2)`, `['a'].includes('b')`, `[[1, 2]].includes([1, 2])`, `[].includes(1)`,
	)
	b.add(with(at("1.36")), `[1, 2, 3].includes(2)`)
	b.add(with(at("1.36"), stored()), `[1, 2, 3].includes(2)`)
	listInt := with(vars("l", "list(int)"), act(`{"l":[5,3,9,1]}`))
	b.add(listInt, `l.sum()`, `l.min()`, `l.max()`, `l.isSorted()`, `l.indexOf(9)`, `l.lastIndexOf(4)`, `l.includes(3)`,
		`l.sum() <= 100 && l.min() >= 0`, `l.map(x, x * 2).sum()`)
	b.add(with(vars("l", "list(int)"), act(`{"l":[]}`), named("l.min() of []")), `l.min()`)
	b.add(with(vars("l", "list(int)"), act(`{"l":[]}`), named("l.max() of []")), `l.max()`)
	b.add(with(vars("l", "list(int)"), act(`{"l":[9223372036854775807,1]}`), named("l.sum() overflows")), `l.sum()`)
	b.add(with(vars("l", "list(string)"), act(`{"l":["a","c","b"]}`)), `l.isSorted()`, `l.min()`, `l.max()`, `l.indexOf('b')`)
	b.add(with(vars("l", "list(double)"), act(`{"l":[0.5,2.5,1]}`)), `l.sum()`, `l.max()`, `l.isSorted()`)

	b.lib("ext-lists")
	b.plain(
		`[[1], [2, 3]].flatten()`, `[[[1]], [[2]]].flatten()`, `[[[1]], [[2]]].flatten(2)`, `[[1], [2]].flatten(0)`,
		`[[1], [2]].flatten(-1)`, `[].flatten()`,
		`[1, 2, 2, 3, 1].distinct()`, `['b', 'a', 'b'].distinct()`, `[[1], [1]].distinct()`,
		`[1, 2].first()`, `[].first()`, `[1, 2].last()`, `[].last()`, `[1, 2].first().value() + [1, 2].last().value()`,
		`lists.range(4)`, `lists.range(0)`, `lists.range(-1)`,
		`[1, 2, 3].reverse()`, `[].reverse()`,
		`[1, 2, 3, 4].slice(1, 3)`, `[1, 2].slice(0, 0)`, `[1, 2].slice(2, 1)`, `[1, 2].slice(0, 5)`, `[1, 2].slice(-1, 1)`,
		`[3, 1, 2].sort()`, `[3u, 1u].sort()`, `[2.5, -1.5].sort()`, `[true, false].sort()`, `['b', 'a'].sort()`,
		`[b'b', b'a'].sort()`, `[duration('2s'), duration('1s')].sort()`,
		`[timestamp('2024-01-02T00:00:00Z'), timestamp('2024-01-01T00:00:00Z')].sort()`, `[[2], [1]].sort()`,
		`[3, 1, 2].sortBy(x, -x)`, `['bb', 'a', 'ccc'].sortBy(s, s.size())`, `[3, 1, 2].sortBy(x, uint(x))`,
		`[3, 1, 2].sortBy(x, double(x) / 2.0)`, `[3, 1, 2].sortBy(x, x > 1)`, `['b', 'a'].sortBy(s, bytes(s))`,
		`[3, 1, 2].sortBy(x, duration(string(x) + 's'))`, `[3, 1, 2].sortBy(x, timestamp(x))`, `['b', 'c', 'a'].sortBy(s, s)`,
		`['a', 'b'].join()`, `['a', 'b'].join('-')`, `[].join(',')`,
	)
	b.add(with(vars("l", "list(int)"), act(`{"l":[3,1,2,3]}`)), `l.sort()`, `l.distinct().size()`, `l.reverse()[0]`, `l.slice(1, l.size())`)
	b.add(with(at("1.33")), `[3, 1, 2].sort()`, `lists.range(3)`)
	b.add(with(at("1.33"), stored()), `[3, 1, 2].sort()`, `lists.range(3)`)
	b.add(with(at("1.34")), `[3, 1, 2].sort()`)

	b.lib("regex")
	b.plain(
		`'abc123'.find('[0-9]+')`, `'abc'.find('[0-9]+')`, `'abc'.find('')`,
		`'a1b22c333'.findAll('[0-9]+')`, `'a1b22c333'.findAll('[0-9]+', 2)`, `'a1b22c333'.findAll('[0-9]+', 0)`,
		`'a1b22c333'.findAll('[0-9]+', -1)`, `'abc'.findAll('x')`, `'ab'.findAll('')`,
		`'abc'.find('[')`, `'abc'.findAll('(')`, `'abc'.findAll('(', 1)`,
		`'héllo wörld'.findAll('[^ ]+')`, `'key=value'.find('=.*').substring(1)`,
	)
	b.add(with(vars("s", "string", "p", "string"), act(`{"p":"[a-z]+","s":"abc-123"}`)), `s.find(p)`, `s.findAll(p)`, `s.findAll(p, 1)`, `s.matches(p)`)
	b.add(with(vars("s", "string", "p", "string"), act(`{"p":"[","s":"abc"}`), named("s.find(p) with a bad pattern")), `s.find(p)`)
	b.add(with(vars("s", "string", "p", "string"), act(`{"p":"(","s":"abc"}`), named("s.findAll(p) with a bad pattern")), `s.findAll(p)`)
	b.add(with(vars("s", "string", "p", "string"), act(`{"p":"(","s":"abc"}`), named("s.findAll(p, 2) with a bad pattern")), `s.findAll(p, 2)`)

	b.lib("urls")
	const full = `'https://user:pw@example.com:8443/a%20b/c?x=1&x=2&y=#frag'`
	b.plain(
		`url(`+full+`)`, `url(`+full+`).getScheme()`, `url(`+full+`).getHost()`, `url(`+full+`).getHostname()`,
		`url(`+full+`).getPort()`, `url(`+full+`).getEscapedPath()`, `url(`+full+`).getQuery()`,
		`url('https://[::1]:80/').getHost()`, `url('https://[::1]:80/').getHostname()`, `url('https://[::1]/').getPort()`,
		`url('http://example.com').getEscapedPath()`, `url('http://example.com').getQuery()`,
		`url('/absolute/path?q=1').getScheme()`, `url('/absolute/path?q=1').getQuery()`,
		`url('https://example.com/caf%C3%A9').getEscapedPath()`,
		`isURL('https://example.com')`, `isURL('/relative/ok')`, `isURL('not a url')`, `isURL('example.com')`, `isURL('')`,
		`url('example.com')`, `url('not a url')`,
		`url('https://example.com') == url('https://example.com')`,
		`url('https://example.com/?a=1&b=2&a=3').getQuery()['a']`,
	)
	b.add(with(vars("s", "string"), act(`{"s":"%zz"}`), named("url(s) with a bad url")), `url(s)`)
	b.add(with(vars("s", "string"), act(`{"s":"https://kube.example:6443/healthz"}`)), `url(s).getPort()`, `url(s).getHostname() + url(s).getEscapedPath()`, `isURL(s)`)
	b.add(with(vars("u", "kubernetes.URL"), typedAct(libObjects)), `u`, `u.getPort()`, `u.getQuery()`)

	b.lib("authz")
	authz := with(vars("authorizer", "kubernetes.authorization.Authorizer"), typedAct(authorizerTable))
	b.add(authz,
		`authorizer.path('/healthz').check('get').allowed()`,
		`authorizer.path('/healthz').check('get').reason()`,
		`authorizer.path('/healthz').check('post').allowed()`,
		`authorizer.path('/metrics').check('get').allowed()`,
		`authorizer.path('/metrics').check('get').reason()`,
		`authorizer.path('/healthz').check('get').errored()`,
		`authorizer.path('/healthz').check('get').error()`,
		`authorizer.path('/unknown').check('get').reason()`,
		`authorizer.group('apps').resource('deployments').namespace('shop').name('web').check('update').allowed()`,
		`authorizer.group('apps').resource('deployments').namespace('shop').name('web').check('update').reason()`,
		`authorizer.group('apps').resource('deployments').namespace('shop').check('delete').allowed()`,
		`authorizer.group('apps').resource('deployments').namespace('shop').check('delete').reason()`,
		`authorizer.group('apps').resource('deployments').namespace('dev').check('get').allowed()`,
		`authorizer.group('apps').resource('deployments').subresource('scale').namespace('dev').check('update').reason()`,
		`authorizer.group('apps').resource('deployments').subresource('scale').check('patch').allowed()`,
		`authorizer.group('').resource('secrets').check('get').allowed()`,
		`authorizer.group('').resource('secrets').check('get').errored()`,
		`authorizer.group('').resource('secrets').check('get').error()`,
		`authorizer.group('').resource('configmaps').name('settings').check('get').allowed()`,
		`authorizer.group('').resource('configmaps').name('other').check('get').allowed()`,
		`authorizer.group('').resource('pods').namespace('shop').check('create').allowed()`,
		`authorizer.serviceAccount('shop', 'builder').group('').resource('pods').namespace('shop').check('create').allowed()`,
		`authorizer.serviceAccount('shop', 'builder').group('').resource('pods').namespace('shop').check('delete').reason()`,
		`authorizer.serviceAccount('other', 'builder').group('').resource('pods').namespace('shop').check('create').allowed()`,
		`authorizer.group('').resource('pods').fieldSelector('spec.nodeName=node-1').check('list').allowed()`,
		`authorizer.group('').resource('pods').fieldSelector('spec.nodeName=node-2').check('list').allowed()`,
		`authorizer.group('').resource('pods').labelSelector('app=web').check('list').reason()`,
		`authorizer.group('').resource('pods').labelSelector('app=db').check('list').allowed()`,
		`authorizer.group('').resource('pods').labelSelector('=bad').check('list').allowed()`,
		`authorizer.group('').resource('pods').fieldSelector('bad').check('list').allowed()`,
		`authorizer.path('/healthz')`, `authorizer.group('apps')`, `authorizer.group('apps').resource('deployments')`,
		`authorizer.path('/healthz').check('get')`, `authorizer.serviceAccount('ns', 'sa')`,
		`authorizer.path('/healthz').check('get').allowed() && authorizer.path('/metrics').check('get').allowed()`,
		`authorizer.path(1)`, `authorizer.check('get')`,
	)
	b.add(with(vars("authorizer", "kubernetes.authorization.Authorizer"), typedAct(authorizerTable), at("1.30")),
		`authorizer.group('').resource('pods').fieldSelector('spec.nodeName=node-1').check('list').allowed()`,
		`authorizer.group('').resource('pods').labelSelector('app=web').check('list').allowed()`,
		`authorizer.path('/healthz').check('get').allowed()`)
	b.add(with(vars("authorizer", "kubernetes.authorization.Authorizer"), typedAct(authorizerTable), at("1.30"), stored()),
		`authorizer.group('').resource('pods').fieldSelector('spec.nodeName=node-1').check('list').allowed()`,
		`authorizer.group('').resource('pods').labelSelector('app=web').check('list').allowed()`)
	rr := with(vars("rr", "kubernetes.authorization.ResourceCheck"), typedAct(requestResource))
	b.add(rr, `rr.check('update').allowed()`, `rr.check('update').reason()`, `rr.check('delete').allowed()`, `rr.subresource('status').check('update').allowed()`)

	b.lib("quantity")
	b.plain(
		`quantity('1.5Gi')`, `quantity('100m')`, `quantity('1e3')`, `quantity('0')`, `quantity('-2.5k')`,
		`isQuantity('1Gi')`, `isQuantity('1GG')`, `isQuantity('')`, `isQuantity('0.5')`,
		`quantity('1Gi').isInteger()`, `quantity('1.5').isInteger()`, `quantity('500m').isInteger()`,
		`quantity('1Gi').asInteger()`, `quantity('1.5').asInteger()`, `quantity('10Ei').asInteger()`, `quantity('-3k').asInteger()`,
		`quantity('500m').asApproximateFloat()`, `quantity('1Ki').asApproximateFloat()`, `quantity('1e100').asApproximateFloat()`,
		`quantity('1Gi').add(quantity('512Mi'))`, `quantity('1Gi').add(5)`, `quantity('1').add(-3)`,
		`quantity('1Gi').sub(quantity('1Mi'))`, `quantity('10').sub(3)`, `quantity('1').sub(quantity('2'))`,
		`quantity('1Gi').isGreaterThan(quantity('1G'))`, `quantity('1G').isGreaterThan(quantity('1Gi'))`,
		`quantity('1Gi').isLessThan(quantity('1G'))`, `quantity('100m').isLessThan(quantity('0.1'))`,
		`quantity('1Gi').compareTo(quantity('1024Mi'))`, `quantity('1').compareTo(quantity('2'))`, `quantity('2').compareTo(quantity('1'))`,
		`sign(quantity('-1'))`, `sign(quantity('0'))`, `sign(quantity('5m'))`,
		`quantity('1Gi') == quantity('1024Mi')`, `quantity('1Gi') == quantity('1G')`,
		`quantity('bad')`, `quantity('1Gi').add('1')`, `quantity('1Gi').sign()`,
		`quantity('1Gi').isInteger() && quantity('1Gi').asInteger() == 1073741824`,
		`quantity('9223372036854775807').add(1).isInteger()`,
	)
	b.add(with(vars("s", "string"), act(`{"s":"1.5"}`), named("quantity(s).asInteger() of 1.5")), `quantity(s).asInteger()`)
	b.add(with(vars("s", "string"), act(`{"s":"2Gi?"}`), named("quantity(s) of 2Gi?")), `quantity(s)`)
	b.add(with(vars("s", "string"), act(`{"s":"250m"}`)), `quantity(s).asApproximateFloat()`, `quantity(s).add(quantity(s))`, `isQuantity(s)`)
	b.add(with(vars("q", "kubernetes.Quantity"), typedAct(libObjects)), `q`, `q.isInteger()`, `q.asInteger()`, `q.add(q)`, `q.isGreaterThan(quantity('1Gi'))`)

	b.lib("ip")
	b.plain(
		`ip('192.168.0.1')`, `ip('::1')`, `ip('2001:db8::68')`, `ip('2001:DB8::68')`,
		`isIP('1.2.3.4')`, `isIP('1.2.3')`, `isIP('::ffff:1.2.3.4')`, `isIP('fe80::1%eth0')`, `isIP('')`,
		`ip.isCanonical('2001:db8::1')`, `ip.isCanonical('2001:DB8::1')`, `ip.isCanonical('2001:db8:0:0:0:0:0:1')`,
		`ip.isCanonical('127.0.0.1')`, `ip.isCanonical('bad')`,
		`ip('10.0.0.1').family()`, `ip('::1').family()`,
		`ip('0.0.0.0').isUnspecified()`, `ip('::').isUnspecified()`, `ip('1.2.3.4').isUnspecified()`,
		`ip('127.0.0.1').isLoopback()`, `ip('::1').isLoopback()`, `ip('10.0.0.1').isLoopback()`,
		`ip('224.0.0.1').isLinkLocalMulticast()`, `ip('ff02::1').isLinkLocalMulticast()`, `ip('239.0.0.1').isLinkLocalMulticast()`,
		`ip('169.254.1.1').isLinkLocalUnicast()`, `ip('fe80::1').isLinkLocalUnicast()`, `ip('10.0.0.1').isLinkLocalUnicast()`,
		`ip('8.8.8.8').isGlobalUnicast()`, `ip('10.0.0.1').isGlobalUnicast()`, `ip('255.255.255.255').isGlobalUnicast()`, `ip('2001:db8::1').isGlobalUnicast()`,
		`string(ip('::1'))`, `string(ip('2001:DB8::1'))`, `string(ip('10.0.0.1'))`,
		`ip('1.2.3.4') == ip('1.2.3.4')`, `ip('1.2.3.4') == ip('::ffff:1.2.3.4')`,
		`ip('1.2.3')`, `ip('fe80::1%eth0')`, `ip('::ffff:1.2.3.4')`, `ip(1)`,
	)
	b.add(with(vars("s", "string"), act(`{"s":"300.1.2.3"}`), named("ip(s) of 300.1.2.3")), `ip(s)`)
	b.add(with(vars("s", "string"), act(`{"s":"10.1.2.3"}`)), `ip(s).family()`, `isIP(s)`, `ip.isCanonical(s)`, `cidr('10.0.0.0/8').containsIP(s)`)
	b.add(with(vars("addr", "net.IP"), typedAct(libObjects)), `addr`, `addr.family()`, `addr.isGlobalUnicast()`, `string(addr)`)

	b.lib("cidr")
	b.plain(
		`cidr('10.0.0.0/8')`, `cidr('2001:db8::/32')`, `cidr('192.168.1.5/24')`,
		`isCIDR('10.0.0.0/8')`, `isCIDR('10.0.0.1/8')`, `isCIDR('10.0.0.0/33')`, `isCIDR('10.0.0.0')`, `isCIDR('::/0')`,
		`cidr('10.0.0.0/8').containsIP('10.1.2.3')`, `cidr('10.0.0.0/8').containsIP('11.1.2.3')`,
		`cidr('10.0.0.0/8').containsIP(ip('10.255.255.255'))`, `cidr('10.0.0.0/8').containsIP(ip('::1'))`,
		`cidr('10.0.0.0/8').containsIP('bad')`,
		`cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')`, `cidr('10.0.0.0/8').containsCIDR('0.0.0.0/0')`,
		`cidr('10.0.0.0/8').containsCIDR(cidr('10.0.0.0/8'))`, `cidr('10.0.0.0/16').containsCIDR(cidr('10.0.0.0/8'))`,
		`cidr('10.0.0.0/8').containsCIDR('bad')`,
		`cidr('192.168.1.5/24').ip()`, `cidr('2001:db8::1/64').ip()`, `cidr('192.168.1.5/24').prefixLength()`, `cidr('::/0').prefixLength()`,
		`cidr('192.168.1.5/24').masked()`, `cidr('2001:db8::1/32').masked()`, `cidr('10.0.0.0/8').masked() == cidr('10.0.0.0/8')`,
		`string(cidr('::1/128'))`, `string(cidr('192.168.1.5/24'))`, `string(cidr('192.168.1.5/24').masked())`,
		`cidr('10.0.0.0/8') == cidr('10.0.0.0/8')`, `cidr('10.0.0.0/8') == cidr('10.0.0.1/8')`,
		`cidr('10.0.0.0')`, `cidr('10.0.0.0/33')`, `cidr('::ffff:1.2.3.4/120')`,
		`cidr('192.168.1.5/24').ip().family()`,
	)
	b.add(with(vars("s", "string"), act(`{"s":"10.0.0.0/40"}`), named("cidr(s) of 10.0.0.0/40")), `cidr(s)`)
	b.add(with(vars("s", "string"), act(`{"s":"10.20.0.0/16"}`)), `cidr(s).containsCIDR('10.20.30.0/24')`, `cidr(s).prefixLength()`, `isCIDR(s)`)
	b.add(with(vars("net", "net.CIDR", "addr", "net.IP"), typedAct(libObjects)), `net`, `net.containsIP(addr)`, `net.masked()`, `net.ip()`)

	b.lib("format")
	for _, f := range []struct{ name, good, bad string }{
		{"dns1123Label", "my-name", "My_Name"},
		{"dns1123Subdomain", "a.b-c.example", "-bad-.example"},
		{"dns1035Label", "abc-1", "1abc"},
		{"qualifiedName", "example.com/my-name", "example.com/"},
		{"dns1123LabelPrefix", "my-name-", "-x"},
		{"dns1123SubdomainPrefix", "a.b-", "A.b"},
		{"dns1035LabelPrefix", "abc-", "9abc"},
		{"labelValue", "v1.2_3", "-v1"},
		{"uri", "https://example.com/x", "::not a uri"},
		{"uuid", "123e4567-e89b-12d3-a456-426614174000", "123e4567"},
		{"byte", "aGVsbG8=", "not base64!"},
		{"date", "2024-02-29", "2023-02-29"},
		{"datetime", "2024-02-29T12:00:00Z", "2024-02-29 12:00"},
	} {
		b.plain(
			`format.`+f.name+`().validate('`+f.good+`')`,
			`format.`+f.name+`().validate('`+f.bad+`')`,
			`format.named('`+f.name+`').value().validate('`+f.bad+`').hasValue()`,
		)
	}
	b.plain(
		`format.named('dns1123Label')`, `format.named('nope')`, `format.named('nope').hasValue()`,
		`format.named('nope').value()`, `format.dns1123Label()`, `format.dns1123Label() == format.named('dns1123Label').value()`,
		`format.labelValue().validate('`+longLabel+`')`,
		`format.dns1123Label().validate(1)`, `format.unknown()`,
	)
	b.add(with(vars("names", "list(string)"), act(`{"names":["web","Web","web-1","-web"]}`)),
		`names.filter(n, !format.dns1123Label().validate(n).hasValue())`,
		`names.map(n, format.dns1123Label().validate(n).orValue([]).size())`)
	b.add(with(at("1.30")), `format.dns1123Label().validate('my-name').hasValue()`)
	b.add(with(at("1.30"), stored()), `format.dns1123Label().validate('my-name').hasValue()`)
	b.add(with(at("1.31")), `format.dns1123Label().validate('my-name').hasValue()`)

	b.lib("semver")
	b.plain(
		`semver('1.2.3')`, `semver('1.2.3-rc.1+build.5')`, `semver('v1.2', true)`, `semver('1.2.3', false)`, `semver('01.2.3', true)`,
		`isSemver('1.2.3')`, `isSemver('v1.2.3')`, `isSemver('1.2')`, `isSemver('v1.2', true)`, `isSemver('1.2.x', true)`, `isSemver('', false)`,
		`semver('1.2.3').major()`, `semver('1.2.3').minor()`, `semver('1.2.3').patch()`, `semver('v2', true).major()`,
		`semver('1.2.3').isGreaterThan(semver('1.2.0'))`, `semver('1.2.3').isGreaterThan(semver('1.10.0'))`,
		`semver('1.0.0-alpha').isLessThan(semver('1.0.0'))`, `semver('1.0.0').isLessThan(semver('1.0.0'))`,
		`semver('1.2.3').compareTo(semver('1.2.3'))`, `semver('1.2.3').compareTo(semver('2.0.0'))`, `semver('2.0.0').compareTo(semver('1.9.9'))`,
		`semver('1.2.3+a') == semver('1.2.3+b')`, `semver('1.2.3') == semver('1.2.3')`,
		`semver('1.2')`, `semver('v1.2.3')`, `semver('1.2.3', 'yes')`,
	)
	b.add(with(vars("s", "string"), act(`{"s":"1.2"}`), named("semver(s) of 1.2")), `semver(s)`)
	b.add(with(vars("s", "string"), act(`{"s":"v1.27"}`)), `semver(s, true).minor()`, `isSemver(s)`, `isSemver(s, true)`)
	b.add(with(vars("v", "kubernetes.Semver"), typedAct(libObjects)), `v`, `v.minor()`, `v.isGreaterThan(semver('1.26.0'))`)
	b.add(with(at("1.32")), `semver('1.2.3').major()`, `isSemver('1.2.3')`)
	b.add(with(at("1.32"), stored()), `semver('1.2.3').major()`, `isSemver('1.2.3')`)
	b.add(with(at("1.33")), `semver('v1.2', true).minor()`)

	b.lib("jsonpatch")
	jp := with(exts("jsonpatch"))
	b.add(jp, `jsonpatch.escapeKey('k8s.io/my~label')`, `'/metadata/labels/' + jsonpatch.escapeKey('app.kubernetes.io/name')`,
		`jsonpatch.escapeKey('')`, `jsonpatch.escapeKey('~/~/')`, `jsonpatch.escapeKey(1)`)
	b.add(with(named("jsonpatch.escapeKey without the extension")), `jsonpatch.escapeKey('a/b')`)
	b.add(with(exts("jsonpatch"), vars("object", "dyn"), act(`{"object":`+object+`}`)),
		`object.metadata.labels.map(k, '/metadata/labels/' + jsonpatch.escapeKey(k))`)

	b.lib("strings")
	b.plain(
		`'abc'.charAt(1)`, `'abc'.charAt(3)`, `'abc'.charAt(4)`, `'héllo'.charAt(1)`,
		`'banana'.indexOf('an')`, `'banana'.indexOf('an', 2)`, `'banana'.indexOf('x')`, `'banana'.indexOf('a', 10)`,
		`'banana'.lastIndexOf('an')`, `'banana'.lastIndexOf('an', 2)`, `'banana'.lastIndexOf('')`,
		`'Hello ÀB'.lowerAscii()`, `'Hello àb'.upperAscii()`,
		`'a-b-c'.replace('-', '+')`, `'a-b-c'.replace('-', '+', 1)`, `'aaa'.replace('', '.')`,
		`'a,b,,c'.split(',')`, `'a,b,c'.split(',', 2)`, `'abc'.split('')`, `'a,b'.split(',', 0)`,
		`'hello'.substring(1)`, `'hello'.substring(1, 3)`, `'hello'.substring(3, 1)`, `'hello'.substring(6)`,
		`'  \t spaced \n'.trim()`, `['x', 'y', 'z'].join(', ')`,
		`'%s and %s'.format(['a', 'b'])`, `'%d items'.format([3])`, `'%.2f'.format([1.2345])`, `'%x'.format([255])`,
		`'%o'.format([8])`, `'%b'.format([5])`, `'%e'.format([1234.5])`, `'%s'.format([[1, 2]])`, `'%d'.format(['x'])`,
		`'%s'.format([])`, `strings.quote('say "hi"\n')`, `strings.quote('tab\there')`,
		`'abc'.reverse()`,
	)
	b.add(with(vars("s", "string"), act(`{"s":"Kubernetes"}`)), `s.lowerAscii().substring(0, 4)`, `s.indexOf('e', 4)`, `s.split('e')`)

	b.lib("sets")
	b.plain(
		`sets.contains([1, 2, 3], [2, 3])`, `sets.contains([1, 2], [3])`, `sets.contains([1], [])`, `sets.contains([], [1])`,
		`sets.equivalent([1, 2], [2, 1, 1])`, `sets.equivalent([1], [1, 2])`, `sets.equivalent([], [])`,
		`sets.intersects([1, 2], [2, 3])`, `sets.intersects([1], [2])`, `sets.intersects([], [])`,
		`sets.contains(['a', 'b'], ['b'])`, `sets.contains([[1], [2]], [[2]])`, `sets.contains([1, 2.0], [2])`,
		`sets.equivalent([1u], [1])`, `sets.intersects([1], ['a'])`,
	)
	b.add(with(vars("l", "list(string)"), act(`{"l":["get","list","watch"]}`)), `sets.contains(l, ['get', 'list'])`, `sets.intersects(l, ['delete'])`)

	b.lib("comprehensions")
	b.plain(
		`[10, 20].all(i, v, v > i)`, `[10, 20].all(i, v, i > 0)`, `{'a': 1, 'b': 2}.all(k, v, v > 0)`,
		`[1, 2].exists(i, v, i == 1 && v == 2)`, `{'a': 1}.exists(k, v, k == 'b')`,
		`[1, 1].existsOne(i, v, v == 1)`, `[1, 2].existsOne(i, v, v == 1)`, `{'a': 1, 'b': 1}.existsOne(k, v, v == 1)`,
		`[1, 2, 3].transformList(i, v, v * i)`, `[1, 2, 3].transformList(i, v, i > 0, v)`,
		`{'a': 1, 'b': 2}.transformList(k, v, k + string(v))`,
		`{'a': 1}.transformMap(k, v, v + 1)`, `{'a': 1, 'b': 2}.transformMap(k, v, k == 'a', v * 10)`,
		`[5, 6].transformMap(i, v, v * 2)`,
		`{'a': 1}.transformMapEntry(k, v, {v: k})`, `{'a': 1, 'b': 1}.transformMapEntry(k, v, {v: k})`,
		`[1, 2].transformMapEntry(i, v, v > 1, {string(v): i})`,
		`[0, 1].all(i, v, 1 / v > 0)`, `[1, 0].exists(i, v, 1 / v > 0)`,
	)
	b.add(with(at("1.31")), `[10, 20].all(i, v, v > i)`)
	b.add(with(at("1.31"), stored()), `[10, 20].all(i, v, v > i)`)
	b.add(with(at("1.32")), `[10, 20].all(i, v, v > i)`)

	b.lib("optionals")
	b.plain(
		`optional.of(1)`, `optional.none()`, `optional.of(1).hasValue()`, `optional.none().hasValue()`,
		`optional.ofNonZeroValue(0)`, `optional.ofNonZeroValue('')`, `optional.ofNonZeroValue('x')`, `optional.ofNonZeroValue([])`,
		`optional.of(1).value()`, `optional.none().value()`,
		`optional.none().or(optional.of(2))`, `optional.of(1).or(optional.of(2))`, `optional.none().orValue(3)`,
		`{'a': 1}.?a`, `{'a': 1}.?b`, `{'a': 1}.?b.orValue(0)`, `{'a': {'b': 2}}.?a.?b`,
		`[1, 2][?5]`, `[1, 2][?0]`, `{'a': 1}[?'a']`, `{'a': 1}[?'z']`,
		`optional.of([1, 2])[0]`, `optional.of({'a': 1})['a']`, `optional.none()[0]`,
		`optional.of([1])[?0]`, `optional.of([1])[?3]`, `optional.of({'a': 1})[?'a']`, `optional.of({'a': 1})[?'b']`,
		`[?optional.of(1), ?optional.none(), 3]`, `{?'a': optional.of(1), ?'b': optional.none()}`,
		`optional.of(2).optMap(x, x * 2)`, `optional.none().optMap(x, x * 2)`,
		`optional.of(2).optFlatMap(x, optional.of(x + 1))`, `optional.of(2).optFlatMap(x, optional.none())`,
		`optional.unwrap([optional.of(1), optional.none(), optional.of(3)])`, `[optional.of(1), optional.none()].unwrapOpt()`,
		`optional.of(1) == optional.of(1)`, `optional.of(1) == optional.none()`,
	)
	b.add(objectVar, `object.?spec.?replicas.orValue(1)`, `object.?spec.?paused.orValue(false)`, `object.?status.?readyReplicas`,
		`object.spec.template.spec.containers[?5].hasValue()`)

	b.lib("numeric")
	b.plain(
		`1 < 1.5`, `2u > 1`, `1 <= 1u`, `-1 < 0u`, `3.5 >= 3u`, `1.0 == 1`, `1u == 1`, `[1, 2.0, 3u] == [1u, 2, 3.0]`,
		`9223372036854775807 < 9223372036854775808.0`, `18446744073709551615u > -1`, `0.0 / 0.0 < 1`, `dyn(1) < dyn(2u)`,
	)

	b.lib("kubernetes")
	b.add(objectVar,
		`object.spec.replicas <= 5`,
		`object.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')`,
		`object.spec.template.spec.containers.all(c, c.image.startsWith('registry.k8s.io/'))`,
		`object.spec.template.spec.containers.map(c, c.name)`,
		`quantity(object.spec.template.spec.containers[0].resources.limits.memory).isLessThan(quantity('1Gi'))`,
		`object.spec.template.spec.containers.all(c, has(c.resources.limits) && 'memory' in c.resources.limits)`,
		`object.metadata.labels['app.kubernetes.io/version']`,
		`semver(object.metadata.labels['app.kubernetes.io/version']).isGreaterThan(semver('1.25.0'))`,
		`object.spec.template.spec.containers.filter(c, !has(c.resources.limits)).size()`,
		`object.metadata.labels.all(k, v, !format.labelValue().validate(v).hasValue())`,
		`object.metadata.labels.all(k, v, format.qualifiedName().validate(k).hasValue() == false)`,
		`object.spec.strategy.rollingUpdate.maxSurge`,
		`object.missing`, `object.spec.replicas + 'x'`,
		`object.spec.template.spec.containers.exists(c, c.ports.exists(p, p.containerPort == 8080))`,
		`object.spec.template.spec.containers.map(c, quantity(c.resources.requests.cpu)).sortBy(q, q.asApproximateFloat())`,
		`object.spec.template.spec.containers.map(c, c.resources.requests.cpu).sort()`,
		`object.kind == 'Deployment' && object.apiVersion.startsWith('apps/')`,
		`object.spec.template.spec.containers.all(c, c.securityContext.allowPrivilegeEscalation == false)`,
		`object.metadata.annotations.transformMap(k, v, k.startsWith('deployment.'), int(v))`,
		`object.spec.template.spec.containers.transformList(i, c, c.name + '@' + string(i))`,
		`url('https://' + object.metadata.name + '.' + object.metadata.namespace + '.svc:8080/healthz').getPort()`,
	)
	b.add(with(vars("self", "list(string)"), act(`{"self":["a","bb","ccc"]}`)),
		`self.all(x, x.matches('^[a-z]+$'))`, `self.map(x, x.size()).sum()`, `self.exists_one(x, x == 'bb')`)
	b.add(with(vars("self", "list(int)"), act(`{"self":[1,2,3,4,5,6,7,8,9,10]}`), limit(50)),
		`self.map(x, self.map(y, x + y)).size()`)
	b.add(with(vars("self", "list(int)"), act(`{"self":[1,2,3]}`), limit(50), named("self.map(x, self.map(y, x + y)).size() within 50")),
		`self.map(x, self.map(y, x + y)).size()`)
	b.add(with(limit(1000)), `lists.range(100).map(i, lists.range(100).map(j, i * j)).size()`)
	b.add(with(vars("old", "map(string, int)", "new", "map(string, int)"), act(`{"new":{"a":1,"b":3},"old":{"a":1,"b":2}}`)),
		`new.all(k, !(k in old) || new[k] >= old[k])`, `new.filter(k, k in old && new[k] != old[k])`)

	// Every supported compatibility version, both environment types.
	for _, v := range []string{"1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"} {
		b.add(with(at(v)), `quantity('1Gi').isInteger() && ip('10.0.0.1').family() == 4 && isCIDR('10.0.0.0/8') && [1, 2].isSorted()`)
		b.add(with(at(v), stored()), `[3, 1].sort() == [1, 3] && semver('1.2.3').major() == 1 && format.named('uuid').hasValue() && [1].includes(1)`)
	}
	return b.cases
}

const longLabel = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
