package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/syndtr/goleveldb/leveldb/storage"
)

// TestFetchConfigPaced checks the wiring of a bandwidth limit into the
// client: with a limit, every read goes through the manager's pacer, on
// connections with its receive buffer (bandwidth.receive_buffer when set);
// without one, no pacer at all (a nil interface, not a nil *Pacer).
func TestFetchConfigPaced(t *testing.T) {
	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage()})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	prof := filepath.Join(t.TempDir(), "p.yaml")
	base := "seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\n"
	for _, tc := range []struct {
		yaml       string
		paced      bool
		readBuffer int
	}{
		{"", false, 0},
		{"bandwidth:\n  limit: 1MB\n", true, 3906},
		{"bandwidth:\n  limit: 1MB\n  receive_buffer: 256KiB\n", true, 256 << 10},
	} {
		if err := os.WriteFile(prof, []byte(base+tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load(prof, nil)
		if err != nil {
			t.Fatal(err)
		}
		bw, err := newBandwidth(cfg, q)
		if err != nil {
			t.Fatal(err)
		}
		fc := fetchConfig(cfg, bw)
		if (fc.Pacer != nil) != tc.paced || fc.ReadBuffer != tc.readBuffer {
			t.Errorf("profile %q: pacer %v, receive buffer %d; want paced %v, %d", tc.yaml, fc.Pacer, fc.ReadBuffer, tc.paced, tc.readBuffer)
		}
		if tc.paced && fc.Pacer != bw.Pacer() {
			t.Errorf("profile %q: the client's pacer is not the manager's", tc.yaml)
		}
	}
}
