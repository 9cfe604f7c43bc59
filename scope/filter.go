package scope

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Errors of the rule API, for errors.Is.
var (
	// ErrRule is wrapped by the error for a rule that does not parse: a
	// regular expression that does not compile, a bad SURT prefix, a bad
	// seed or an unknown scope kind. The error names the rule.
	ErrRule = errors.New("scope: bad rule")
	// ErrNoRule is returned when a rule to remove is not there.
	ErrNoRule = errors.New("scope: no such rule")
	// ErrNoFilter is returned by Decider.AddExclude and
	// Decider.RemoveExclude when the Decider has no Filter.
	ErrNoFilter = errors.New("scope: decider has no filter")
)

// SURTRule starts a rule that is a SURT prefix rather than a regular
// expression: "surt:http://(th,co,". See SURTPrefix for the forms accepted.
const SURTRule = "surt:"

// Kind is the scope type of a seed.
type Kind string

// The seed scope kinds. The scheme never counts, and a leading "www." on
// the host is ignored, so http://example.com/ and https://www.example.com/
// are the same host.
const (
	// Host is the seed's host (with its port, when not the default).
	Host Kind = "host"
	// Domain is the seed's registered domain and every host under it, the
	// site tree of Nakahira et al. (2008): what every seed gets by default.
	Domain Kind = "domain"
	// Prefix is the seed's host and directory: its URL up to the last '/'
	// of its path (http://example.com/th/news.html -> example.com/th/).
	Prefix Kind = "prefix"
)

// ParseKind reads a scope kind: host, domain or prefix. The error wraps
// ErrRule.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(strings.ToLower(strings.TrimSpace(s))); k {
	case Host, Domain, Prefix:
		return k, nil
	}
	return "", fmt.Errorf("%w: scope type %q: want host, domain or prefix", ErrRule, s)
}

// SeedScope is the scope a seed was given.
type SeedScope struct {
	// Seed is the canonical seed URL.
	Seed string
	Kind Kind
	// Depth is the depth limit inside this scope; 0 means the Decider's
	// MaxDepth, negative no limit.
	Depth int
}

// Filter holds a crawl's include and exclude rules and its per-seed
// scopes (see the package documentation, "Rules"). The zero Filter has no
// rules and lets every URL through; a nil *Filter does the same.
//
// Filter is safe for concurrent use: rules may be added and removed while
// a crawl decides links. A change applies to every decision that starts
// after the call returns; decisions read a snapshot and take no lock.
// A Filter must not be copied after first use.
type Filter struct {
	mu  sync.Mutex // serialises writers
	cur atomic.Pointer[ruleSet]
}

// ruleSet is one immutable snapshot of a Filter's rules.
type ruleSet struct {
	include, exclude []rule
	// seeds are the per-seed scopes by RegisteredDomain of the seed.
	seeds map[string][]seedScope
}

// rule is one include or exclude rule.
type rule struct {
	text string         // as given: a regular expression, or SURTRule + prefix
	re   *regexp.Regexp // nil for a SURT rule
	surt string         // the SURT prefix without its scheme
	// unicode: the expression holds non-ASCII text, a Thai host name or
	// path, which the canonical URL carries in punycode and
	// percent-escapes; it is matched against the URL as read too
	// (target.readable).
	unicode bool
}

type seedScope struct {
	SeedScope
	key string // what a URL's scope key must start with (see seedKey)
}

// parseRule reads a rule: SURTRule followed by a SURT prefix, or an RE2
// regular expression.
func parseRule(text string) (rule, error) {
	if p, ok := strings.CutPrefix(text, SURTRule); ok {
		s, err := SURTPrefix(p)
		if err != nil {
			return rule{}, err
		}
		return rule{text: SURTRule + s, surt: s}, nil
	}
	if text == "" {
		return rule{}, fmt.Errorf("%w: empty regular expression", ErrRule)
	}
	re, err := regexp.Compile(text)
	if err != nil {
		return rule{}, fmt.Errorf("%w: regular expression %q: %v", ErrRule, text, err)
	}
	return rule{text: text, re: re, unicode: namesNonASCII(text)}, nil
}

// namesNonASCII reports whether the regular expression text names text
// beyond ASCII: a literal written as itself or as an escape (\x{0E1B}), or
// a class of such characters (\p{Thai}, [ก-ฮ]); not a negated class, whose
// ranges run to the end of Unicode (a review found escapes and classes
// left out when only the rule's bytes were looked at).
func namesNonASCII(text string) bool {
	re, err := syntax.Parse(text, syntax.Perl)
	if err != nil {
		return false
	}
	var walk func(*syntax.Regexp) bool
	walk = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpLiteral:
			for _, c := range r.Rune {
				if c >= utf8.RuneSelf {
					return true
				}
			}
		case syntax.OpCharClass:
			for i := 0; i+1 < len(r.Rune); i += 2 {
				if r.Rune[i] >= utf8.RuneSelf && r.Rune[i+1] < unicode.MaxRune {
					return true
				}
			}
		}
		for _, s := range r.Sub {
			if walk(s) {
				return true
			}
		}
		return false
	}
	return walk(re)
}

// target is a URL in the two forms rules compare: canonical and SURT
// (without scheme), each made on first use.
type target struct {
	u                    *url.URL
	canon, sur, readable string
}

// readableForm is the URL as a person reads and writes it: its host in
// Unicode (IDNA), its path and query unescaped. A rule written with a Thai
// host name, "^https?://ข่าว\.test/", was accepted, kept and reported in
// force while it matched nothing (a steering trial).
func (t *target) readableForm() string {
	if t.readable == "" {
		host := t.u.Host
		if h, err := idna.ToUnicode(t.u.Hostname()); err == nil {
			host = h
			if p := t.u.Port(); p != "" {
				host += ":" + p
			}
		}
		s := t.u.Scheme + "://" + host + t.u.Path
		if t.u.RawQuery != "" {
			q, err := url.QueryUnescape(t.u.RawQuery)
			if err != nil {
				q = t.u.RawQuery
			}
			s += "?" + q
		}
		t.readable = s
	}
	return t.readable
}

func (t *target) canonical() string {
	if t.canon == "" {
		t.canon = t.u.String()
	}
	return t.canon
}

func (t *target) surt() string {
	if t.sur == "" {
		t.sur = surtBody(t.u)
	}
	return t.sur
}

func (r rule) match(t *target) bool {
	if r.re != nil {
		return r.re.MatchString(t.canonical()) || (r.unicode && r.re.MatchString(t.readableForm()))
	}
	return strings.HasPrefix(t.surt(), r.surt)
}

func (f *Filter) load() *ruleSet {
	if f == nil {
		return nil
	}
	return f.cur.Load()
}

// update applies fn to a copy of the current rules and publishes it.
func (f *Filter) update(fn func(rs *ruleSet) error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var rs ruleSet
	if old := f.cur.Load(); old != nil {
		rs = ruleSet{include: slices.Clone(old.include), exclude: slices.Clone(old.exclude), seeds: old.seeds}
	}
	if err := fn(&rs); err != nil {
		return err
	}
	f.cur.Store(&rs)
	return nil
}

// AddInclude adds an include rule: an RE2 regular expression matched
// anywhere in the canonical URL (anchor it with ^ and $), or SURTRule
// followed by a SURT prefix. Once any include rule is set, a link is
// followed only if it matches one of them (page requisites and redirects
// excepted). Adding a rule that is already there does nothing. The error
// wraps ErrRule and names the rule.
func (f *Filter) AddInclude(text string) error {
	return f.add(text, func(rs *ruleSet) *[]rule { return &rs.include })
}

// AddExclude adds an exclude rule, written as for AddInclude. A URL that
// matches an exclude rule is never queued, requisites and redirects
// included; the decision's reason is "exclude:" followed by the rule as
// it was added (a SURT rule in its compared form). URLs queued before the
// rule was added are not taken out of the frontier.
func (f *Filter) AddExclude(text string) error {
	return f.add(text, func(rs *ruleSet) *[]rule { return &rs.exclude })
}

// RemoveInclude removes an include rule, written as it was added. The
// error wraps ErrNoRule when it is not there.
func (f *Filter) RemoveInclude(text string) error {
	return f.remove(text, func(rs *ruleSet) *[]rule { return &rs.include })
}

// RemoveExclude removes an exclude rule, written as it was added (a
// profile's rule included). The error wraps ErrNoRule when it is not there.
func (f *Filter) RemoveExclude(text string) error {
	return f.remove(text, func(rs *ruleSet) *[]rule { return &rs.exclude })
}

func (f *Filter) add(text string, list func(*ruleSet) *[]rule) error {
	r, err := parseRule(text)
	if err != nil {
		return err
	}
	return f.update(func(rs *ruleSet) error {
		l := list(rs)
		if !slices.ContainsFunc(*l, func(o rule) bool { return o.text == r.text }) {
			*l = append(*l, r)
		}
		return nil
	})
}

func (f *Filter) remove(text string, list func(*ruleSet) *[]rule) error {
	key := text
	if r, err := parseRule(text); err == nil {
		key = r.text // the compared form of a SURT rule
	}
	return f.update(func(rs *ruleSet) error {
		l := list(rs)
		i := slices.IndexFunc(*l, func(o rule) bool { return o.text == key || o.text == text })
		if i < 0 {
			return fmt.Errorf("%w: %q", ErrNoRule, text)
		}
		*l = slices.Delete(*l, i, i+1)
		return nil
	})
}

// Includes returns the include rules, in the order they were added.
func (f *Filter) Includes() []string {
	return texts(f.load(), func(rs *ruleSet) []rule { return rs.include })
}

// Excludes returns the exclude rules, in the order they were added.
func (f *Filter) Excludes() []string {
	return texts(f.load(), func(rs *ruleSet) []rule { return rs.exclude })
}

func texts(rs *ruleSet, list func(*ruleSet) []rule) []string {
	if rs == nil {
		return nil
	}
	var out []string
	for _, r := range list(rs) {
		out = append(out, r.text)
	}
	return out
}

// AddSeed gives the seed URL seed a scope of kind kind with depth limit
// depth (0: the Decider's MaxDepth; negative: none). Once a registered
// domain has a seed with a scope, links into that domain are followed only
// when they lie in one of its seeds' scopes, however they were reached;
// domains without such seeds keep the default (the whole registered
// domain, MaxDepth). The error wraps ErrRule and names the seed.
func (f *Filter) AddSeed(seed string, kind Kind, depth int) error {
	return f.AddSeeds([]SeedScope{{Seed: seed, Kind: kind, Depth: depth}})
}

// AddSeeds adds seeds as AddSeed does, in one change of the rules: a
// profile's thousands of scoped seeds are added in time proportional to
// their number (one at a time, each change copied every seed before it:
// 40,000 took 3.6 minutes at each start). A bad seed is left out and its
// error, naming it, joined to the others returned; the good ones are
// added all the same.
func (f *Filter) AddSeeds(seeds []SeedScope) error {
	var errs []error
	type added struct {
		s   seedScope
		dom string
	}
	var good []added
	for _, sd := range seeds {
		if _, err := ParseKind(string(sd.Kind)); err != nil {
			errs = append(errs, fmt.Errorf("seed %s: %w", sd.Seed, err))
			continue
		}
		u, err := Canonicalize(sd.Seed)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w: seed: %v", ErrRule, err))
			continue
		}
		good = append(good, added{seedScope{SeedScope: SeedScope{Seed: u.String(), Kind: sd.Kind, Depth: sd.Depth}, key: seedKey(u, sd.Kind)},
			RegisteredDomain(u.Hostname())})
	}
	if len(good) == 0 {
		return errors.Join(errs...)
	}
	err := f.update(func(rs *ruleSet) error {
		m := make(map[string][]seedScope, len(rs.seeds)+1)
		for k, v := range rs.seeds {
			m[k] = v
		}
		// The lists of the previous rules are shared with readers: each
		// domain's is copied once, then changed in place, with an index
		// of its seeds by kind and key.
		index := map[string]map[string]int{}
		for _, a := range good {
			idx := index[a.dom]
			if idx == nil {
				m[a.dom] = slices.Clone(m[a.dom])
				idx = make(map[string]int, len(m[a.dom]))
				for i, o := range m[a.dom] {
					idx[string(o.Kind)+" "+o.key] = i
				}
				index[a.dom] = idx
			}
			k := string(a.s.Kind) + " " + a.s.key
			if i, ok := idx[k]; ok {
				m[a.dom][i] = a.s // the same scope again: its depth is the last given
				continue
			}
			idx[k] = len(m[a.dom])
			m[a.dom] = append(m[a.dom], a.s)
		}
		rs.seeds = m
		return nil
	})
	return errors.Join(append(errs, err)...)
}

// Seeds returns the seeds given a scope, grouped by registered domain in
// no particular order.
func (f *Filter) Seeds() []SeedScope {
	rs := f.load()
	if rs == nil {
		return nil
	}
	var out []SeedScope
	for _, l := range rs.seeds {
		for _, s := range l {
			out = append(out, s.SeedScope)
		}
	}
	return out
}

// seedKey is the string a URL's scope key must start with to lie in the
// scope of kind k around u.
func seedKey(u *url.URL, k Kind) string {
	switch k {
	case Host:
		return noWWW(SiteKey(u)) + "/"
	case Prefix:
		p := u.EscapedPath()
		return noWWW(SiteKey(u)) + p[:strings.LastIndexByte(p, '/')+1]
	}
	return ""
}

// urlKey is the key seedKey's results are compared with.
func urlKey(u *url.URL) string {
	k := noWWW(SiteKey(u)) + u.EscapedPath()
	if u.RawQuery != "" || u.ForceQuery {
		k += "?" + u.RawQuery
	}
	return k
}

func noWWW(h string) string { return strings.TrimPrefix(h, "www.") }

// excluded returns the reason for the first exclude rule t matches, "" for none.
func (rs *ruleSet) excluded(t *target) string {
	if rs == nil {
		return ""
	}
	for _, r := range rs.exclude {
		if r.match(t) {
			return "exclude:" + r.text
		}
	}
	return ""
}

// included reports why t is outside the include rules and the seed
// scopes, "" when it is inside; limit is then its depth limit, def unless
// a seed scope sets its own (the largest of the scopes it lies in), and
// admit names the operator's rules that let it in: "include:<rule>" (the
// first include rule it matches), "seed:<kind>:<scope>" (the seed scope
// that gives its limit), both joined by ";", or "" when no operator rule
// bears on it.
func (rs *ruleSet) included(t *target, def int) (limit int, admit, reject string) {
	if rs == nil {
		return def, "", ""
	}
	if len(rs.include) > 0 {
		i := slices.IndexFunc(rs.include, func(r rule) bool { return r.match(t) })
		if i < 0 {
			return def, "", "not-included"
		}
		admit = "include:" + rs.include[i].text
	}
	if len(rs.seeds) == 0 {
		return def, admit, ""
	}
	scopes := rs.seeds[RegisteredDomain(t.u.Hostname())]
	if len(scopes) == 0 {
		return def, admit, ""
	}
	key := ""
	var by *seedScope
	for i, s := range scopes {
		if s.Kind != Domain {
			if key == "" {
				key = urlKey(t.u)
			}
			if !strings.HasPrefix(key, s.key) {
				continue
			}
		}
		l := s.Depth
		if l == 0 {
			l = def
		}
		if l < 0 {
			limit, by = -1, &scopes[i]
			break
		}
		if by == nil || l > limit {
			limit, by = l, &scopes[i]
		}
	}
	if by == nil {
		return def, "", "outside-seed:" + scopes[0].name()
	}
	if admit != "" {
		admit += ";"
	}
	return limit, admit + "seed:" + by.name(), ""
}

// name is how decisions name the scope: "<kind>:<scope>", the scope
// without the trailing slash of a host scope.
func (s *seedScope) name() string {
	k := s.key
	switch s.Kind {
	case Host:
		k = strings.TrimSuffix(k, "/")
	case Domain:
		if u, err := url.Parse(s.Seed); err == nil {
			k = RegisteredDomain(u.Hostname())
		}
	}
	return string(s.Kind) + ":" + k
}
