package bandwidth

import "sync"

// Store keeps the 48 estimates of each server across runs. Get and Put may
// be called with the Manager's lock held, from many goroutines; they must
// not call the Manager. frontier.BandwidthStore implements it on the
// crawl's LevelDB; MemStore keeps the estimates in memory.
type Store interface {
	// Get returns the estimates stored for server, laid out as Rates, and
	// whether there are any.
	Get(server string) (rates [Slots]float64, ok bool, err error)
	// Put stores the estimates of server, replacing any.
	Put(server string, rates [Slots]float64) error
}

// MemStore is a Store in memory, for tests and crawls that need not
// remember. The zero value is ready to use; it is safe for concurrent use.
type MemStore struct {
	mu sync.Mutex
	m  map[string][Slots]float64
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{} }

// Get implements Store.
func (s *MemStore) Get(server string) ([Slots]float64, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.m[server]
	return r, ok, nil
}

// Put implements Store.
func (s *MemStore) Put(server string, rates [Slots]float64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = make(map[string][Slots]float64)
	}
	s.m[server] = rates
	return nil
}
