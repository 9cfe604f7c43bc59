package scope

import (
	"fmt"
	"net/url"
)

// DefaultMaxDepth is the depth limit Decider uses when MaxDepth is zero. Nakahira et al.
// (2008, section 3) found that limiting a site tree to depth 8 keeps about 80% of the
// external URLs at a fraction of the load.
const DefaultMaxDepth = 8

// Decider ties canonicalisation, site trees, the depth limit, the trap guards, the
// include and exclude rules, the per-seed scopes and the query rule together for the
// engine. The zero Decider uses DefaultRules, a depth limit of DefaultMaxDepth, no
// rules and no query rule. Apart from its optional Cache and Filter it keeps no state;
// it is safe for concurrent use, and copies share the Cache and the Filter. The seen
// set, and so the query rule's memory, belongs to the engine.
type Decider struct {
	// Rules are the trap guards.
	Rules Rules
	// MaxDepth is the deepest an internal URL may lie in its site tree; the starting URL
	// is at depth 0. Zero means DefaultMaxDepth; negative means no limit.
	MaxDepth int
	// QueryRule turns on one crawl per script (Nakahira et al. 2008, section 2.2):
	// Decision.QueryKey is then set for query URLs.
	QueryRule bool
	// Cache, when not nil, remembers recent canonicalisations (see Cache).
	Cache *Cache
	// Filter, when not nil, holds the include and exclude rules and the per-seed
	// scopes. Rules added to it while a crawl runs apply to the next decision.
	Filter *Filter
}

// Decision is what Decider.Decide says about one link.
type Decision struct {
	// URL is the canonical URL; nil when the link could not be canonicalised.
	URL *url.URL
	// Internal reports whether URL is in the parent's site tree.
	Internal bool
	// Tree is the registered domain of the site tree URL belongs to: the parent's tree
	// for an internal URL, a new tree (RegisteredDomain of its host) for an external one.
	Tree string
	// Depth is the URL's depth in Tree: the parent's depth plus one for an internal URL,
	// 0 for an external URL, which starts a new tree.
	Depth int
	// QueryKey is QueryKey(URL) when the query rule is on and URL has a query, else "".
	// The engine rejects the URL if the key is already in its seen set, and otherwise
	// marks it there when it enqueues the URL.
	QueryKey string
	// Reject is "" when the URL may be queued, and otherwise why not. It names the
	// rule that decided: "exclude:<rule>" (the rule as added to the Filter),
	// "not-included", "outside-seed:<kind>:<scope>", "trap: <limit>",
	// "depth <n>, limit <m>", or the canonicalisation error.
	Reject string
	// Admit names, for a URL that may be queued, the operator's rules that
	// let it in: "include:<rule>", "seed:<kind>:<scope>" (both, joined by
	// ";", when both bear on it), or "requisite" for a requisite or
	// redirect that include rules or seed scopes would otherwise have
	// judged. "" when no operator rule bears on the URL (the default scope).
	Admit string
	// TooDeep reports that Reject is the depth limit's: the URL's depth,
	// reached by this path, is past the limit of its tree. Unlike the
	// other rules it depends on the path.
	TooDeep bool
}

// Decide canonicalises the absolute URL link found on a page at depth parentDepth of
// the site tree tree, and decides on it.
func (d Decider) Decide(tree string, parentDepth int, link string) Decision {
	return d.decide(tree, parentDepth, link, false)
}

// DecideRequisite is Decide for a page requisite (an image, a stylesheet, a script)
// or a redirect's target: part of a page or URL that was already accepted. It is
// held to the exclude rules and the trap guards only, so requisites come from any
// host, whatever the include rules, seed scopes and depth limit say. The engine
// passes the page's depth minus one, which keeps a requisite at its page's depth.
func (d Decider) DecideRequisite(tree string, parentDepth int, link string) Decision {
	return d.decide(tree, parentDepth, link, true)
}

func (d Decider) decide(tree string, parentDepth int, link string, requisite bool) Decision {
	u, err := d.Cache.Canonicalize(link)
	if err != nil {
		return Decision{Reject: err.Error()}
	}
	return d.decideURL(tree, parentDepth, u, requisite)
}

// DecideURL is Decide for a URL that is already canonical.
func (d Decider) DecideURL(tree string, parentDepth int, u *url.URL) Decision {
	return d.decideURL(tree, parentDepth, u, false)
}

// AddExclude adds an exclude rule to d.Filter (see Filter.AddExclude); it is how an
// operator excludes a trap while the crawl runs. It is safe for concurrent use with
// Decide. The error wraps ErrNoFilter when d has no Filter, ErrRule for a bad rule.
func (d Decider) AddExclude(rule string) error {
	if d.Filter == nil {
		return ErrNoFilter
	}
	return d.Filter.AddExclude(rule)
}

// RemoveExclude removes an exclude rule from d.Filter (see Filter.RemoveExclude).
func (d Decider) RemoveExclude(rule string) error {
	if d.Filter == nil {
		return ErrNoFilter
	}
	return d.Filter.RemoveExclude(rule)
}

// Excluded returns the reason an exclude rule gives for u ("exclude:<rule>"), or ""
// when none matches. The engine may call it on a URL taken from the frontier, to
// skip URLs queued before the rule was added.
func (d Decider) Excluded(u *url.URL) string {
	return d.Filter.load().excluded(&target{u: u})
}

func (d Decider) decideURL(tree string, parentDepth int, u *url.URL, requisite bool) Decision {
	dec := Decision{URL: u, Tree: tree}
	if Internal(tree, u.Hostname()) {
		dec.Internal = true
		dec.Depth = parentDepth + 1
	} else {
		dec.Tree = RegisteredDomain(u.Hostname())
	}
	rs := d.Filter.load()
	t := &target{u: u}
	if why := rs.excluded(t); why != "" {
		dec.Reject = why
		return dec
	}
	if why := d.Rules.Trap(u); why != "" {
		dec.Reject = "trap: " + why
		return dec
	}
	if requisite {
		// Its page's depth, which the limit already admitted.
		if d.QueryRule {
			dec.QueryKey = QueryKey(u)
		}
		if rs != nil && (len(rs.include) > 0 || len(rs.seeds) > 0) {
			dec.Admit = "requisite"
		}
		return dec
	}
	limit := d.MaxDepth
	if limit == 0 {
		limit = DefaultMaxDepth
	}
	limit, admit, why := rs.included(t, limit)
	if why != "" {
		dec.Reject = why
		return dec
	}
	dec.Admit = admit
	if dec.Internal && limit > 0 && dec.Depth > limit {
		dec.Reject = fmt.Sprintf("depth %d, limit %d", dec.Depth, limit)
		dec.TooDeep = true
		return dec
	}
	if d.QueryRule {
		dec.QueryKey = QueryKey(u)
	}
	return dec
}
