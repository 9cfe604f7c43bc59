package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCollection: the collection (warcinfo's isPartOf) defaults to the base
// name of out, absolute or not, and a profile can name it.
func TestCollection(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "thai-2026")
	for _, tc := range []struct{ profile, want string }{
		{"out: " + abs + "\n", "thai-2026"},
		{"out: " + abs + "/\n", "thai-2026"},
		{"out: ./crawls/thai\n", "thai"},
		{"out: " + abs + "\ncollection: National web, spring 2026\n", "National web, spring 2026"},
	} {
		c, err := Load(writeProfile(t, tc.profile), nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Collection != tc.want {
			t.Errorf("%q: collection %q, want %q", tc.profile, c.Collection, tc.want)
		}
		if !strings.Contains(c.YAML(), "collection: ") {
			t.Errorf("%q: the resolved profile lacks the collection", tc.profile)
		}
	}
}
