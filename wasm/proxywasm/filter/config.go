// Package filter is the celwasm proxy-wasm filter's logic, independent of
// the ABI glue (so it is tested natively): the plugin configuration, the
// rules compiled with the celwasm engine, Envoy's attributes as lazy CEL
// maps, and the per-request decision.
package filter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/celwasm/celwasm/wire"

	"github.com/celwasm/celwasm/wasm/engine"
)

// Config is the plugin configuration (PLUGIN_CONFIGURATION, JSON). See
// docs/proxy-wasm.md for the schema and examples.
type Config struct {
	// Rules are evaluated in order; the first whose expression is true
	// decides.
	Rules []Rule `json:"rules"`
	// Defaults applies when no rule matches (action, default "allow") and
	// supplies the status and body of deny rules and of onError that leave
	// them out (default 403 and DefaultDenyBody).
	Defaults *Outcome `json:"defaults,omitempty"`
	// OnError applies when a rule fails to evaluate (no such key, no
	// matching overload, cost limit, a non-bool result, ...). Default:
	// deny with 403, the filter fails closed.
	OnError *Outcome `json:"onError,omitempty"`
	// RuleHeader, when set, names a request header that carries the name of
	// the rule that allowed the request upstream (and the rule that denied
	// it on the local response). A client-sent header of that name is
	// always removed.
	RuleHeader string `json:"ruleHeader,omitempty"`
	// CostLimit is the per-request cost limit of each rule's evaluation, in
	// CEL cost units; 0 means 1,000,000 (kube-apiserver's per-call limit).
	CostLimit uint64 `json:"costLimit,omitempty"`
	// Env selects the CEL environment.
	Env *EnvConfig `json:"env,omitempty"`
	// RequestBody bounds what rules of phase request_body see.
	RequestBody *BodyConfig `json:"requestBody,omitempty"`
	// StatPrefix names the filter's metrics: <statPrefix>.requests,
	// .allowed, .denied and <statPrefix>.rule.<rule name>.<counter>
	// (Envoy shows them under "wasmcustom."). Default "celwasm". Plugins
	// sharing a VM and a prefix share counters.
	StatPrefix string `json:"statPrefix,omitempty"`
	// GCPercent is the Go garbage collector's target (GOGC) in the VM:
	// 25-10000, default DefaultGCPercent. Higher trades memory for fewer
	// collections. It applies to the whole VM (the last plugin configured
	// on it wins).
	GCPercent int `json:"gcPercent,omitempty"`
}

// DefaultGCPercent is the VM's default GOGC, Go's own. Measured with the
// benchmark policy, 400 cut the mean request time by about 5% for 12 MiB
// more linear memory per VM: not worth it by default.
const DefaultGCPercent = 100

// Rule is one CEL condition and what to do when it is true.
type Rule struct {
	Name       string `json:"name"`
	Expression string `json:"expression"`
	// Phase is when the rule runs: "request_headers" (default),
	// "request_body" or "response_headers". Rules are listed in phase
	// order.
	Phase  string  `json:"phase,omitempty"`
	Action string  `json:"action"`
	Status int     `json:"status,omitempty"`
	Body   *string `json:"body,omitempty"`
}

// BodyConfig bounds the request body the filter buffers for rules of phase
// request_body.
type BodyConfig struct {
	// MaxBytes is the largest body buffered; a larger one is answered with
	// 413 (before any request_body rule runs). Default DefaultMaxBodyBytes,
	// at most MaxBodyBytes (Envoy's default buffer limit).
	MaxBytes int `json:"maxBytes,omitempty"`
}

// Body limits.
const (
	DefaultMaxBodyBytes = 64 << 10
	MaxBodyBytes        = 1 << 20
)

// Phase is when a rule runs.
type Phase int

const (
	PhaseRequestHeaders Phase = iota
	PhaseRequestBody
	PhaseResponseHeaders
	numPhases
)

// PhaseNames are the phases' configuration names.
var PhaseNames = [numPhases]string{"request_headers", "request_body", "response_headers"}

func (p Phase) String() string { return PhaseNames[p] }

func parsePhase(s string) (Phase, bool) {
	if s == "" {
		return PhaseRequestHeaders, true
	}
	for i, n := range PhaseNames {
		if n == s {
			return Phase(i), true
		}
	}
	return 0, false
}

// Outcome is an action with the local response of a deny.
type Outcome struct {
	Action string  `json:"action"`
	Status int     `json:"status,omitempty"`
	Body   *string `json:"body,omitempty"`
}

// EnvConfig is the part of the engine's environment a plugin may choose; the
// variables are the filter's own.
type EnvConfig struct {
	// Base is "kubernetes" (default: kube-apiserver's libraries, among them
	// ip() and cidr()) or "cel" (cel-go's standard library).
	Base                 string              `json:"base,omitempty"`
	CompatibilityVersion string              `json:"compatibilityVersion,omitempty"`
	Extensions           []wire.ExtensionRef `json:"extensions,omitempty"`
}

// Actions.
const (
	ActionAllow = "allow"
	ActionDeny  = "deny"
	// ActionSkip (onError only) treats a rule that fails to evaluate as not
	// matching and goes on with the next rule.
	ActionSkip = "skip"
)

// DefaultStatPrefix is the default StatPrefix.
const DefaultStatPrefix = "celwasm"

// DefaultDenyBody is the body of a deny without one.
const DefaultDenyBody = "access denied\n"

var (
	ruleNameRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$`)
	headerNameRE = regexp.MustCompile("^[a-z0-9!#$%&'*+.^_`|~-]+$")
	statPrefixRE = regexp.MustCompile(`^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$`)
)

// ParseConfig decodes and validates a plugin configuration. Unknown fields
// are errors, so a misspelt option fails the plugin start instead of being
// ignored.
func ParseConfig(b []byte) (*Config, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("the plugin configuration is empty; it must be a JSON object with \"rules\"")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c Config
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("the plugin configuration is not valid: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("the plugin configuration has data after its JSON object")
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

func (c *Config) validate() error {
	if c.Rules == nil {
		return fmt.Errorf("the plugin configuration has no \"rules\" (an empty list is allowed)")
	}
	if c.Defaults == nil {
		c.Defaults = &Outcome{Action: ActionAllow}
	}
	d := c.Defaults
	if d.Action == "" {
		d.Action = ActionAllow
	}
	if d.Action != ActionAllow && d.Action != ActionDeny {
		return fmt.Errorf("defaults: action must be \"allow\" or \"deny\", got %q", d.Action)
	}
	// The defaults' status and body also serve deny rules that leave them
	// out, so they are allowed with either action.
	if d.Status == 0 {
		d.Status = 403
	}
	if d.Status < 200 || d.Status > 599 {
		return fmt.Errorf("defaults: status %d is not an HTTP status between 200 and 599", d.Status)
	}
	if d.Body == nil {
		b := DefaultDenyBody
		d.Body = &b
	}
	if c.OnError == nil {
		c.OnError = &Outcome{Action: ActionDeny}
	}
	if err := c.OnError.normalize("onError", c.Defaults, true); err != nil {
		return err
	}
	if c.RuleHeader != "" {
		c.RuleHeader = strings.ToLower(c.RuleHeader)
		if !headerNameRE.MatchString(c.RuleHeader) || strings.HasPrefix(c.RuleHeader, ":") {
			return fmt.Errorf("ruleHeader %q is not a valid HTTP header name", c.RuleHeader)
		}
	}
	if c.RequestBody == nil {
		c.RequestBody = &BodyConfig{}
	}
	if c.RequestBody.MaxBytes == 0 {
		c.RequestBody.MaxBytes = DefaultMaxBodyBytes
	}
	if c.RequestBody.MaxBytes < 0 || c.RequestBody.MaxBytes > MaxBodyBytes {
		return fmt.Errorf("requestBody.maxBytes %d is outside 1-%d", c.RequestBody.MaxBytes, MaxBodyBytes)
	}
	seen := map[string]bool{}
	last := PhaseRequestHeaders
	for i := range c.Rules {
		r := &c.Rules[i]
		where := fmt.Sprintf("rule %d", i+1)
		if r.Name != "" {
			where = fmt.Sprintf("rule %q", r.Name)
		}
		if !ruleNameRE.MatchString(r.Name) {
			return fmt.Errorf("%s: name must be 1-128 characters of letters, digits and ._:/- (starting with a letter or digit)", where)
		}
		if seen[r.Name] {
			return fmt.Errorf("%s: the name is used by another rule", where)
		}
		seen[r.Name] = true
		if strings.TrimSpace(r.Expression) == "" {
			return fmt.Errorf("%s: expression is empty", where)
		}
		ph, ok := parsePhase(r.Phase)
		if !ok {
			return fmt.Errorf("%s: phase must be \"request_headers\", \"request_body\" or \"response_headers\", got %q", where, r.Phase)
		}
		if ph < last {
			return fmt.Errorf("%s: phase %s after a rule of phase %s; list the rules in phase order (request_headers, request_body, response_headers)", where, ph, last)
		}
		last = ph
		r.Phase = ph.String()
		o := Outcome{Action: r.Action, Status: r.Status, Body: r.Body}
		if err := o.normalize(where, c.Defaults, false); err != nil {
			return err
		}
		r.Status, r.Body = o.Status, o.Body
	}
	if c.StatPrefix == "" {
		c.StatPrefix = DefaultStatPrefix
	}
	if len(c.StatPrefix) > 128 || !statPrefixRE.MatchString(c.StatPrefix) {
		return fmt.Errorf("statPrefix %q: want dot-separated words of letters, digits and _", c.StatPrefix)
	}
	if c.GCPercent == 0 {
		c.GCPercent = DefaultGCPercent
	}
	if c.GCPercent < 25 || c.GCPercent > 10000 {
		return fmt.Errorf("gcPercent %d is outside 25-10000", c.GCPercent)
	}
	if c.Env == nil {
		c.Env = &EnvConfig{}
	}
	if c.Env.Base == "" {
		c.Env.Base = engine.BaseKubernetes
	}
	return nil
}

// normalize checks an outcome and fills a deny's status and body from
// defaults (or 403 and DefaultDenyBody).
func (o *Outcome) normalize(where string, defaults *Outcome, skipAllowed bool) error {
	switch o.Action {
	case ActionAllow:
		if o.Status != 0 || o.Body != nil {
			return fmt.Errorf("%s: status and body apply to action \"deny\" only", where)
		}
		return nil
	case ActionDeny:
	case ActionSkip:
		if skipAllowed {
			if o.Status != 0 || o.Body != nil {
				return fmt.Errorf("%s: status and body apply to action \"deny\" only", where)
			}
			return nil
		}
		fallthrough
	default:
		allowed := `"allow" or "deny"`
		if skipAllowed {
			allowed = `"allow", "deny" or "skip"`
		}
		return fmt.Errorf("%s: action must be %s, got %q", where, allowed, o.Action)
	}
	if o.Status == 0 && defaults != nil {
		o.Status = defaults.Status
	}
	if o.Status == 0 {
		o.Status = 403
	}
	if o.Status < 200 || o.Status > 599 {
		return fmt.Errorf("%s: status %d is not an HTTP status between 200 and 599", where, o.Status)
	}
	if o.Body == nil && defaults != nil {
		o.Body = defaults.Body
	}
	if o.Body == nil {
		b := DefaultDenyBody
		o.Body = &b
	}
	return nil
}
