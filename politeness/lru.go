package politeness

import "container/list"

// lru is a map bounded to max entries that evicts the least recently used
// one. With weigh set, it is bounded by maxWeight too, the sum of its
// values' weights (their bytes): a count alone bounds nothing when one
// value may be thousands of times the size of another. It is not safe for
// concurrent use; Gate guards it with its mutex.
type lru[K comparable, V any] struct {
	max   int
	order *list.List // front: most recently used; values are *lruItem
	items map[K]*list.Element
	// weigh, when not nil, is each value's weight; the least recently used
	// entries are evicted while the sum, weight, is over maxWeight, the
	// entry just put excepted.
	weigh     func(V) int64
	maxWeight int64
	weight    int64
}

type lruItem[K comparable, V any] struct {
	key K
	val V
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, order: list.New(), items: make(map[K]*list.Element)}
}

// newWeighedLRU returns an lru bounded to max entries and to maxWeight
// in all by weigh.
func newWeighedLRU[K comparable, V any](max int, maxWeight int64, weigh func(V) int64) *lru[K, V] {
	c := newLRU[K, V](max)
	c.weigh, c.maxWeight = weigh, maxWeight
	return c
}

// get returns the value for k and marks it used.
func (c *lru[K, V]) get(k K) (V, bool) {
	e, ok := c.items[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruItem[K, V]).val, true
}

// put sets the value for k, marks it used, and evicts the least recently
// used entry if the cache is over its bound.
func (c *lru[K, V]) put(k K, v V) {
	if e, ok := c.items[k]; ok {
		it := e.Value.(*lruItem[K, V])
		c.weight += c.weightOf(v) - c.weightOf(it.val)
		it.val = v
		c.order.MoveToFront(e)
	} else {
		c.items[k] = c.order.PushFront(&lruItem[K, V]{key: k, val: v})
		c.weight += c.weightOf(v)
	}
	for c.order.Len() > c.max || c.weigh != nil && c.weight > c.maxWeight && c.order.Len() > 1 {
		c.removeElem(c.order.Back())
	}
}

func (c *lru[K, V]) weightOf(v V) int64 {
	if c.weigh == nil {
		return 0
	}
	return c.weigh(v)
}

func (c *lru[K, V]) removeElem(e *list.Element) {
	it := e.Value.(*lruItem[K, V])
	c.order.Remove(e)
	delete(c.items, it.key)
	c.weight -= c.weightOf(it.val)
}

// remove deletes k if present.
func (c *lru[K, V]) remove(k K) {
	if e, ok := c.items[k]; ok {
		c.removeElem(e)
	}
}

func (c *lru[K, V]) len() int { return c.order.Len() }
