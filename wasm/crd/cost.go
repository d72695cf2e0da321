package crd

// Where a rule's estimated cost comes from, and which schema bounds would bring
// it under the limit. Everything here is computed by re-running cel-go's cost
// estimator (with kube-apiserver's cost estimator and size estimator) on the
// rule's checked expression:
//
//   - sizes: the schema nodes whose sizes the estimator asked for, with the
//     bound it used and where the bound comes from (maxItems, maxLength,
//     maxProperties, an enum, or only the 3 MiB request size);
//   - calls: each function call and macro of the rule with its share of the
//     estimate, found by replacing that subexpression with a variable of the
//     same type and size and estimating again;
//   - fixes: for a rule over the limit, the largest maxItems / maxLength /
//     maxProperties on one schema node (a node the rule reads, or a list or
//     map above the rule's node, which multiplies how often it runs) that
//     brings the estimate under the limit, found by binary search over trial
//     bounds; when no single bound does, one bound for all of them.
//
// The trial bounds go through kube-apiserver's schema → CEL type mapping
// (model.SchemaDeclType), so a maxLength of n is the 4·n bytes kube assumes.

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/celwasm/celwasm/wire"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/parser"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
)

// ancestorBound is a list or map above a rule's node.
type ancestorBound struct {
	path   string
	schema *apiextensions.JSONSchemaProps
}

// ablatedIdent names the variable a call is replaced with when its share is
// measured; it is not a valid CEL identifier, so it cannot clash.
const ablatedIdent = "@celwasm_ablated"

// Explain fills every rule's Explanation. Fixes are computed for rules over
// the limit and, when a schema's total is over its limit, for the rules that
// push it over.
func (chk *CRDCheck) Explain() {
	envs := map[envKey]*celgo.Env{}
	for _, sc := range chk.Schemas {
		excess := uint64(0)
		if sc.TotalCost > sc.TotalLimit {
			excess = sc.TotalCost - sc.TotalLimit
		}
		for _, rc := range sc.Rules {
			if rc.Explanation != nil || rc.Error != "" || rc.declType == nil {
				continue
			}
			target := uint64(0)
			switch {
			case rc.Exceeds:
				target = rc.Limit
			case excess > 0 && rc.Cost >= StaticEstimatedCRDCostLimit/100:
				if rc.Cost > excess {
					target = rc.Cost - excess
				}
			}
			rc.Explanation = explainRule(rc, target, excess > 0 && !rc.Exceeds, envs)
		}
	}
}

// ruleEnv is the environment cel.Compile gives a rule at a node
// (prepareEnvSet in schema/cel/compilation.go): self, and oldSelf (optional
// with optionalOldSelf), typed by the node.
func ruleEnv(declType *apiservercel.DeclType, optional bool) (*celgo.Env, error) {
	scopedType := declType.MaybeAssignTypeName("selfType")
	oldSelfType := scopedType.CelType()
	if optional {
		oldSelfType = types.NewOptionalType(oldSelfType)
	}
	set, err := celEnvSet().Extend(
		environment.VersionedOptions{
			IntroducedVersion: version.MajorMinor(1, 0),
			EnvOptions:        []celgo.EnvOption{celgo.Variable("self", scopedType.CelType())},
			DeclTypes:         []*apiservercel.DeclType{scopedType},
		},
		environment.VersionedOptions{
			IntroducedVersion: version.MajorMinor(1, 24),
			EnvOptions:        []celgo.EnvOption{celgo.Variable("oldSelf", oldSelfType)},
		},
	)
	if err != nil {
		return nil, err
	}
	// Macro call tracking keeps all(), exists(), ... in the source info, so
	// that macros are reported as written; it changes neither the checked
	// expression nor its cost.
	return set.NewExpressionsEnv().Extend(celgo.EnableMacroCallTracking())
}

// sizeProbe is schema/cel's sizeEstimator (a size for every path that walks
// the node's type) with trial MaxElements overrides, recording what it was
// asked for.
type sizeProbe struct {
	root      *apiservercel.DeclType
	schema    *structuralschema.Structural
	node      string
	overrides map[*apiservercel.DeclType]int64
	seen      map[*apiservercel.DeclType]*probeNode
	order     []*apiservercel.DeclType
	ablated   *checker.SizeEstimate
	record    bool
}

type probeNode struct {
	path   string
	decl   *apiservercel.DeclType
	schema *structuralschema.Structural // nil for implicit fields (metadata, keys)
	keys   bool
}

func (p *sizeProbe) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	path := element.Path()
	if len(path) == 0 {
		return nil
	}
	if path[0] == ablatedIdent {
		return p.ablated
	}
	currentNode := p.root
	s := p.schema
	crPath := p.node
	keys := false
	for _, name := range path[1:] {
		switch name {
		case "@items", "@values":
			if currentNode.ElemType == nil {
				return nil
			}
			currentNode = currentNode.ElemType
			crPath += "[*]"
			if s != nil {
				if name == "@items" {
					s = s.Items
				} else if s.AdditionalProperties != nil {
					s = s.AdditionalProperties.Structural
				} else {
					s = nil
				}
			}
		case "@keys":
			if currentNode.KeyType == nil {
				return nil
			}
			currentNode = currentNode.KeyType
			crPath += ".@keys"
			s, keys = nil, true
		default:
			field, ok := currentNode.Fields[name]
			if !ok || field.Type == nil {
				return nil
			}
			currentNode = field.Type
			prop, ps := unescapeProperty(s, name)
			crPath = joinField(crPath, prop)
			s = ps
		}
	}
	max := currentNode.MaxElements
	if o, ok := p.overrides[currentNode]; ok {
		max = o
	}
	if p.record {
		if _, ok := p.seen[currentNode]; !ok {
			p.seen[currentNode] = &probeNode{path: crPath, decl: currentNode, schema: s, keys: keys}
			p.order = append(p.order, currentNode)
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(max)}
}

func (p *sizeProbe) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

// unescapeProperty finds the property of s whose CEL-escaped name is name.
func unescapeProperty(s *structuralschema.Structural, name string) (string, *structuralschema.Structural) {
	if s != nil {
		if p, ok := s.Properties[name]; ok {
			if esc, _ := apiservercel.Escape(name); esc == name {
				return name, &p
			}
		}
		for k, p := range s.Properties {
			if esc, ok := apiservercel.Escape(k); ok && esc == name {
				p := p
				return k, &p
			}
		}
	}
	return name, nil
}

// sizeRecorder wraps kube-apiserver's cost estimator and records the sizes
// of call arguments, so that a call replaced by a variable keeps its size.
type sizeRecorder struct {
	*library.CostEstimator
	probe *sizeProbe
	sizes map[int64]*checker.SizeEstimate
	// unknown are strings, bytes, lists and maps passed to a function whose
	// size nothing bounds: no schema path (an element of a computed list) or
	// the result of a call cel-go cannot size (string(int), ...).
	unknown     []unknownSize
	unknownSeen map[int64]bool
}

type unknownSize struct {
	expr     ast.Expr
	function string
}

func (r *sizeRecorder) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if r.sizes != nil {
		note := func(n checker.AstNode) {
			sz := n.ComputedSize()
			if sz != nil {
				r.sizes[n.Expr().ID()] = sz
			}
			if sz == nil && sizedKind(n.Type()) && !r.unknownSeen[n.Expr().ID()] {
				if r.probe.EstimateSize(n) == nil {
					r.unknownSeen[n.Expr().ID()] = true
					r.unknown = append(r.unknown, unknownSize{expr: n.Expr(), function: function})
				}
			}
		}
		if target != nil {
			note(*target)
		}
		for _, a := range args {
			note(a)
		}
	}
	return r.CostEstimator.EstimateCallCost(function, overloadID, target, args)
}

// explainer holds one rule's compiled expression and estimator.
type explainer struct {
	rc    *RuleCost
	env   *celgo.Env
	ast   *celgo.Ast
	probe *sizeProbe
	est   *sizeRecorder
	// ancestor overrides (by schema) for the cardinality
	ancOverrides map[*apiextensions.JSONSchemaProps]int64
	fallbackCard uint64
}

// envKey identifies a rule environment: the node's type and whether oldSelf
// is optional. Rules of one node share it.
type envKey struct {
	decl     *apiservercel.DeclType
	optional bool
}

func explainRule(rc *RuleCost, target uint64, forTotal bool, envs map[envKey]*celgo.Env) *wire.CostExplanation {
	exp := &wire.CostExplanation{}
	key := envKey{rc.declType, rc.optional}
	env, ok := envs[key]
	if !ok {
		var err error
		if env, err = ruleEnv(rc.declType, rc.optional); err != nil {
			exp.Summary = "cannot explain: " + err.Error()
			return exp
		}
		envs[key] = env
	}
	parsed, iss := env.Compile(rc.rule)
	if iss.Err() != nil {
		exp.Summary = "cannot explain: " + iss.Err().Error()
		return exp
	}
	x := &explainer{
		rc:  rc,
		env: env,
		ast: parsed,
		probe: &sizeProbe{root: rc.declType, schema: rc.node, node: rc.Node,
			overrides: map[*apiservercel.DeclType]int64{}, seen: map[*apiservercel.DeclType]*probeNode{}},
		ancOverrides: map[*apiextensions.JSONSchemaProps]int64{},
		fallbackCard: uint64(celconfig.MaxRequestSizeBytes / (rc.declType.MinSerializedSize + 1)),
	}
	x.est = &sizeRecorder{CostEstimator: &library.CostEstimator{SizeEstimator: x.probe}, probe: x.probe,
		sizes: map[int64]*checker.SizeEstimate{}, unknownSeen: map[int64]bool{}}
	x.probe.record = true
	base, err := env.EstimateCost(parsed, x.est)
	x.probe.record = false
	sizes := x.est.sizes
	x.est.sizes = nil
	if err != nil {
		exp.Summary = "cannot explain: " + err.Error()
		return exp
	}
	perCall := base.Max
	if perCall != rc.PerCall {
		// Cannot happen unless this file drifts from schema/cel; say so
		// rather than explain another number.
		exp.Summary = fmt.Sprintf("cannot explain: re-estimated %d, kube-apiserver estimated %d", perCall, rc.PerCall)
		return exp
	}
	// Runs.
	if rc.Kind == "rule" {
		for _, a := range rc.bounds {
			bn := wire.BoundNode{Path: a.path, Kind: "list"}
			if a.schema.Type == "object" {
				bn.Kind, bn.BoundName = "map", "maxProperties"
				bn.Bound = a.schema.MaxProperties
			} else {
				bn.BoundName = "maxItems"
				bn.Bound = a.schema.MaxItems
			}
			if m := extractMaxElements(a.schema); m != nil {
				bn.MaxSize = *m
			} else {
				exp.RunsFromRequestSize = true
				bn.FromRequestSize = true
			}
			exp.Runs = append(exp.Runs, bn)
		}
		if exp.RunsFromRequestSize {
			for i := range exp.Runs {
				if exp.Runs[i].FromRequestSize {
					exp.Runs[i].MaxSize = rc.Cardinality
				}
			}
		}
	}
	// Sizes.
	for _, d := range x.probe.order {
		switch bn := describeSize(x.probe.seen[d]); bn.Kind {
		case "list", "map", "string", "bytes", "map keys":
			exp.Sizes = append(exp.Sizes, bn)
		}
	}
	// Sizes nothing bounds.
	for _, u := range x.est.unknown {
		text, err := parser.Unparse(u.expr, parsed.NativeRep().SourceInfo())
		if err != nil {
			continue
		}
		us := wire.UnknownSize{Expression: text, Function: displayFunction(u.function)}
		if r, ok := parsed.NativeRep().SourceInfo().GetOffsetRange(u.expr.ID()); ok {
			loc := parsed.NativeRep().SourceInfo().GetLocationByOffset(r.Start)
			us.Line, us.Column = loc.Line(), loc.Column()+1
		}
		exp.UnknownSizes = append(exp.UnknownSizes, us)
	}
	// Calls.
	exp.Calls = x.calls(perCall, sizes)
	exp.Summary = x.summary(exp)
	// Fixes.
	if target > 0 || rc.Exceeds {
		exp.Target = target
		x.fixes(exp, target, forTotal)
	}
	return exp
}

func describeSize(n *probeNode) wire.BoundNode {
	bn := wire.BoundNode{Path: n.path, MaxSize: uint64(n.decl.MaxElements)}
	s := n.schema
	switch {
	case n.keys:
		// kube-apiserver's estimator sizes map keys by the key type alone
		bn.Kind = "map keys"
		return bn
	case s == nil:
		bn.Kind = strings.TrimSuffix(typeKind(n.decl), "s")
		return bn
	}
	vv := s.ValueValidation
	switch s.Type {
	case "array":
		bn.Kind, bn.BoundName = "list", "maxItems"
		if vv != nil {
			bn.Bound = vv.MaxItems
		}
	case "object":
		bn.Kind, bn.BoundName = "map", "maxProperties"
		if s.AdditionalProperties == nil {
			bn.Kind, bn.BoundName = "object", ""
		} else if vv != nil {
			bn.Bound = vv.MaxProperties
		}
	case "string":
		bn.Kind, bn.BoundName = "string", "maxLength"
		if vv != nil {
			switch vv.Format {
			case "byte":
				bn.Kind = "bytes"
			case "duration":
				bn.Kind, bn.BoundName = "duration", ""
			case "date", "date-time":
				bn.Kind, bn.BoundName = "timestamp", ""
			}
			if bn.BoundName != "" {
				bn.Bound = vv.MaxLength
				if bn.Bound == nil && len(vv.Enum) > 0 && bn.Kind == "string" {
					bn.BoundName = "enum"
				}
			}
		}
	default:
		bn.Kind = s.Type
		if s.XIntOrString {
			bn.Kind = "int-or-string"
		}
	}
	bn.FromRequestSize = bn.Bound == nil && bn.BoundName != "enum"
	return bn
}

func typeKind(d *apiservercel.DeclType) string {
	switch {
	case d.IsList():
		return "lists"
	case d.IsMap():
		return "maps"
	case d.IsObject():
		return "objects"
	}
	return d.CelType().String()
}

// estimate is the rule's cost for the explainer's current overrides:
// the per-run estimate times the cardinality.
func (x *explainer) estimate() uint64 {
	est, err := x.env.EstimateCost(x.ast, x.est)
	if err != nil {
		return math.MaxUint64
	}
	return multiplyWithOverflowGuard(est.Max, x.cardinality())
}

func (x *explainer) cardinality() uint64 {
	if x.rc.Kind != "rule" {
		return 1
	}
	card := uint64(1)
	for _, a := range x.rc.bounds {
		if b, ok := x.ancOverrides[a.schema]; ok {
			card = multiplyWithOverflowGuard2(card, uint64(b))
			continue
		}
		m := extractMaxElements(a.schema)
		if m == nil {
			return x.fallbackCard
		}
		card = multiplyWithOverflowGuard2(card, *m)
	}
	return card
}

// multiplyWithOverflowGuard2 is multiplyWithOverflowGuard for cardinalities
// (0 × n = 0 too).
func multiplyWithOverflowGuard2(a, b uint64) uint64 {
	if a == 0 || b == 0 {
		return 0
	}
	return multiplyWithOverflowGuard(a, b)
}

// calls measures each call's and macro's share of the per-run estimate.
func (x *explainer) calls(perCall uint64, sizes map[int64]*checker.SizeEstimate) []wire.CallCost {
	native := x.ast.NativeRep()
	sites := userSites(native)
	info := native.SourceInfo()
	var out []wire.CallCost
	for _, site := range sites {
		if site.iterRange || site.expr.ID() == native.Expr().ID() {
			continue // an iteration range's size feeds a loop count a variable cannot reproduce; the root is 100%
		}
		switch site.name {
		case "_&&_", "_||_", "!_", "_?_:_", "@not_strictly_false":
			continue // they only add up their operands
		}
		e := site.expr
		saved := ast.NewExprFactory().CopyExpr(e)
		x.probe.ablated = sizes[e.ID()]
		e.SetKindCase(ast.NewExprFactory().NewIdent(e.ID(), ablatedIdent))
		est, err := x.env.EstimateCost(x.ast, x.est)
		e.SetKindCase(saved)
		x.probe.ablated = nil
		if err != nil || est.Max >= perCall {
			continue
		}
		// The variable itself costs 1.
		share := perCall - est.Max + 1
		if share > perCall {
			share = perCall
		}
		pct := math.Round(1000*float64(share)/float64(perCall)) / 10
		if pct < 1 {
			continue
		}
		out = append(out, site.describe(info, share, pct))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Cost > out[j].Cost })
	return out
}

// site is a call or macro the user wrote.
type site struct {
	expr      ast.Expr
	name      string
	iterRange bool
	ids       []int64 // user-visible ids in its subtree, for its source span
}

// describe gives the site's source (cel-go's unparser, macros as written)
// and where it starts (its leftmost token).
func (s *site) describe(info *ast.SourceInfo, cost uint64, pct float64) wire.CallCost {
	text, err := parser.Unparse(s.expr, info)
	if err != nil {
		text = s.name + "(...)"
	}
	start := int32(-1)
	for _, id := range s.ids {
		if r, ok := info.GetOffsetRange(id); ok && (start < 0 || r.Start < start) {
			start = r.Start
		}
	}
	cc := wire.CallCost{Function: displayFunction(s.name), Expression: text, Cost: cost, Percent: pct}
	if start >= 0 {
		loc := info.GetLocationByOffset(start)
		cc.Line, cc.Column = loc.Line(), loc.Column()+1
	}
	return cc
}

// userSites lists the calls and macros written in the source (not those the
// macro expansions generate), outermost first.
func userSites(a *ast.AST) []*site {
	index := map[int64]ast.Expr{}
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		if e == nil {
			return
		}
		index[e.ID()] = e
		for _, c := range children(e) {
			walk(c)
		}
	}
	walk(a.Expr())
	macros := a.SourceInfo().MacroCalls()
	iterRanges := map[int64]bool{}
	for _, e := range index {
		if e.Kind() == ast.ComprehensionKind {
			iterRanges[e.AsComprehension().IterRange().ID()] = true
		}
	}
	var sites []*site
	// visit returns the user-visible ids under id.
	var visit func(id int64, open []*site) []int64
	visit = func(id int64, open []*site) []int64 {
		e, ok := index[id]
		if !ok {
			return nil
		}
		ids := []int64{id}
		var s *site
		var kids []int64
		switch e.Kind() {
		case ast.ComprehensionKind:
			if m, ok := macros[id]; ok && m.Kind() == ast.CallKind {
				s = &site{expr: e, name: m.AsCall().FunctionName()}
				if m.AsCall().IsMemberFunction() {
					kids = append(kids, m.AsCall().Target().ID())
				}
				for _, arg := range m.AsCall().Args() {
					kids = append(kids, arg.ID())
				}
			} else {
				for _, c := range children(e) {
					kids = append(kids, c.ID())
				}
			}
		case ast.CallKind:
			s = &site{expr: e, name: e.AsCall().FunctionName()}
			for _, c := range children(e) {
				kids = append(kids, c.ID())
			}
		default:
			for _, c := range children(e) {
				kids = append(kids, c.ID())
			}
		}
		if s != nil {
			s.iterRange = iterRanges[id]
			sites = append(sites, s)
		}
		for _, k := range kids {
			ids = append(ids, visit(k, open)...)
		}
		if s != nil {
			s.ids = ids
		}
		return ids
	}
	visit(a.Expr().ID(), nil)
	return sites
}

func children(e ast.Expr) []ast.Expr {
	var out []ast.Expr
	switch e.Kind() {
	case ast.CallKind:
		c := e.AsCall()
		if c.IsMemberFunction() {
			out = append(out, c.Target())
		}
		out = append(out, c.Args()...)
	case ast.SelectKind:
		out = append(out, e.AsSelect().Operand())
	case ast.ListKind:
		out = append(out, e.AsList().Elements()...)
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			m := en.AsMapEntry()
			out = append(out, m.Key(), m.Value())
		}
	case ast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			out = append(out, f.AsStructField().Value())
		}
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		out = append(out, c.IterRange(), c.AccuInit(), c.LoopCondition(), c.LoopStep(), c.Result())
	}
	return out
}

func (x *explainer) summary(exp *wire.CostExplanation) string {
	rc := x.rc
	var b strings.Builder
	fmt.Fprintf(&b, "estimated cost %s", wire.FormatCost(rc.Cost))
	if rc.Kind == "rule" {
		fmt.Fprintf(&b, " = %s per run × %s runs", wire.FormatCost(rc.PerCall), wire.GroupDigits(rc.Cardinality))
		var unbounded []string
		for _, r := range exp.Runs {
			if r.FromRequestSize {
				unbounded = append(unbounded, r.Path)
			}
		}
		if len(unbounded) > 0 {
			fmt.Fprintf(&b, " (no %s on %s: runs bounded only by the 3 MiB request size)", boundWord(exp.Runs), strings.Join(unbounded, ", "))
		}
	}
	if rc.Exceeds {
		fmt.Fprintf(&b, "; over the limit of %s", wire.GroupDigits(rc.Limit))
	} else {
		fmt.Fprintf(&b, "; limit %s", wire.GroupDigits(rc.Limit))
	}
	return b.String()
}

func boundWord(nodes []wire.BoundNode) string {
	words := map[string]bool{}
	for _, n := range nodes {
		if n.FromRequestSize && n.BoundName != "" {
			words[n.BoundName] = true
		}
	}
	return strings.Join(sortedKeys(words), "/")
}

// fixes searches for bounds that bring the cost to target.
func (x *explainer) fixes(exp *wire.CostExplanation, target uint64, forTotal bool) {
	type candidate struct {
		path    string
		set     string
		current *int64
		apply   func(b int64) // sets the trial bound
		reset   func()
	}
	var cands []candidate
	// Lists and maps above the node (cardinality).
	if x.rc.Kind == "rule" {
		for _, a := range x.rc.bounds {
			a := a
			c := candidate{path: a.path, set: "maxItems", current: a.schema.MaxItems}
			if a.schema.Type == "object" {
				c.set, c.current = "maxProperties", a.schema.MaxProperties
			}
			c.apply = func(b int64) { x.ancOverrides[a.schema] = b }
			c.reset = func() { delete(x.ancOverrides, a.schema) }
			cands = append(cands, c)
		}
	}
	// Nodes the rule reads.
	for _, d := range x.probe.order {
		n := x.probe.seen[d]
		if n.schema == nil {
			continue
		}
		set, current := boundFor(n.schema)
		if set == "" {
			continue
		}
		trial := func(b int64) (int64, bool) {
			cp := *n.schema
			vv := structuralschema.ValueValidation{}
			if cp.ValueValidation != nil {
				vv = *cp.ValueValidation
			}
			bb := b
			switch set {
			case "maxItems":
				vv.MaxItems = &bb
			case "maxProperties":
				vv.MaxProperties = &bb
			case "maxLength":
				vv.MaxLength = &bb
			}
			cp.ValueValidation = &vv
			dt := model.SchemaDeclType(&cp, false)
			if dt == nil {
				return 0, false
			}
			return dt.MaxElements, true
		}
		// A bound that does not change the size the estimator uses is no fix.
		if m, ok := trial(0); !ok || m == d.MaxElements {
			if m2, ok2 := trial(1 << 20); !ok2 || m2 == d.MaxElements && m == m2 {
				continue
			}
		}
		d := d
		cands = append(cands, candidate{path: n.path, set: set, current: current,
			apply: func(b int64) {
				if m, ok := trial(b); ok {
					x.probe.overrides[d] = m
				}
			},
			reset: func() { delete(x.probe.overrides, d) },
		})
	}
	if len(cands) == 0 {
		exp.NoFix = "the rule reads no list, map or string whose bound would change the estimate; simplify the rule"
		if len(exp.UnknownSizes) > 0 {
			exp.NoFix = "no schema bound helps: the estimator cannot bound the size of " + exp.UnknownSizes[0].Expression + "; rewrite the rule"
		}
		return
	}
	const hiBound = int64(1) << 31
	// A bound of 0 (an always-empty list or string) is no fix.
	search := func(apply func(int64), hi int64) (int64, uint64, bool) {
		apply(1)
		if c := x.estimate(); c > target || hi < 1 {
			return 0, c, false
		}
		lo := int64(1)
		for lo < hi {
			mid := lo + (hi-lo+1)/2
			apply(mid)
			if x.estimate() <= target {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		apply(lo)
		return lo, x.estimate(), true
	}
	for _, c := range cands {
		hi := hiBound
		if c.current != nil && *c.current < hi {
			hi = *c.current
		}
		v, cost, ok := search(c.apply, hi)
		c.reset()
		if ok && (c.current == nil || v < *c.current) {
			exp.Fixes = append(exp.Fixes, wire.BoundFix{Path: c.path, Set: c.set, Value: v, Current: c.current, Cost: cost})
		}
	}
	sort.SliceStable(exp.Fixes, func(i, j int) bool { return exp.Fixes[i].Value > exp.Fixes[j].Value })
	// One bound on all unbounded candidates at once (or, when no single
	// bound suffices, on all candidates): a balanced alternative to
	// single bounds that are often impractically small.
	joint := cands
	if len(exp.Fixes) > 0 {
		joint = nil
		for _, c := range cands {
			if c.current == nil {
				joint = append(joint, c)
			}
		}
		if len(joint) < 2 {
			return
		}
	}
	all := func(b int64) {
		for _, c := range joint {
			if c.current == nil || b < *c.current {
				c.apply(b)
			}
		}
	}
	v, _, ok := search(all, hiBound)
	if ok {
		all(v)
		cost := x.estimate()
		for _, c := range joint {
			if c.current == nil || v < *c.current {
				exp.CombinedFix = append(exp.CombinedFix, wire.BoundFix{Path: c.path, Set: c.set, Value: v, Current: c.current, Cost: cost})
			}
		}
	} else if len(exp.Fixes) > 0 {
		// single fixes exist; nothing to add
	} else if len(exp.UnknownSizes) > 0 {
		var names []string
		for _, u := range exp.UnknownSizes {
			names = append(names, u.Expression)
		}
		exp.NoFix = "no schema bound helps: the estimator cannot bound the size of " + strings.Join(names, ", ") + " (an element of a list built by filter or map, or a value computed by a function), so the function it is passed to is estimated as unbounded; rewrite the rule to apply the function to fields of self (for example with all or exists over the schema's list)"
	} else {
		exp.NoFix = "even with every list, map and string bound at 1 the estimate stays over the target; simplify the rule"
	}
	for _, c := range cands {
		c.reset()
	}
}

// boundFor is the bound that limits a node's size and its current value.
func boundFor(s *structuralschema.Structural) (string, *int64) {
	var vv structuralschema.ValueValidation
	if s.ValueValidation != nil {
		vv = *s.ValueValidation
	}
	switch s.Type {
	case "array":
		return "maxItems", vv.MaxItems
	case "object":
		if s.AdditionalProperties != nil {
			return "maxProperties", vv.MaxProperties
		}
	case "string":
		switch vv.Format {
		case "duration", "date", "date-time":
			return "", nil
		}
		return "maxLength", vv.MaxLength
	}
	return "", nil
}

// sizedKind reports whether values of t have a size the estimator tracks.
func sizedKind(t *types.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case types.StringKind, types.BytesKind, types.ListKind, types.MapKind:
		return true
	}
	return false
}

// displayFunction shows an operator's overload name as the operator.
func displayFunction(name string) string {
	switch name {
	case "_[_]":
		return "[]"
	case "_?_:_":
		return "?:"
	case "@in":
		return "in"
	case "@not_strictly_false":
		return "not_strictly_false"
	}
	if strings.HasPrefix(name, "_") && strings.HasSuffix(name, "_") && len(name) > 2 {
		return strings.Trim(name, "_")
	}
	if strings.HasSuffix(name, "_") && len(name) > 1 {
		return strings.TrimSuffix(name, "_")
	}
	return name
}
