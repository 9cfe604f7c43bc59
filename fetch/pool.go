package fetch

import (
	"container/list"
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"time"
)

// persistConn is one connection to one origin (scheme://host:port).
type persistConn struct {
	key       string
	conn      net.Conn
	ip        string      // remote IP dialed, for WARC-IP-Address
	tlsErr    string      // certificate verification failure accepted under InsecureTLS
	peek      *socketPeek // nil when the connection is not a socket
	uses      int         // requests sent so far
	idleSince time.Time
	elem      *list.Element // position in pool.lru while idle
}

// pool holds idle kept-alive connections: at most one per origin and at most
// max in all, least recently used first in lru. It is safe for concurrent use.
// Connections are closed outside the lock.
type pool struct {
	mu          sync.Mutex
	max         int
	idleTimeout time.Duration
	idle        map[string]*persistConn
	lru         list.List // of *persistConn; front is the least recently used
	closed      bool
	// now is the clock idleSince is read on; reaper closes what has been
	// idle IdleTimeout by it while no fetch comes to the pool (a paused
	// crawl, a queue waiting on its delays): get and put expire only
	// what they see, so up to max connections stayed open to their
	// servers for as long as the pause (a soak review).
	now    func() time.Time
	reaper *time.Timer // nil while none is set
}

func newPool(max int, idleTimeout time.Duration, now func() time.Time) *pool {
	if now == nil {
		now = time.Now
	}
	return &pool{max: max, idleTimeout: idleTimeout, idle: make(map[string]*persistConn), now: now}
}

// reapLocked sets the reaper for the least recently used idle connection's
// expiry, if none is set.
func (p *pool) reapLocked() {
	if p.reaper != nil || p.closed || p.lru.Len() == 0 || p.idleTimeout <= 0 {
		return
	}
	oldest := p.lru.Front().Value.(*persistConn)
	wait := p.idleTimeout - p.now().Sub(oldest.idleSince)
	// Not sooner than a tenth of the timeout: a clock that does not move
	// (a test's) must not make the reaper spin.
	wait = max(wait, p.idleTimeout/10)
	p.reaper = time.AfterFunc(wait, p.reap)
}

// reap closes the connections idle for IdleTimeout and sets the reaper
// again for those left.
func (p *pool) reap() {
	p.mu.Lock()
	p.reaper = nil
	var stale []*persistConn
	if !p.closed {
		stale = p.expireLocked(p.now())
		p.reapLocked()
	}
	p.mu.Unlock()
	closeAll(stale)
}

// get removes and returns the idle connection for key, or nil. A connection
// idle for IdleTimeout or longer is closed instead.
func (p *pool) get(key string, now time.Time) *persistConn {
	p.mu.Lock()
	stale := p.expireLocked(now)
	pc := p.idle[key]
	if pc != nil {
		p.removeLocked(pc)
	}
	p.mu.Unlock()
	closeAll(stale)
	return pc
}

// put makes pc idle. It closes pc if the pool is closed, and closes the
// connection it replaces, expired ones and the least recently used ones
// beyond the limit.
func (p *pool) put(pc *persistConn, now time.Time) {
	p.mu.Lock()
	if p.closed || p.max == 0 {
		p.mu.Unlock()
		pc.conn.Close()
		return
	}
	stale := p.expireLocked(now)
	if old := p.idle[pc.key]; old != nil {
		p.removeLocked(old)
		stale = append(stale, old)
	}
	pc.idleSince = now
	pc.elem = p.lru.PushBack(pc)
	p.idle[pc.key] = pc
	for p.lru.Len() > p.max {
		lru := p.lru.Front().Value.(*persistConn)
		p.removeLocked(lru)
		stale = append(stale, lru)
	}
	p.reapLocked()
	p.mu.Unlock()
	closeAll(stale)
}

// expireLocked removes connections idle since now-idleTimeout or earlier and
// returns them for closing. lru is ordered by idleSince, as long as the clock
// does not run backwards.
func (p *pool) expireLocked(now time.Time) []*persistConn {
	var stale []*persistConn
	for e := p.lru.Front(); e != nil; e = p.lru.Front() {
		pc := e.Value.(*persistConn)
		if now.Sub(pc.idleSince) < p.idleTimeout {
			break
		}
		p.removeLocked(pc)
		stale = append(stale, pc)
	}
	return stale
}

func (p *pool) removeLocked(pc *persistConn) {
	p.lru.Remove(pc.elem)
	pc.elem = nil
	delete(p.idle, pc.key)
}

// len returns the number of idle connections.
func (p *pool) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lru.Len()
}

// close closes every idle connection and makes later puts close theirs.
func (p *pool) close() error {
	p.mu.Lock()
	p.closed = true
	if p.reaper != nil {
		p.reaper.Stop()
		p.reaper = nil
	}
	var all []*persistConn
	for e := p.lru.Front(); e != nil; e = e.Next() {
		all = append(all, e.Value.(*persistConn))
	}
	p.lru.Init()
	clear(p.idle)
	p.mu.Unlock()
	var errs []error
	for _, pc := range all {
		if err := pc.conn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (p *pool) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func closeAll(pcs []*persistConn) {
	for _, pc := range pcs {
		pc.conn.Close()
	}
}

// hasUnread reports whether pc, a connection between two exchanges, holds
// bytes the client did not ask for, or has been closed by the server. Such a
// connection must not carry another request: a response already waiting on
// it was not sent for that request (response smuggling, or a confused
// server), and the next exchange would record it as the answer.
//
// It never blocks. The socket is peeked (see socketPeek); a TLS connection
// is also read with an expired deadline, which returns at once unless
// crypto/tls holds decrypted or raw bytes in its own buffers. A connection
// that is not a socket (a custom Config.Dial), or any connection on a
// platform without a non-blocking peek (Windows, see idle_other.go), gets
// only that read, which sees bytes buffered above the socket but not the
// kernel's: best effort there.
func (pc *persistConn) hasUnread() bool {
	if pc.peek != nil && pc.peek.unread() {
		return true
	}
	if _, isTLS := pc.conn.(*tls.Conn); pc.peek != nil && !isTLS {
		return false
	}
	// A read that must not wait: an expired deadline fails it at once
	// unless data is already buffered above the socket.
	if err := pc.conn.SetReadDeadline(time.Unix(1, 0)); err != nil {
		return true
	}
	var b [1]byte
	n, err := pc.conn.Read(b[:])
	if n > 0 {
		return true
	}
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}
