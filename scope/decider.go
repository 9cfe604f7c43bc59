package scope

import (
	"fmt"
	"net/url"
)

// DefaultMaxDepth is the depth limit Decider uses when MaxDepth is zero. Nakahira et al.
// (2008, section 3) found that limiting a site tree to depth 8 keeps about 80% of the
// external URLs at a fraction of the load.
const DefaultMaxDepth = 8

// Decider ties canonicalisation, site trees, the depth limit, the trap guards and the
// query rule together for the engine. The zero Decider uses DefaultRules, a depth limit
// of DefaultMaxDepth and no query rule. Apart from its optional Cache it keeps no state;
// it is safe for concurrent use. The seen set, and so the query rule's memory, belongs to the engine.
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
	// Reject is "" when the URL may be queued, and otherwise why not.
	Reject string
}

// Decide canonicalises the absolute URL link found on a page at depth parentDepth of
// the site tree tree, and decides on it.
func (d Decider) Decide(tree string, parentDepth int, link string) Decision {
	u, err := d.Cache.Canonicalize(link)
	if err != nil {
		return Decision{Reject: err.Error()}
	}
	return d.DecideURL(tree, parentDepth, u)
}

// DecideURL is Decide for a URL that is already canonical.
func (d Decider) DecideURL(tree string, parentDepth int, u *url.URL) Decision {
	dec := Decision{URL: u, Tree: tree}
	if Internal(tree, u.Hostname()) {
		dec.Internal = true
		dec.Depth = parentDepth + 1
	} else {
		dec.Tree = RegisteredDomain(u.Hostname())
	}
	if why := d.Rules.Trap(u); why != "" {
		dec.Reject = "trap: " + why
		return dec
	}
	limit := d.MaxDepth
	if limit == 0 {
		limit = DefaultMaxDepth
	}
	if dec.Internal && limit > 0 && dec.Depth > limit {
		dec.Reject = fmt.Sprintf("depth %d, limit %d", dec.Depth, limit)
		return dec
	}
	if d.QueryRule {
		dec.QueryKey = QueryKey(u)
	}
	return dec
}
