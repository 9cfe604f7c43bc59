package config

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestReadmeKeyTable checks README.md's table of profile keys against Keys:
// the same keys, each with the default a crawl uses. An archivist reads
// the defaults there, so a key added or a default changed without the
// README fails here.
func TestReadmeKeyTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	const intro = "Every key, its default and its meaning:"
	i := strings.Index(text, intro)
	if i < 0 {
		t.Fatalf("README.md has no %q", intro)
	}
	documented := map[string]string{} // key -> default cell, backticks removed
	for _, line := range strings.Split(text[i+len(intro):], "\n")[1:] {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.ReplaceAll(strings.Trim(line, "|"), `\|`, "/"), "|")
		for c := range cells {
			cells[c] = strings.TrimSpace(cells[c])
		}
		if len(cells) < 3 || strings.HasPrefix(cells[0], "---") || cells[0] == "key" {
			continue
		}
		names := strings.Split(cells[0], ", ")
		defs := strings.Split(cells[1], ", ")
		if len(defs) != len(names) {
			defs = []string{cells[1]}
		}
		var first string
		for k, n := range names {
			n = strings.Trim(n, "`")
			if k == 0 {
				first = n
			} else if strings.HasPrefix(n, ".") { // "`adaptive_delay.min`, `.max`"
				n = first[:strings.LastIndex(first, ".")] + n
			}
			d := defs[min(k, len(defs)-1)]
			documented[n] = strings.Trim(strings.TrimSpace(d), "`")
		}
	}
	if len(documented) < 20 {
		t.Fatalf("read %d keys from README.md's table; the table's format changed", len(documented))
	}
	for _, k := range Keys {
		d, ok := documented[k.name]
		if !ok {
			t.Errorf("README.md's key table has no row for %s", k.name)
			continue
		}
		delete(documented, k.name)
		if k.name == "user_agent" {
			if d != "*(required)*" {
				t.Errorf("README.md gives user_agent the default %q; it is required", d)
			}
			continue
		}
		if want := readmeDefault(k.def); d != want {
			t.Errorf("README.md gives %s the default %q; the code's is %q", k.name, d, want)
		}
	}
	for n := range documented {
		t.Errorf("README.md documents %s, which is not a profile key", n)
	}
}

// readmeDefault is how README.md's key table writes the default v: an
// empty list as [], an empty map as {}, anything else as Go prints it.
func readmeDefault(v any) string {
	switch v := v.(type) {
	case []string:
		if len(v) == 0 {
			return "[]"
		}
	case map[string]any:
		if len(v) == 0 {
			return "{}"
		}
	case map[string]string:
		if len(v) == 0 {
			return "{}"
		}
	}
	return fmt.Sprint(v)
}
