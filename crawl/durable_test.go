package crawl

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/syndtr/goleveldb/leveldb/storage"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/scope"
)

// The power-failure test: every store writes through a "disk" that keeps,
// for each file, what was written and what was fsynced. The power cut is
// one instant (the disk's lock) after which the disk refuses everything;
// what survives is exactly what was fsynced. The frontier is reopened on
// that, and every URL it holds as complete must have its records in the
// surviving part of the archive.

var errPowerCut = errors.New("power cut")

type disk struct {
	mu    sync.Mutex
	cut   bool
	ops   int64
	at    int64  // the power goes at this operation
	onCut func() // records what survives; called with mu held
}

// op counts one write or sync, cutting the power first at the at-th. It
// reports whether the operation may go ahead. Called with mu held.
func (d *disk) op() bool {
	d.ops++
	if d.ops == d.at && !d.cut {
		d.cut = true
		d.onCut()
	}
	return !d.cut
}

// powerArchive is an archive whose records are durable only once synced.
type powerArchive struct {
	d       *disk
	written []string
	durable int // written[:durable] survive a power cut
	kept    []string
}

func (a *powerArchive) WriteExchange(ex *archive.Exchange) (archive.Ref, error) {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	if !a.d.op() {
		return archive.Ref{}, errPowerCut
	}
	a.written = append(a.written, ex.URL)
	return archive.Ref{ResponseID: "<urn:uuid:" + ex.URL + ">", PayloadDigest: "sha1:X"}, nil
}

func (a *powerArchive) WriteRevisit(rv *archive.Revisit) (archive.Ref, error) {
	return a.WriteExchange(&archive.Exchange{URL: rv.URL})
}

func (a *powerArchive) Sync() error {
	a.d.mu.Lock()
	if !a.d.op() {
		a.d.mu.Unlock()
		return errPowerCut
	}
	a.durable = len(a.written)
	a.d.mu.Unlock()
	// Let the workers run between this fsync and whatever comes next, as
	// a slow disk would: an order that lets a completion in between must
	// be caught.
	for range 20 {
		runtime.Gosched()
	}
	return nil
}

// powerStorage is goleveldb storage whose files lose their unsynced tail
// in a power cut. Renames and the CURRENT pointer (SetMeta) count as
// durable at once: goleveldb's file storage fsyncs them itself.
type powerStorage struct {
	storage.Storage
	d     *disk
	files map[storage.FileDesc]*powerWriter
	meta  storage.FileDesc
	// snap is what survived the cut: each file's synced bytes.
	snap     map[storage.FileDesc][]byte
	snapMeta storage.FileDesc
}

type powerWriter struct {
	s      *powerStorage
	w      storage.Writer
	data   []byte
	synced int
}

func (w *powerWriter) Write(p []byte) (int, error) {
	w.s.d.mu.Lock()
	defer w.s.d.mu.Unlock()
	if !w.s.d.op() {
		return 0, errPowerCut
	}
	w.data = append(w.data, p...)
	return w.w.Write(p)
}

func (w *powerWriter) Sync() error {
	w.s.d.mu.Lock()
	defer w.s.d.mu.Unlock()
	if !w.s.d.op() {
		return errPowerCut
	}
	w.synced = len(w.data)
	return w.w.Sync()
}

func (w *powerWriter) Close() error { return w.w.Close() }

func (s *powerStorage) Create(fd storage.FileDesc) (storage.Writer, error) {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if !s.d.op() {
		return nil, errPowerCut
	}
	w, err := s.Storage.Create(fd)
	if err != nil {
		return nil, err
	}
	pw := &powerWriter{s: s, w: w}
	s.files[fd] = pw
	return pw, nil
}

func (s *powerStorage) Remove(fd storage.FileDesc) error {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if !s.d.op() {
		return errPowerCut
	}
	delete(s.files, fd)
	return s.Storage.Remove(fd)
}

func (s *powerStorage) Rename(oldfd, newfd storage.FileDesc) error {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if !s.d.op() {
		return errPowerCut
	}
	s.files[newfd] = s.files[oldfd]
	delete(s.files, oldfd)
	return s.Storage.Rename(oldfd, newfd)
}

func (s *powerStorage) SetMeta(fd storage.FileDesc) error {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if !s.d.op() {
		return errPowerCut
	}
	s.meta = fd
	return s.Storage.SetMeta(fd)
}

// powerCut records the state that survives the power cut. Called with
// d.mu held.
func (s *powerStorage) powerCut(a *powerArchive) {
	s.snap = map[storage.FileDesc][]byte{}
	for fd, w := range s.files {
		s.snap[fd] = append([]byte(nil), w.data[:w.synced]...)
	}
	s.snapMeta = s.meta
	a.kept = append([]string(nil), a.written[:a.durable]...)
}

// reboot returns a memory storage that holds what survived.
func (s *powerStorage) reboot(t *testing.T) storage.Storage {
	t.Helper()
	m := storage.NewMemStorage()
	for fd, data := range s.snap {
		w, err := m.Create(fd)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
		w.Close()
	}
	if !s.snapMeta.Zero() {
		if err := m.SetMeta(s.snapMeta); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// powerWeb is a few sites of pages that link across each other.
func powerWeb() (fakeWeb, []string) {
	web := fakeWeb{}
	var all []string
	for s := range 6 {
		for p := range 25 {
			u := fmt.Sprintf("http://s%d.test/%d", s, p)
			all = append(all, u)
			web[u] = page("th", fmt.Sprintf("/%d", (p+1)%25), fmt.Sprintf("/%d", (p*7+3)%25),
				fmt.Sprintf("http://s%d.test/%d", (s+1)%6, p))
		}
	}
	return web, all
}

func TestPowerCutKeepsFrontierBehindArchive(t *testing.T) {
	for _, every := range []bool{false, true} {
		t.Run(fmt.Sprintf("every=%v", every), func(t *testing.T) {
			seed := rand.Uint64()
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, 1))
			web, all := powerWeb()
			durable := 0
			for range 25 {
				durable += powerCutRound(t, web, all, every, 20+rng.Int64N(int64(len(all))*2))
			}
			if durable == 0 {
				t.Fatal("no completion survived any power cut: the test checked nothing")
			}
		})
	}
}

// powerCutRound crawls web until the power cut at the at-th disk operation, and
// checks what survived. It returns how many completions survived.
func powerCutRound(t *testing.T, web fakeWeb, all []string, every bool, at int64) int {
	t.Helper()
	d := &disk{at: at}
	st := &powerStorage{Storage: storage.NewMemStorage(), d: d, files: map[storage.FileDesc]*powerWriter{}}
	q, err := frontier.Open("", &frontier.Options{Storage: st})
	if err != nil {
		t.Fatal(err)
	}
	arc := &powerArchive{d: d}
	// The Syncer syncs often, so that cuts fall between, in and right
	// after syncs, with a few completions between two syncs.
	sy, err := NewSyncer(SyncConfig{Interval: 100 * time.Microsecond, Every: every}, arc, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	d.onCut = func() { st.powerCut(arc) }
	f := &fakeFetcher{web: web}
	c, err := New(Config{Workers: 4, Scope: scope.Decider{MaxDepth: 100}},
		Parts{Queue: sy.Queue(q), Archive: arc, Fetcher: f, Gate: fakeGate{}, Detector: fakeDetector{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seed([]string{"http://s0.test/0"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	synced := make(chan error, 1)
	go func() { synced <- sy.Run(ctx) }()
	_, runErr := c.Run(ctx)
	cancel()
	<-synced
	q.Close()
	if !d.cut {
		t.Fatalf("the crawl ended (%v) before the power cut at disk operation %d of %d", runErr, at, d.ops)
	}

	q2, err := frontier.Open("", &frontier.Options{Storage: st.reboot(t)})
	if err != nil {
		t.Fatalf("frontier after the power cut: %v", err)
	}
	defer q2.Close()
	kept := map[string]bool{}
	for _, u := range arc.kept {
		kept[u] = true
	}
	complete := 0
	for _, u := range all {
		_, done, err := q2.History(u)
		if err != nil {
			t.Fatal(err)
		}
		if !done {
			continue
		}
		complete++
		if !kept[u] {
			t.Errorf("cut at disk operation %d: %s is complete in the frontier, but its records were lost", at, u)
		}
	}
	return complete
}

// recorder is a Syncable and a Queue that log what they are asked to do.
type recorder struct {
	Queue
	name string
	mu   *sync.Mutex
	log  *[]string
	hook func() // run inside Sync
}

func (r *recorder) Sync() error {
	r.mu.Lock()
	*r.log = append(*r.log, r.name+".Sync")
	r.mu.Unlock()
	if r.hook != nil {
		r.hook()
	}
	return nil
}

func (r *recorder) Complete(*frontier.Lease, frontier.Completion) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.log = append(*r.log, "Complete")
	return nil
}

// TestSyncerOrder checks the order a group commit keeps, step by step: the
// WARC file before the journal, and no completion between the two.
func TestSyncerOrder(t *testing.T) {
	{
		var mu sync.Mutex
		var log []string
		arc := &recorder{name: "archive", mu: &mu, log: &log}
		q := &recorder{name: "queue", mu: &mu, log: &log}
		clog := &recorder{name: "crawllog", mu: &mu, log: &log}
		sy, err := NewSyncer(SyncConfig{}, arc, q, clog)
		if err != nil {
			t.Fatal(err)
		}
		sq := sy.Queue(q)
		done := make(chan error, 1)
		arc.hook = func() {
			// A worker completes a lease while the WARC file is synced:
			// it must wait until the journal is synced too. (Its wait on
			// the gate is not one synctest sees, hence yields: without
			// the gate it gets in first nearly every time.)
			go func() { done <- sq.Complete(&frontier.Lease{}, frontier.Completion{}) }()
			for range 100 {
				runtime.Gosched()
			}
		}
		if err := sy.Sync(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		want := "archive.Sync queue.Sync crawllog.Sync Complete"
		if got := strings.Join(log, " "); got != want && got != "archive.Sync queue.Sync Complete crawllog.Sync" {
			t.Errorf("group commit did %s, want %s", got, want)
		}

		// Every: each completion is bracketed by the two syncs.
		log = nil
		arc.hook = nil
		sy, _ = NewSyncer(SyncConfig{Every: true}, arc, q, nil)
		if err := sy.Queue(q).Complete(&frontier.Lease{}, frontier.Completion{}); err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Join(log, " "), "archive.Sync Complete queue.Sync"; got != want {
			t.Errorf("sync at every completion did %s, want %s", got, want)
		}

	}

	// Run syncs on its ticker and once more when stopped.
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var log []string
		arc := &recorder{name: "archive", mu: &mu, log: &log}
		q := &recorder{name: "queue", mu: &mu, log: &log}
		sy, _ := NewSyncer(SyncConfig{Interval: time.Second}, arc, q, nil)
		ctx, cancel := context.WithCancel(context.Background())
		ran := make(chan error, 1)
		go func() { ran <- sy.Run(ctx) }()
		time.Sleep(2500 * time.Millisecond) // fake time: two ticks
		synctest.Wait()
		cancel()
		if err := <-ran; err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(strings.Join(log, " "), "archive.Sync"); n != 3 {
			t.Errorf("Run synced %d times in 2.5s and at the stop, want 3: %v", n, log)
		}
	})
}
