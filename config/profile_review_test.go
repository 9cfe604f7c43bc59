package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScalarSectionNamed (from a review): a section written as a scalar (focus: 3) is a bad value of the key the
// operator wrote, focus; the error must name it, not list nine sub-keys
// the profile never set as "<nil>".
func TestScalarSectionNamed(t *testing.T) {
	for _, sec := range []string{"focus", "warc", "scope"} {
		_, _, err := loadText(t, sec+": 3\n")
		if err == nil {
			t.Fatalf("%s: 3 accepted", sec)
		}
		msg := err.Error()
		named := false
		for _, line := range strings.Split(msg, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), sec+":") {
				named = true
			}
		}
		if !named || strings.Contains(msg, "<nil>") {
			t.Errorf("%s: 3: the error does not name %s, or blames keys never set:\n%s", sec, sec, msg)
		}
	}
}

// TestTypoBesideNonStringKey (from a review). README, "Profiles": "Unknown keys are errors, so a typo is not silently
// ignored". A section that also holds a key YAML reads as no string (a
// number, a boolean) decodes as map[any]any, and unknownKeys skips it
// whole: the typo beside it was ignored, and the profile loaded.
func TestTypoBesideNonStringKey(t *testing.T) {
	c, _, err := loadText(t, "focus:\n  language: th\n  tolerence: 50\n  2: x\n")
	if err == nil || !strings.Contains(err.Error(), "tolerence") {
		t.Errorf("focus.tolerence (a typo) beside a key 2 loaded without an error naming it: err %v, tolerance %d", err, c.Focus.Tolerance)
	}
}

// TestUserAgentLineBreakNamed (from a review): a user_agent with a line break was refused only later, by the fetcher
// ("fetch: config UserAgent: must not contain line breaks", exit 1), after
// the start has made OUT/frontier, profile.yaml, profiles/ and logs/; and
// `langcrawl config` prints it as fine. README, "Commands": "A bad profile
// exits 2 with every problem listed, each naming its key, and writes
// nothing".
func TestUserAgentLineBreakNamed(t *testing.T) {
	// Not loadText, which writes a good user_agent of its own.
	prof := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(prof, []byte("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\\r\\nX-Evil: 1\"\n"), 0o644)
	_, err := Load(prof, nil)
	if err == nil || !strings.Contains(err.Error(), "user_agent") {
		t.Errorf("user_agent with a line break: Load = %v, want an error naming user_agent", err)
	}
}

// TestPrefixNULNamed (from a review), the same class: warc.prefix holding a NUL passed Load; the crawl then fetches
// robots.txt and stops at the first WARC file's create, "invalid argument",
// naming no key (exit 1).
func TestPrefixNULNamed(t *testing.T) {
	_, _, err := loadText(t, "warc: {prefix: \"a\\u0000b\"}\n")
	if err == nil || !strings.Contains(err.Error(), "warc.prefix") {
		t.Errorf("warc.prefix with a NUL: Load = %v, want an error naming warc.prefix", err)
	}
}
