package frontier

import (
	"bytes"
	"reflect"
	"testing"
	"time"
)

// FuzzEntry checks that stored entries round-trip and that decoding any
// bytes fails cleanly rather than panicking.
func FuzzEntry(f *testing.F) {
	f.Add("http://a/x", "a", "LLE", "http://a/", uint32(3), uint8(1), true, int64(1700000000123456789))
	f.Add("", "", "", "", uint32(0), uint8(0), false, int64(0))
	f.Add("http://ไทย.example/", "t", "\x00\xff", "v", uint32(1<<31), uint8(255), false, int64(-5))
	f.Fuzz(func(t *testing.T, url, tree, hops, via string, depth uint32, prio uint8, req bool, nanos int64) {
		in := Entry{URL: url, Site: "s", Tree: tree, Depth: int(depth), Priority: Priority(prio),
			Requisite: req, Via: via, Hops: hops}
		if depth%2 == 1 { // version 2: with the scope rule that admitted it
			in.Scope = "seed:host:" + tree
		}
		in.Recut = prio%2 == 1 // bit 2 of the requisite byte
		if nanos != 0 {
			in.Discovered = time.Unix(0, nanos).UTC()
		}
		b := encodeEntry(nil, &in)
		out, err := decodeEntry(b, "s")
		if err != nil {
			t.Fatalf("decode %x: %v", b, err)
		}
		if !reflect.DeepEqual(in, out) {
			t.Fatalf("round trip\n got %+v\nwant %+v", out, in)
		}
		// Every truncation must fail, never panic.
		for i := range len(b) {
			if _, err := decodeEntry(b[:i], "s"); err == nil {
				t.Fatalf("truncated at %d of %d decoded without error", i, len(b))
			}
		}
		// Arbitrary bytes (the URL as a record) must not panic.
		decodeEntry([]byte(url), "s")
		decodeHistory([]byte(url))
		decodeSite([]byte(url))
		decodeMeta([]byte(url))
		decodeCounts([]byte(url))
	})
}

func FuzzHistory(f *testing.F) {
	f.Add(int64(1700000000000000000), 200, "sha1:X", `"e"`, "Mon")
	f.Add(int64(0), -1, "", "", "")
	f.Fuzz(func(t *testing.T, nanos int64, status int, digest, etag, lm string) {
		in := History{Status: status, Digest: digest, ETag: etag, LastModified: lm}
		if nanos != 0 {
			in.Fetched = time.Unix(0, nanos).UTC()
		}
		out, err := decodeHistory(encodeHistory(&in))
		if err != nil || !reflect.DeepEqual(in, out) {
			t.Fatalf("round trip = %+v, %v; want %+v", out, err, in)
		}
	})
}

// TestQueueKeyOrder checks that byte order of queue keys is the order the
// package doc promises: site, then priority, depth and sequence.
func TestQueueKeyOrder(t *testing.T) {
	keys := [][]byte{
		queueKey("a", High, 0, 9),
		queueKey("a", High, 1, 0),
		queueKey("a", High, 256, 0),
		queueKey("a", Low, 0, 0),
		queueKey("a", Low, 0, 1),
		queueKey("a", Low, 0, 256),
		queueKey("a.b", High, 0, 0), // a site that extends another's name sorts after all of it
		queueKey("ab", High, 0, 0),
	}
	for i := 1; i < len(keys); i++ {
		if bytes.Compare(keys[i-1], keys[i]) >= 0 {
			t.Errorf("key %d %q does not sort before key %d %q", i-1, keys[i-1], i, keys[i])
		}
	}
	if !bytes.HasPrefix(queueKey("a", Low, 3, 4), queuePrefix("a")) || bytes.HasPrefix(queueKey("ab", Low, 0, 0), queuePrefix("a")) {
		t.Error("queuePrefix does not delimit a site")
	}
}

// TestCountsEncoding: counters round-trip with and without the sequential
// verdict's evidence, records of the paper's strategies keep two varints,
// a record written before evidence was kept reads as zero evidence, and one
// written before probes were counted reads as zero probes.
func TestCountsEncoding(t *testing.T) {
	tests := []struct {
		in   Counts
		size int // encoded bytes
	}{
		{Counts{}, 2},
		{Counts{Downloaded: 11, Relevant: 0}, 2},
		{Counts{Downloaded: 300, Relevant: 299}, 4},
		{Counts{Downloaded: 2, Evidence: -4601}, 5},
		{Counts{Downloaded: 1, Relevant: 1, Evidence: 6020, Home: true}, 5},
		{Counts{Downloaded: 1, Home: true}, 4},
		{Counts{Downloaded: 12, Evidence: -3400, Home: true, Probes: 1}, 6},
		{Counts{Downloaded: 3, Probes: 1}, 5},
		{Counts{Downloaded: 4, Evidence: 2300, SelfLinks: true}, 5},
		{Counts{Downloaded: 4, SelfLinks: true, Probes: 2, Home: true}, 5},
		{Counts{Downloaded: 11, Rechecked: 2, RecheckTries: 1}, 6},
		{Counts{Downloaded: 11, Rechecked: 2, RecheckTries: 3, RecheckDone: true}, 6},
		{Counts{Downloaded: 12, Evidence: -3400, Home: true, Probes: 1, Rechecked: 300, RecheckTries: 2}, 9},
		{Counts{Downloaded: 12, RecheckDone: true}, 4},
		{Counts{Downloaded: 3, Evidence: 6080, Close: 3}, 6},
		{Counts{Downloaded: 4, Evidence: 5300, Close: 1, PageEvidence: -1570}, 8},
		{Counts{Downloaded: 12, Relevant: 1, Home: true, Probes: 1, Rechecked: 2, RecheckTries: 1, Close: 200}, 9},
	}
	for _, tt := range tests {
		b := encodeCounts(tt.in)
		if len(b) != tt.size {
			t.Errorf("encodeCounts(%+v) = %d bytes, want %d", tt.in, len(b), tt.size)
		}
		got, err := decodeCounts(b)
		if err != nil || got != tt.in {
			t.Errorf("round trip of %+v = %+v, %v", tt.in, got, err)
		}
	}
	old := []byte{5, 2} // N_a 5, N_r 2, as written before
	if got, err := decodeCounts(old); err != nil || got != (Counts{Downloaded: 5, Relevant: 2}) {
		t.Errorf("old record = %+v, %v", got, err)
	}
	if _, err := decodeCounts([]byte{5, 2, 0x80}); err == nil {
		t.Error("a cut evidence varint decoded without error")
	}
	if _, err := decodeCounts([]byte{5, 2, 0, 2}); err == nil {
		t.Error("a record whose flags promise probes but hold none decoded without error")
	}
}
