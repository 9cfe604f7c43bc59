package frontier

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// damageURL is the i-th URL a damage test queues: long enough that its
// records fill several of the journal's 32 KiB blocks.
func damageURL(i int) string {
	return fmt.Sprintf("http://a.example/%04d/%s", i, strings.Repeat("x", 80))
}

// pushURLs opens the frontier in dir, pushes the URLs from to to-1 of
// damageURL, each in a write of its own, and closes it.
func pushURLs(t *testing.T, dir string, from, to int) {
	t.Helper()
	q, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := from; i < to; i++ {
		if _, err := q.Push(Entry{URL: damageURL(i), Site: "a.example"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
}

// journalWithURLs makes a frontier in a new directory holding n URLs,
// each pushed in a write of its own and all still in the journal, and
// returns the directory and the journal's path.
func journalWithURLs(t *testing.T, n int) (dir, journal string) {
	t.Helper()
	dir = t.TempDir()
	pushURLs(t, dir, 0, n)
	logs, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil || len(logs) != 1 {
		t.Fatalf("journals in %s: %v (%v), want one", dir, logs, err)
	}
	return dir, logs[0]
}

// seenCount opens dir with opts and counts the URLs of journalWithURLs
// that it holds; it also returns whether the last one is there, and
// Damage.
func seenCount(t *testing.T, dir string, n int, opts *Options) (count int, last bool, damage []string) {
	t.Helper()
	q, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for i := range n {
		ok, err := q.Seen(damageURL(i))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			count++
			last = i == n-1
		}
	}
	return count, last, q.Damage()
}

// dirFiles lists the names and contents of dir's files but LOG, which
// every open writes.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := make(map[string][]byte)
	for _, e := range ents {
		if e.Name() == "LOG" || e.Name() == "LOG.old" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

// TestJournalDamageRefused: a journal damaged in its middle (one flipped
// byte in its second block, whole records after it) is refused, naming
// the file and the offsets, and the directory is left as it was. Before,
// LevelDB's lenient replay dropped the block's records without a word:
// URLs queued there were lost for good (a failure review). With
// AcceptDamage the frontier opens without them and Damage says so.
func TestJournalDamageRefused(t *testing.T) {
	const n = 1500
	dir, journal := journalWithURLs(t, n)
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 4*blockSize {
		t.Fatalf("journal holds %d bytes, want four blocks at least", len(data))
	}
	data[blockSize+200] ^= 0x40
	if err := os.WriteFile(journal, data, 0o644); err != nil {
		t.Fatal(err)
	}
	before := dirFiles(t, dir)

	_, err = Open(dir, nil)
	t.Log(err)
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("Open of a journal damaged in its middle: %v, want ErrDamaged", err)
	}
	for _, want := range []string{journal, "checksum mismatch", "nothing was changed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	// The record holding the flipped byte, and the next whole one.
	m := regexp.MustCompile(`from offset (\d+) do not read .*whole records follow from offset (\d+)`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("error %q does not give the offsets", err)
	}
	at, _ := strconv.Atoi(m[1])
	next, _ := strconv.Atoi(m[2])
	if flip := blockSize + 200; at > flip || at < flip-2*len(damageURL(0)) || next <= flip || next > flip+2*len(damageURL(0)) {
		t.Errorf("damage said from %d, whole records from %d; the flipped byte is at %d", at, next, flip)
	}
	after := dirFiles(t, dir)
	if len(after) != len(before) {
		t.Errorf("refused open changed the files: %d before, %d after", len(before), len(after))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("refused open changed %s", name)
		}
	}

	count, last, damage := seenCount(t, dir, n, &Options{AcceptDamage: true})
	if count >= n || count < n/2 || !last {
		t.Errorf("accepted damage: %d of %d URLs kept (last kept: %v), want the damaged block's lost and the rest kept", count, n, last)
	}
	if len(damage) != 1 || !strings.Contains(damage[0], "whole records follow") {
		t.Errorf("Damage() = %q, want the one damage in the journal's middle", damage)
	}
	// The accepted open replayed the journal into a table: the next
	// open finds nothing wrong, and keeps what the first one kept.
	count2, _, damage2 := seenCount(t, dir, n, nil)
	if count2 != count || len(damage2) != 0 {
		t.Errorf("open after the accepted one: %d URLs, damage %q; want %d and none", count2, damage2, count)
	}
}

// TestJournalCutEndOpens: a journal cut at its end, as a crash or a power
// failure cuts its last write (part of a record, or a tail the file
// system filled with zeros), opens without AcceptDamage, losing the cut
// record only, and Damage says what was dropped.
func TestJournalCutEndOpens(t *testing.T) {
	const n = 600
	for _, tc := range []struct {
		name string
		cut  func([]byte) []byte
	}{
		{"part of the last record", func(b []byte) []byte { return b[:len(b)-40] }},
		{"the last record's header", func(b []byte) []byte { return b[:len(b)-(len(damageURL(0))+60)] }},
		{"zeros after the last record", func(b []byte) []byte { return append(b, make([]byte, 5000)...) }},
		{"zeros over the last record", func(b []byte) []byte { clear(b[len(b)-30:]); return b }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, journal := journalWithURLs(t, n)
			data, err := os.ReadFile(journal)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(journal, tc.cut(slices.Clone(data)), 0o644); err != nil {
				t.Fatal(err)
			}
			count, _, damage := seenCount(t, dir, n, nil)
			if count < n-2 {
				t.Errorf("%d of %d URLs kept, want all but the cut one", count, n)
			}
			if len(damage) != 1 || !strings.Contains(damage[0], "cut by a crash") {
				t.Errorf("Damage() = %q, want the one cut end", damage)
			}
		})
	}
}

// TestJournalWholeNoDamage: a journal that reads whole reports nothing.
func TestJournalWholeNoDamage(t *testing.T) {
	dir, _ := journalWithURLs(t, 300)
	count, last, damage := seenCount(t, dir, 300, nil)
	if count != 300 || !last || len(damage) != 0 {
		t.Errorf("whole journal: %d of 300 URLs, Damage() = %q; want all and none", count, damage)
	}
}
