package frontier

import "github.com/langcrawl/langcrawl/internal/twogen"

// recentSeen remembers URL hashes known to be in the seen set, so that the
// links a crawl finds again and again (a site's navigation on every page)
// are answered without a LevelDB lookup. It holds at most 2*half hashes in
// two generations (package twogen). Entries are only ever true: a URL
// leaves the seen set only through Completion.Unsee, which removes it
// here too. Not safe for concurrent use: has needs q.mu held at least for
// reading, add and remove q.mu held.
type recentSeen struct {
	m *twogen.Map[urlHash, struct{}]
}

// recentSeenHalf is the default size of one generation (Options.SeenCache
// is two of them): 2^16 hashes, a few MB in all.
const recentSeenHalf = 1 << 16

func newRecentSeen(half int) *recentSeen {
	return &recentSeen{m: twogen.New[urlHash, struct{}](half)}
}

func (r *recentSeen) has(h urlHash) bool {
	_, ok := r.m.Peek(h)
	return ok
}

func (r *recentSeen) add(h urlHash) { r.m.Put(h, struct{}{}) }

func (r *recentSeen) remove(h urlHash) { r.m.Delete(h) }
