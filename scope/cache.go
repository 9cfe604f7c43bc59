package scope

import (
	"net/url"
	"sync"

	"github.com/langcrawl/langcrawl/internal/twogen"
)

// Cache remembers the outcome of Canonicalize for recently seen links. The
// same links come back on every page of a site (navigation, stylesheets,
// logos), and WHATWG parsing was the largest source of allocations in the
// crawl after WARC writing (BENCHMARKS.md). It holds at most Size entries in
// two generations: when the newer one is full the older one is dropped, so
// links in use stay while memory stays bounded (package twogen). A nil
// *Cache canonicalises every time. Cache is safe for concurrent use.
type Cache struct {
	mu     sync.Mutex
	m      *twogen.Map[string, cached]
	hits   int64
	misses int64
}

type cached struct {
	u   *url.URL
	err error
}

// DefaultCacheSize is the number of links NewCache(0) remembers: with
// typical URLs about 10 MB.
const DefaultCacheSize = 32768

// NewCache returns a cache of at most size links (DefaultCacheSize when
// size <= 0).
func NewCache(size int) *Cache {
	if size <= 0 {
		size = DefaultCacheSize
	}
	return &Cache{m: twogen.New[string, cached](size / 2)}
}

// Canonicalize is the package's Canonicalize, answered from the cache when
// raw was seen recently. The URL returned is the caller's to modify.
func (c *Cache) Canonicalize(raw string) (*url.URL, error) {
	if c == nil {
		return Canonicalize(raw)
	}
	c.mu.Lock()
	r, ok := c.m.Get(raw)
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	c.mu.Unlock()
	if !ok {
		u, err := Canonicalize(raw)
		r = cached{u, err}
		c.mu.Lock()
		c.m.Put(raw, r)
		c.mu.Unlock()
	}
	if r.err != nil {
		return nil, r.err
	}
	u := *r.u
	return &u, nil
}

// Stats returns how many lookups the cache answered and how many it did not.
func (c *Cache) Stats() (hits, misses int64) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}
