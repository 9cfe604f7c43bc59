package frontier

import (
	"errors"
	"testing"
	"time"
)

func TestRequeueHeadWaitsForSite(t *testing.T) {
	q := openMem(t)
	mustPush(t, q, ent("a.test", "1", 0, High), ent("a.test", "2", 0, High))
	l := mustNext(t, q, t0)
	e := l.Entry
	e.Tries, e.RetryAt = 1, t0.Add(time.Minute)
	if err := q.Requeue(l, Deferral{Entry: e, NotBefore: e.RetryAt, Usage: Usage{Fetches: 1, Bytes: 10}}); err != nil {
		t.Fatal(err)
	}
	if l, wait, err := q.Next(t0.Add(time.Second)); err != nil || l != nil || wait != time.Minute-time.Second {
		t.Fatalf("Next before the retry time = %v, %v, %v; want no lease and a wait of 59s", l, wait, err)
	}
	l = mustNext(t, q, t0.Add(time.Minute))
	if l.Entry.URL != e.URL || l.Entry.Tries != 1 || !l.Entry.RetryAt.Equal(e.RetryAt) {
		t.Fatalf("leased %+v, want %s with its try and retry time", l.Entry, e.URL)
	}
	if u := q.Stats().Usage; u.Fetches != 1 || u.Bytes != 10 {
		t.Fatalf("usage = %+v", u)
	}
}

func TestRequeueTailLetsSiteGoOn(t *testing.T) {
	q := openMem(t)
	mustPush(t, q, ent("a.test", "1", 0, High), ent("a.test", "2", 1, Low), ent("a.test", "3", 2, Low))
	l := mustNext(t, q, t0)
	e := l.Entry
	e.Tries = 1
	if err := q.Requeue(l, Deferral{Entry: e, Tail: true, NotBefore: t0}); err != nil {
		t.Fatal(err)
	}
	if got := drain(t, q, t0); len(got) != 3 || got[2] != "http://a.test/1" {
		t.Fatalf("order after a tail requeue = %v, want the failed URL last", got)
	}
}

func TestRequeueSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	mustPush(t, q, ent("a.test", "1", 0, High))
	l := mustNext(t, q, t0)
	e := l.Entry
	e.Tries, e.RetryAt = 3, t0.Add(time.Hour)
	if err := q.Requeue(l, Deferral{Entry: e, NotBefore: e.RetryAt, Usage: Usage{Fetches: 2, Elapsed: time.Minute}}); err != nil {
		t.Fatal(err)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	q = openDir(t, dir)
	defer q.Close()
	if l, _, err := q.Next(t0); err != nil || l != nil {
		t.Fatalf("the site's retry delay was lost across a restart: %v, %v", l, err)
	}
	l = mustNext(t, q, t0.Add(time.Hour))
	if l.Entry.Tries != 3 || !l.Entry.RetryAt.Equal(e.RetryAt) {
		t.Fatalf("entry after restart = %+v, want Tries 3 and RetryAt kept", l.Entry)
	}
	if u := q.Stats().Usage; u.Fetches != 2 || u.Elapsed != time.Minute {
		t.Fatalf("usage after restart = %+v", u)
	}
}

func TestRequeueChecksEntry(t *testing.T) {
	q := openMem(t)
	mustPush(t, q, ent("a.test", "1", 0, High))
	l := mustNext(t, q, t0)
	e := l.Entry
	e.URL = "http://a.test/other"
	if err := q.Requeue(l, Deferral{Entry: e}); !errors.Is(err, ErrInvalidEntry) {
		t.Fatalf("Requeue with another URL = %v, want ErrInvalidEntry", err)
	}
	if err := q.Requeue(l, Deferral{Entry: l.Entry}); err != nil {
		t.Fatalf("the lease must stay outstanding after a refused Requeue: %v", err)
	}
}
