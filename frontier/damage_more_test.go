package frontier

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestJournalDamageInLastBlockRefused (from a review): one flipped byte in a journal's
// only (last) block, with whole records after it in that block. LevelDB
// drops the rest of the block at a bad checksum, so the checker sees no
// whole record after the damage and calls it "a write cut by a crash";
// the frontier opens without the flag and the URLs after the flip are
// gone. Every frontier whose journal is under 32 KiB (and the last block
// of every journal) has no protection at all.
func TestJournalDamageInLastBlockRefused(t *testing.T) {
	const n = 100 // about 13 KiB of records: one block
	dir, journal := journalWithURLs(t, n)
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) >= blockSize {
		t.Fatalf("journal holds %d bytes, want one block", len(data))
	}
	data[300] ^= 0x40 // in one of the first records
	if err := os.WriteFile(journal, data, 0o644); err != nil {
		t.Fatal(err)
	}
	q, err := Open(dir, nil)
	if err == nil {
		kept := 0
		for i := range n {
			if ok, _ := q.Seen(damageURL(i)); ok {
				kept++
			}
		}
		damage := q.Damage()
		q.Close()
		t.Fatalf("journal damaged at byte 300 with ~%d whole records after it in its block opened: %d of %d URLs kept, Damage() = %q; want ErrDamaged",
			n, kept, n, damage)
	}
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("Open: %v, want ErrDamaged", err)
	}
}

// TestJournalDamageInLastBlockOfLongJournalRefused (from a review): the same in the last
// block of a journal of several blocks.
func TestJournalDamageInLastBlockOfLongJournalRefused(t *testing.T) {
	const n = 1500
	dir, journal := journalWithURLs(t, n)
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	last := int64(len(data)-1) / blockSize * blockSize
	if int64(len(data))-last < 8000 {
		t.Fatalf("last block holds %d bytes only: the test needs whole records after the damage", int64(len(data))-last)
	}
	data[last+200] ^= 0x40
	if err := os.WriteFile(journal, data, 0o644); err != nil {
		t.Fatal(err)
	}
	q, err := Open(dir, nil)
	if err == nil {
		damage := q.Damage()
		q.Close()
		t.Fatalf("journal damaged at the start of its last block (%d bytes of whole records after) opened, Damage() = %q; want ErrDamaged",
			int64(len(data))-last-200, damage)
	}
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("Open: %v, want ErrDamaged", err)
	}
}

// TestReadHistoryRefusesDamagedJournal (from a review): ReadHistory (recrawl.previous,
// generation tools) opens the previous crawl's frontier with
// leveldb.OpenFile read-only, which replays the journal leniently: a
// journal damaged in its middle, which Open refuses, is read without a
// word and the histories in the damaged block are skipped, so the
// re-crawl takes their URLs for new ones.
func TestReadHistoryRefusesDamagedJournal(t *testing.T) {
	const n = 800
	dir := t.TempDir()
	q, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		u := damageURL(i)
		if err := q.SetHistory(u, History{URL: u, Status: 200, Fetched: time.Unix(1700000000, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	if len(logs) != 1 {
		t.Fatalf("journals: %v", logs)
	}
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 3*blockSize {
		t.Fatalf("journal holds %d bytes, want three blocks", len(data))
	}
	data[blockSize+200] ^= 0x40
	if err := os.WriteFile(logs[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, nil); !errors.Is(err, ErrDamaged) {
		t.Fatalf("Open: %v, want ErrDamaged (the premise)", err)
	}
	got := 0
	err = ReadHistory(dir, false, func(History) error { got++; return nil })
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("ReadHistory of a journal damaged in its middle: err %v, %d of %d histories read; want ErrDamaged", err, got, n)
	}
	// Accepted, it reads what is whole, and leaves the journal as it was.
	got = 0
	if err := ReadHistory(dir, true, func(History) error { got++; return nil }); err != nil || got >= n || got < n/2 {
		t.Errorf("ReadHistory accepting the damage: %v, %d of %d histories", err, got, n)
	}
	if after, err := os.ReadFile(logs[0]); err != nil || string(after) != string(data) {
		t.Errorf("ReadHistory changed the journal (%v)", err)
	}
}

// TestOlderJournalCutRefused (from a review): two live journals (LevelDB rotated
// to a new one before the older one's memtable reached a table), the
// older one cut at its end. Its records are older than those in the
// newer journal, so this is loss in the middle of the log, not "a write
// cut by a crash": a crash cuts the newest journal only, as damage.go
// says itself. The checker looked at each file alone and let it open.
func TestOlderJournalCutRefused(t *testing.T) {
	dir1 := t.TempDir()
	// Run 1: URLs 0..n-1, all in journal A.
	const n = 300
	pushURLs(t, dir1, 0, n)
	snap := dirFiles(t, dir1) // the state with A live and no table
	// Run 2: A is replayed into a table; URLs n..2n-1 go to journal B.
	pushURLs(t, dir1, n, 2*n)
	after := dirFiles(t, dir1)
	// A directory as LevelDB leaves it after rotating from A to B: the
	// manifest of run 1 (A live), A, and B.
	dir := t.TempDir()
	var a string
	for name, b := range snap {
		if strings.HasSuffix(name, ".log") {
			a = name
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b string
	for name, data := range after {
		if strings.HasSuffix(name, ".log") && snap[name] == nil {
			b = name
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if a == "" || b == "" {
		t.Fatalf("journals: run 1 %q, run 2 %q", a, b)
	}
	// Premise: whole, both journals replay.
	whole := t.TempDir()
	for _, e := range []string{dir} {
		ents, _ := os.ReadDir(e)
		for _, f := range ents {
			data, _ := os.ReadFile(filepath.Join(e, f.Name()))
			os.WriteFile(filepath.Join(whole, f.Name()), data, 0o644)
		}
	}
	if c, _, _ := seenCount(t, whole, 2*n, nil); c != 2*n {
		t.Fatalf("premise: the two journals hold %d of %d URLs", c, 2*n)
	}
	// Cut the older journal's last record.
	data := snap[a]
	if err := os.WriteFile(filepath.Join(dir, a), data[:len(data)-40], 0o644); err != nil {
		t.Fatal(err)
	}
	q, err := Open(dir, nil)
	if err == nil {
		lost := []string{}
		for i := range 2 * n {
			if ok, _ := q.Seen(damageURL(i)); !ok {
				lost = append(lost, fmt.Sprint(i))
			}
		}
		damage := q.Damage()
		q.Close()
		t.Fatalf("older journal %s cut at its end, newer %s whole: opened, URLs %v lost before newer ones kept, Damage() = %q; want ErrDamaged",
			a, b, lost, damage)
	}
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("Open: %v, want ErrDamaged", err)
	}
}

// TestTornMultiBlockRecordSaid (from a review): a kill between the write
// calls of one record spanning several blocks leaves the journal ending on
// a block boundary. It opens, and Damage names the cut record from its
// start to the end of the file; it said "its last 0 bytes" of the last
// block.
func TestTornMultiBlockRecordSaid(t *testing.T) {
	dir := t.TempDir()
	q, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if _, err := q.Push(Entry{URL: damageURL(i), Site: "a.example"}); err != nil {
			t.Fatal(err)
		}
	}
	// One large write: a history whose fields span three blocks.
	big := "http://a.example/big"
	if err := q.SetHistory(big, History{URL: big, Status: 200, ETag: strings.Repeat("e", 3*blockSize)}); err != nil {
		t.Fatal(err)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 3*blockSize {
		t.Fatalf("journal %d bytes", len(data))
	}
	// The kill came after the second block was written.
	if err := os.WriteFile(logs[0], data[:2*blockSize], 0o644); err != nil {
		t.Fatal(err)
	}
	q, err = Open(dir, nil)
	if err != nil {
		t.Fatalf("Open of a journal cut at a block boundary: %v", err)
	}
	defer q.Close()
	d := q.Damage()
	if len(d) != 1 {
		t.Fatalf("Damage() = %q, want the cut record", d)
	}
	m := regexp.MustCompile(`its last (\d+) bytes from offset (\d+) `).FindStringSubmatch(d[0])
	if m == nil {
		t.Fatalf("Damage() = %q, want the cut record's bytes and offset", d[0])
	}
	size, _ := strconv.Atoi(m[1])
	at, _ := strconv.Atoi(m[2])
	if at >= blockSize || at+size != 2*blockSize {
		t.Errorf("Damage() = %q: the cut record starts in the first block and runs to the end (%d bytes)", d[0], 2*blockSize)
	}
}

// TestTableDamageNamed (from a review, held): flipped bytes across a table file:
// Open fails naming the table and the checksum.
func TestTableDamageNamed(t *testing.T) {
	const n = 1500
	dir, _ := journalWithURLs(t, n)
	q, err := Open(dir, nil) // replays into a table
	if err != nil {
		t.Fatal(err)
	}
	q.Close()
	tables, _ := filepath.Glob(filepath.Join(dir, "*.ldb"))
	data, _ := os.ReadFile(tables[0])
	for o := 100; o < len(data)-200; o += 3000 {
		data[o] ^= 0x40
	}
	os.WriteFile(tables[0], data, 0o644)
	_, err = Open(dir, nil)
	if err == nil || !strings.Contains(err.Error(), "checksum mismatch") || !strings.Contains(err.Error(), filepath.Base(tables[0])) {
		t.Errorf("Open of a damaged table: %v", err)
	}
}

// TestJournalEdges (from a review, held): damage in the first block with
// whole records after is refused; an empty journal opens with no damage,
// and one of zeros only opens as a cut end.
func TestJournalEdges(t *testing.T) {
	dir, journal := journalWithURLs(t, 600)
	data, _ := os.ReadFile(journal)
	data[100] ^= 0x40
	os.WriteFile(journal, data, 0o644)
	if _, err := Open(dir, nil); !errors.Is(err, ErrDamaged) {
		t.Errorf("first block damaged: %v, want ErrDamaged", err)
	}
	for name, body := range map[string][]byte{"empty": nil, "zeros": make([]byte, 40000)} {
		dir, journal := journalWithURLs(t, 10)
		os.WriteFile(journal, body, 0o644)
		q, err := Open(dir, nil)
		if err != nil {
			t.Errorf("%s journal: %v", name, err)
			continue
		}
		if d := q.Damage(); (name == "empty") != (len(d) == 0) {
			t.Errorf("%s journal: Damage() = %q", name, d)
		}
		q.Close()
	}
}
