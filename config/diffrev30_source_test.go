package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestDiffRev30EmptyEnvNotBlamed: LANGCRAWL_WORKERS set but empty is
// ignored by viper (AllowEmptyEnv is off), so workers: -4 is the
// profile's own; the error must not say it came from the variable.
// (from a diff review of the thirtieth session)
func TestDiffRev30EmptyEnvNotBlamed(t *testing.T) {
	t.Setenv("LANGCRAWL_WORKERS", "")
	c, _, err := loadText(t, "workers: -4\n")
	if err == nil {
		t.Fatalf("workers: -4 accepted (workers %d)", c.Workers)
	}
	if !strings.Contains(err.Error(), "workers: -4") {
		t.Fatalf("error does not say the profile's -4: %v", err)
	}
	if strings.Contains(err.Error(), "from LANGCRAWL_WORKERS") {
		t.Errorf("the profile's value is said to come from an empty LANGCRAWL_WORKERS, which set nothing:\n%v", err)
	}
}

// TestDiffRev30ConnectToFlagNotBlamed: --connect-to is merged into the
// profile's network.connect_to entry by entry; a bad key written in the
// profile is the profile's, not the flag's.
// (from a diff review of the thirtieth session)
func TestDiffRev30ConnectToFlagNotBlamed(t *testing.T) {
	p := filepath.Join(t.TempDir(), "p.yaml")
	text := "seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\nnetwork:\n  connect_to:\n    \"*.bad.test\": 127.0.0.1:1\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := pflag.NewFlagSet("crawl", pflag.ContinueOnError)
	AddFlags(fs)
	if err := fs.Parse([]string{"--connect-to", "a.test=127.0.0.1:2"}); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p, fs)
	if err == nil || !strings.Contains(err.Error(), "*.bad.test") {
		t.Fatalf("the profile's bad connect_to key is not said: %v", err)
	}
	if strings.Contains(err.Error(), "from --connect-to") {
		t.Errorf("the profile's bad key *.bad.test is said to come from --connect-to, which gave a.test only:\n%v", err)
	}
}

// TestEmptyEnvLeavesDerivedDefault: an empty variable sets nothing, so a
// default derived from another key still applies: with focus.tolerance 3
// and LANGCRAWL_FOCUS_TOLERANCE_FLOOR empty, the floor is 3 (the default
// 5 never lifts a small T). explicit took the empty variable for a value
// set, and kept the floor at 5, above T. (from a diff review of the
// thirtieth session, which noticed the pattern)
func TestEmptyEnvLeavesDerivedDefault(t *testing.T) {
	t.Setenv("LANGCRAWL_FOCUS_TOLERANCE_FLOOR", "")
	c, _, err := loadText(t, "focus:\n  tolerance: 3\n")
	if err != nil {
		t.Fatal(err)
	}
	if c.Focus.Floor != 3 {
		t.Errorf("focus.tolerance_floor = %d with an empty LANGCRAWL_FOCUS_TOLERANCE_FLOOR and tolerance 3, want 3 (the default lowered to T)", c.Focus.Floor)
	}
}
