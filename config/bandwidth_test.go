package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBandwidthKeys(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "p.yaml")
	base := "seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\n"
	os.WriteFile(prof, []byte(base), 0o644)
	c, err := Load(prof, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Bandwidth.Limit != 0 || c.Bandwidth.SearchDepth != 6 || c.Bandwidth.DefaultRate != 50_000 || c.Scheduling.Order != "length" ||
		c.Scheduling.SeenCache != 1<<17 {
		t.Errorf("defaults: %+v %+v", c.Bandwidth, c.Scheduling)
	}
	os.WriteFile(prof, []byte(base+"bandwidth:\n  limit: 140KB\n  search_depth: 2\n  receive_buffer: 256KiB\nscheduling:\n  order: breadth\n  seen_cache: 4000000\n"), 0o644)
	if c, err = Load(prof, nil); err != nil {
		t.Fatal(err)
	}
	if c.Bandwidth.Limit != 140_000 || c.Bandwidth.SearchDepth != 2 || c.Bandwidth.ReceiveBuffer != 256<<10 || c.Scheduling.Order != "breadth" ||
		c.Scheduling.SeenCache != 4_000_000 {
		t.Errorf("set: %+v %+v", c.Bandwidth, c.Scheduling)
	}
	if !strings.Contains(c.YAML(), "order: breadth") {
		t.Errorf("YAML() lacks the order:\n%s", c.YAML())
	}
	os.WriteFile(prof, []byte(base+"bandwidth:\n  search_depth: -1\n  default_rate: -5\n  receive_buffer: -1\nscheduling:\n  order: pagerank\n  seen_cache: -1\n"), 0o644)
	_, err = Load(prof, nil)
	for _, key := range []string{"bandwidth.search_depth:", "bandwidth.default_rate:", "bandwidth.receive_buffer:", "scheduling.order:", "scheduling.seen_cache:"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("error does not name %s: %v", key, err)
		}
	}
}
