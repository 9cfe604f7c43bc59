package frontier

import (
	"bytes"
	"fmt"
	"strings"
)

// Site orders for Options.Order: the long-term scheduling strategies of
// Castillo et al. (2004), section 5, that a crawler can run online, without
// an oracle or a Pagerank computation. In every order a site with High work
// comes before every site with only Low work (the language focus of Tamura
// et al.), and ties go to the smaller site name, so an order is stable.
const (
	// OrderLength puts the site with the most pages pending first:
	// Castillo's "Length", the best of the online strategies in the paper's
	// figures 5 and 6. The default.
	OrderLength = "length"
	// OrderBreadth serves sites by the position of their next page in one
	// global breadth-first order: the smallest depth first, then the oldest
	// insertion. It is Castillo's "Depth" (breadth-first, as in Najork and
	// Wiener), run over sites, and is first come first served among sites
	// whose pages are equally deep. The head of a site is known from the
	// queue's floor (see site.floor), a lower bound that is exact for a site
	// whose head was pushed or leased in this run; sites restored by Open
	// count as having the oldest head until their first lease.
	OrderBreadth = "breadth"
	// OrderRandom puts sites in a fixed pseudo-random order (a hash of the
	// name): the random baseline that Castillo's figure 5 describes as a
	// straight line.
	OrderRandom = "random"
)

// Orders lists the accepted values of Options.Order.
var Orders = []string{OrderLength, OrderBreadth, OrderRandom}

// checkOrder validates Options.Order; "" means OrderLength.
func checkOrder(order string) error {
	switch order {
	case "", OrderLength, OrderBreadth, OrderRandom:
		return nil
	}
	return fmt.Errorf("%w: Order is %q, must be one of %s", ErrInvalidOptions, order, strings.Join(Orders, ", "))
}

// orderLess returns the ready-heap order for an Options.Order that
// checkOrder accepted.
func orderLess(order string) func(a, b *site) bool {
	switch order {
	case OrderBreadth:
		return breadthLess
	case OrderRandom:
		return randomLess
	}
	return lengthLess
}

// breadthLess orders ready sites by the ordering suffix of their head entry
// without its priority byte: depth, then insertion sequence.
func breadthLess(a, b *site) bool {
	if ah, bh := a.high > 0, b.high > 0; ah != bh {
		return ah
	}
	var af, bf []byte
	if len(a.floor) == keySuffixLen {
		af = a.floor[1:]
	}
	if len(b.floor) == keySuffixLen {
		bf = b.floor[1:]
	}
	if c := bytes.Compare(af, bf); c != 0 {
		return c < 0
	}
	return a.name < b.name
}

// fnv64a is the 64-bit FNV-1a hash of s. It is fixed, unlike maphash, so
// that a resumed crawl keeps its random order.
func fnv64a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// randomLess orders ready sites by a hash of their name.
func randomLess(a, b *site) bool {
	if ah, bh := a.high > 0, b.high > 0; ah != bh {
		return ah
	}
	ha, hb := fnv64a(a.name), fnv64a(b.name)
	if ha != hb {
		return ha < hb
	}
	return a.name < b.name
}
