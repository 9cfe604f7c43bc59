// Package twogen is a bounded map of recent entries kept in two
// generations: when the newer generation is full, the older one is
// dropped and the newer takes its place. Entries in use stay (a Get from
// the older generation moves the entry forward); memory stays under twice
// the generation size. It is the cache behind scope.Cache and the
// frontier's memory of recently seen URLs.
package twogen

// Map holds at most 2*half entries. It is not safe for concurrent use:
// Peek only reads, so concurrent Peeks are fine under a read lock; Get
// and Put need exclusive access.
type Map[K comparable, V any] struct {
	half     int
	cur, old map[K]V
}

// New returns a Map whose generations hold half entries each (at least 1).
// A generation starts with room for at most maxHint entries and grows as
// it fills, so a large Map that stays mostly empty costs little.
func New[K comparable, V any](half int) *Map[K, V] {
	half = max(half, 1)
	return &Map[K, V]{half: half, cur: make(map[K]V, min(half, maxHint))}
}

// maxHint caps the room a new generation is made with.
const maxHint = 1 << 10

// Peek returns k's value without changing the map.
func (m *Map[K, V]) Peek(k K) (V, bool) {
	if v, ok := m.cur[k]; ok {
		return v, true
	}
	v, ok := m.old[k]
	return v, ok
}

// Get returns k's value, moving it into the newer generation if it was in
// the older one.
func (m *Map[K, V]) Get(k K) (V, bool) {
	if v, ok := m.cur[k]; ok {
		return v, true
	}
	v, ok := m.old[k]
	if ok {
		m.Put(k, v)
	}
	return v, ok
}

// Put sets k's value in the newer generation, starting a new generation
// first if it is full.
func (m *Map[K, V]) Put(k K, v V) {
	if len(m.cur) >= m.half {
		m.old, m.cur = m.cur, make(map[K]V, min(m.half, maxHint))
	}
	m.cur[k] = v
}

// Delete removes k from both generations.
func (m *Map[K, V]) Delete(k K) {
	delete(m.cur, k)
	delete(m.old, k)
}

// Len returns the number of entries held, in both generations.
func (m *Map[K, V]) Len() int { return len(m.cur) + len(m.old) }
