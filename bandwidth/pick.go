package bandwidth

import "time"

// Pick is one admission decision over the candidates of a queue search,
// such as frontier.Queue.NextFit: Fits is the search's callback, Take
// collects the Ticket of the candidate the search chose. A Pick is used by
// one goroutine for one search.
//
//	pick := m.Pick(now)
//	lease, wait, err := q.NextFit(now, m.SearchDepth(), pick.Fits)
//	site := ""
//	if lease != nil {
//		site = lease.Entry.Site
//	}
//	ticket, err := pick.Take(site)
type Pick struct {
	m      *Manager
	now    time.Time
	ticket *Ticket
	err    error
}

// Pick starts an admission decision at now.
func (m *Manager) Pick(now time.Time) *Pick { return &Pick{m: m, now: now} }

// Fits reports whether a download from server fits, and if so reserves it
// (TryStart). A reservation made by an earlier call is cancelled first: the
// search calls Fits again only when it could not use the server accepted.
func (p *Pick) Fits(server string) bool {
	p.ticket.Cancel()
	t, err := p.m.TryStart(server, p.now)
	if err != nil && p.err == nil {
		p.err = err
	}
	p.ticket = t
	return t != nil
}

// Take returns the Ticket reserved for server, the one the search chose,
// and the first Store error met. For any other server, "" when the search
// chose none, it cancels the reservation and returns nil.
func (p *Pick) Take(server string) (*Ticket, error) {
	t := p.ticket
	p.ticket = nil
	if t != nil && (server == "" || t.server != server) {
		t.Cancel()
		t = nil
	}
	return t, p.err
}
