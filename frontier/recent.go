package frontier

// recentSeen remembers URL hashes known to be in the seen set, so that the
// links a crawl finds again and again (a site's navigation on every page)
// are answered without a LevelDB lookup. It holds at most 2*half hashes in
// two generations; when the newer is full the older is dropped. Entries are
// only ever true: the seen set never loses a URL. Not safe for concurrent
// use: reads need q.mu held at least for reading, writes q.mu held.
type recentSeen struct {
	half     int
	cur, old map[urlHash]struct{}
}

// recentSeenHalf is the size of one generation: 2^16 hashes, a few MB in all.
const recentSeenHalf = 1 << 16

func newRecentSeen(half int) *recentSeen {
	return &recentSeen{half: half, cur: make(map[urlHash]struct{}, half)}
}

func (r *recentSeen) has(h urlHash) bool {
	if _, ok := r.cur[h]; ok {
		return true
	}
	_, ok := r.old[h]
	return ok
}

func (r *recentSeen) add(h urlHash) {
	if len(r.cur) >= r.half {
		r.old, r.cur = r.cur, make(map[urlHash]struct{}, r.half)
	}
	r.cur[h] = struct{}{}
}
