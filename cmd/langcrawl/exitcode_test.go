package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/config"
)

// TestCrawlBadProfileExits2 checks README's promise for a bad profile: the
// crawl does not start, exits 2, lists every problem with its key, and
// writes nothing into --out.
func TestCrawlBadProfileExits2(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	stderr, code := crawlChild(t, out, "workers: -1\ndelay: soon\nwrkers: 3\n")
	if code != 2 {
		t.Fatalf("bad profile: exit %d, want status 2\n%s", code, stderr)
	}
	// Each problem on a line of its own that starts with its key (the
	// unknown key's hint names workers too, so a bare search for
	// "workers" would not miss a lost workers problem).
	for _, key := range []string{"workers: -1", "delay: soon", "wrkers: unknown key"} {
		if !strings.Contains(stderr, "\n  "+key) {
			t.Errorf("stderr does not list %q:\n%s", key, stderr)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a crawl with a bad profile created %s (%v)", out, err)
	}
}

// crawlChild runs `langcrawl crawl --profile` on a profile with text
// (seeds, user_agent and out added), in a child process as an operator
// would, and returns its stderr and exit status.
func crawlChild(t *testing.T, out, text string) (string, int) {
	t.Helper()
	return langcrawlChild(t, "crawl --profile "+childProfile(t, out, text))
}

// childProfile writes a profile with text, seeds, user_agent and out
// added, and returns its path.
func childProfile(t *testing.T, out, text string) string {
	t.Helper()
	profile := filepath.Join(t.TempDir(), "p.yaml")
	text = "seeds: [\"http://a.test/\"]\nout: " + out + "\nuser_agent: \"t/1 (+https://example.org/t)\"\n" + text
	if err := os.WriteFile(profile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return profile
}

// langcrawlChild runs langcrawl with args (split at spaces) in a child
// process and returns its stderr and exit status.
func langcrawlChild(t *testing.T, args string) (string, int) {
	t.Helper()
	var stderr bytes.Buffer
	child := exec.Command(os.Args[0], "-test.run=^TestHelperLangcrawl$")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS="+args)
	child.Stderr = &stderr
	err := child.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return stderr.String(), exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return stderr.String(), 0
}

// TestVersion: `langcrawl version` and `langcrawl --version` print the
// build's version (README, "Commands") and exit 0; it is the same string
// the WARC's warcinfo record names (software).
func TestVersion(t *testing.T) {
	for _, args := range []string{"version", "--version"} {
		var stdout, stderr bytes.Buffer
		child := exec.Command(os.Args[0], "-test.run=^TestHelperLangcrawl$")
		child.Env = append(os.Environ(), "E2E_CHILD_ARGS="+args)
		child.Stdout, child.Stderr = &stdout, &stderr
		if err := child.Run(); err != nil {
			t.Fatalf("langcrawl %s: %v\n%s", args, err, stderr.String())
		}
		want := "langcrawl " + buildVersion()
		if got := strings.TrimSpace(stdout.String()); !strings.HasPrefix(got, want) {
			t.Errorf("langcrawl %s printed %q, want %q", args, got, want)
		}
		t.Logf("langcrawl %s: %s", args, strings.TrimSpace(stdout.String()))
		if software() != "langcrawl/"+buildVersion() {
			t.Errorf("software() = %q", software())
		}
	}
}

// TestCrawlRefusesForeignOutDir: an --out that holds files but is no
// crawl's (here a folder with its own tmp/) is refused with exit 2 before
// anything in it is touched; a start empties tmp/ in a crawl's directory
// only.
func TestCrawlRefusesForeignOutDir(t *testing.T) {
	out := filepath.Join(t.TempDir(), "mine")
	keep := filepath.Join(out, "tmp", "important.txt")
	if err := os.MkdirAll(filepath.Dir(keep), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keep, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr, code := crawlChild(t, out, "")
	if code != 2 {
		t.Fatalf("foreign --out: exit %d, want status 2\n%s", code, stderr)
	}
	if !strings.Contains(stderr, out) || !strings.Contains(stderr, "holds tmp") || !strings.Contains(stderr, "not a langcrawl crawl") {
		t.Errorf("stderr does not name the directory and why:\n%s", stderr)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "precious" {
		t.Errorf("%s after the refused start: %q, %v", keep, b, err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 {
		t.Errorf("the refused start wrote into %s: %d entries", out, len(entries))
	}
}

// TestBadFlagExits2: a flag value that does not parse is a usage error,
// exit 2, as a bad profile value is.
func TestBadFlagExits2(t *testing.T) {
	for _, args := range [][]string{{"crawl", "--delay", "5"}, {"report", "--tolerance", "many"}, {"crawl", "--no-such-flag"}} {
		if code := run(args); code != 2 {
			t.Errorf("langcrawl %s: exit %d, want 2", strings.Join(args, " "), code)
		}
	}
}

// TestCheckOutDir: what an --out may hold before a crawl has made its
// frontier/. Someone's own files (a tmp/ a start would empty, a
// profile.yaml it would overwrite) are refused; a mounted volume's
// lost+found, dot files and what langcrawl itself writes first are not.
func TestCheckOutDir(t *testing.T) {
	for _, c := range []struct {
		entries []string // a trailing / makes a directory
		ok      bool
	}{
		{nil, true},
		{[]string{"tmp/"}, false},
		{[]string{"profile.yaml"}, false},
		{[]string{"notes.txt", "frontier/", "frontier/CURRENT"}, true},
		// An empty frontier/ is none (TestEmptiedFrontierRefused): the
		// notes are someone else's.
		{[]string{"notes.txt", "frontier/"}, false},
		{[]string{"frontier/"}, true}, // a start killed before its frontier opened
		{[]string{"lost+found/", ".DS_Store", ".gitkeep"}, true},
		{[]string{lockName, warcDir + "/", logDir + "/", demoProfileName, actionDir + "/"}, true},
		{[]string{lockName, "mine.warc.gz"}, false}, // a .lock (wacz takes one) is no crawl's proof
	} {
		dir := t.TempDir()
		for _, e := range c.entries {
			p := filepath.Join(dir, e)
			var err error
			if strings.HasSuffix(e, "/") {
				err = os.MkdirAll(p, 0o755)
			} else {
				err = os.WriteFile(p, nil, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := checkOutDir(dir); (err == nil) != c.ok {
			t.Errorf("%v: checkOutDir = %v, want ok %v", c.entries, err, c.ok)
		}
	}
	if err := checkOutDir(filepath.Join(t.TempDir(), "new")); err != nil {
		t.Errorf("a directory not made yet: %v", err)
	}
}

// TestConfigWarnsUnknownEnv: langcrawl config (and every command that
// loads a profile) names a LANGCRAWL_* variable that sets no key on
// stderr, and goes on.
func TestConfigWarnsUnknownEnv(t *testing.T) {
	t.Setenv("LANGCRAWL_WORKRES", "4")
	p := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(p, []byte("seeds: [http://a.example/]\nuser_agent: \"test/1 (+http://library.example/)\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := configCmd()
	var stdout, stderr strings.Builder
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs([]string{"--profile", p})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if want := "warning: LANGCRAWL_WORKRES sets no profile key (did you mean LANGCRAWL_WORKERS?); it is ignored\n"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
	}
	if !strings.Contains(stdout.String(), "workers: 16") {
		t.Errorf("config did not print the profile:\n%s", stdout.String())
	}
}

// TestFrontierCacheFromProfile: scheduling.frontier_cache reaches the
// frontier's block cache in whole MiB, rounded up, and its default is
// README's.
func TestFrontierCacheFromProfile(t *testing.T) {
	for _, c := range []struct {
		set  string
		want int
	}{{"", 256}, {"scheduling: {frontier_cache: 0}\n", 256}, {"scheduling: {frontier_cache: 100MB}\n", 96}, {"scheduling: {frontier_cache: 1GiB}\n", 1024}} {
		p := filepath.Join(t.TempDir(), "p.yaml")
		if err := os.WriteFile(p, []byte("seeds: [\"http://a.test/\"]\nuser_agent: \"t/1 (+https://example.org/t)\"\n"+c.set), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := frontierOptions(cfg).BlockCacheMB; got != c.want {
			t.Errorf("%q: block cache %d MiB, want %d", c.set, got, c.want)
		}
	}
	if got := frontierOptions(&config.Config{}).BlockCacheMB; got != 256 {
		t.Errorf("a Config made in code, cache unset: %d MiB, want 256", got)
	}
	p := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(p, []byte("seeds: [\"http://a.test/\"]\nuser_agent: \"t/1 (+https://example.org/t)\"\nscheduling: {frontier_cache: 10KB}\n"), 0o644)
	if _, err := config.Load(p, nil); err == nil || !strings.Contains(err.Error(), "scheduling.frontier_cache") {
		t.Errorf("frontier_cache 10KB: %v, want an error naming the key", err)
	}
}

// TestSharedTargetCharsetExits2: focus.charsets naming a charset that
// languages other than the target are written in (windows-1252 for Malay)
// is the operator's to fix, named with its key; Tamura's Thai charsets
// load.
func TestSharedTargetCharsetExits2(t *testing.T) {
	cfg := &config.Config{}
	cfg.Focus.Language, cfg.Focus.Charsets = "ms", []string{"windows-1252"}
	_, err := focusDetector(cfg, new(bytes.Buffer))
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "focus.charsets") || !strings.Contains(err.Error(), "windows-1252") {
		t.Errorf("err = %v, want a usage error naming focus.charsets and windows-1252", err)
	}
	cfg.Focus.Language, cfg.Focus.Charsets = "th", []string{"tis-620", "windows-874"}
	if _, err := focusDetector(cfg, new(bytes.Buffer)); err != nil {
		t.Errorf("th with tis-620, windows-874: %v", err)
	}
	// Several at once: each charset's problem on its own line under its
	// key, once, with no internal prefix (a re-run of the trial found the
	// second line without its key, a duplicate reported twice, and an
	// unknown charset under "focus:").
	cfg.Focus.Language, cfg.Focus.Charsets = "hr", []string{"windows-1250", "iso-8859-2", "windows-1250", "bogus-cs"}
	_, err = focusDetector(cfg, new(bytes.Buffer))
	msg := fmt.Sprint(err)
	if !errors.Is(err, errUsage) || strings.Count(msg, "focus.charsets: ") != 3 || strings.Count(msg, "windows-1250 is") != 1 ||
		strings.Contains(msg, "bad options") || !strings.Contains(msg, `focus.charsets: "bogus-cs"`) {
		t.Errorf("err = %v, want three lines under focus.charsets, windows-1250 once, bogus-cs named", err)
	}
}

// TestBadProfileListsUnknownTargetToo: README "Commands": "A bad profile
// exits 2 with every problem listed, each naming its key". The unknown
// target was reported only when it was the profile's sole problem: beside
// any other error (a bad delay) the run exited 2 without naming
// focus.language, so the operator fixed the listed problems and was
// refused again. (from a README trial)
func TestBadProfileListsUnknownTargetToo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	stderr, code := crawlChild(t, out, "delay: soon\nfocus: {language: xx}\n")
	if code != 2 {
		t.Fatalf("bad profile: exit %d, want 2\n%s", code, stderr)
	}
	for _, key := range []string{"delay: soon", "focus.language"} {
		if !strings.Contains(stderr, "\n  "+key) {
			t.Errorf("stderr does not list %q:\n%s", key, stderr)
		}
	}
}

// TestBadEnvValueNamed: README "Profiles": "a bad value set by a variable
// names it". A bad LANGCRAWL_FOCUS_LANGUAGE was reported as
// "focus.language (--target): ..." (no --target was given) or with no word
// of the variable, and LANGCRAWL_WORKERS=-4 as "workers: -4 must be ...",
// while the profile read focus.language: th and no workers. (from a
// README trial)
func TestBadEnvValueNamed(t *testing.T) {
	for _, tc := range []struct{ env, val, key string }{
		{"LANGCRAWL_FOCUS_LANGUAGE", "xx", "focus.language"},
		{"LANGCRAWL_FOCUS_LANGUAGE", "thai", "focus.language"},
		{"LANGCRAWL_WORKERS", "-4", "workers"},
	} {
		t.Run(tc.env+"="+tc.val, func(t *testing.T) {
			t.Setenv(tc.env, tc.val)
			out := filepath.Join(t.TempDir(), "out")
			stderr, code := crawlChild(t, out, "focus: {language: th}\n")
			if code != 2 {
				t.Fatalf("exit %d, want 2\n%s", code, stderr)
			}
			if !strings.Contains(stderr, "\n  "+tc.key+":") || !strings.Contains(stderr, "(from "+tc.env+", which overrides the profile)") {
				t.Errorf("the error does not name %s under %s:\n%s", tc.env, tc.key, stderr)
			}
			if strings.Contains(stderr, "--target") {
				t.Errorf("the error names --target, which was not given:\n%s", stderr)
			}
			if n := strings.Count(stderr, "\n  "+tc.key+":"); n != 1 {
				t.Errorf("%s said %d times:\n%s", tc.key, n, stderr)
			}
		})
	}
}

// TestConfigRefusesWhatCrawlRefuses: README's first crawl checks a
// profile with `langcrawl config`. It passed a seeds file with bad lines
// and a --previous that is no crawl, both of which the crawl refuses (a
// README trial); it now makes the crawl's checks before anything is made.
func TestConfigRefusesWhatCrawlRefuses(t *testing.T) {
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seeds, []byte("http://a.test/\nhttp://bad url/\nftp://x/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"seeds file", "seeds_file: " + seeds + "\n", "seeds.txt:2"},
		{"previous", "recrawl: {previous: " + filepath.Join(dir, "nonexistent") + "}\n", "recrawl.previous"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stderr, code := langcrawlChild(t, "config --profile "+childProfile(t, filepath.Join(t.TempDir(), "out"), tc.text))
			if code != 2 {
				t.Fatalf("config: exit %d, want 2\n%s", code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("config's error does not name %q:\n%s", tc.want, stderr)
			}
		})
	}
}

// TestDetectBadTargetExits2: `langcrawl detect` with a bad --target says
// each problem once, under the flag, and exits 2 as crawl does. A README
// trial found "thai" said twice, once unprefixed, and exit 1.
func TestDetectBadTargetExits2(t *testing.T) {
	page := filepath.Join(t.TempDir(), "p.html")
	if err := os.WriteFile(page, []byte("<p>x</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr, code := langcrawlChild(t, "detect --target thai,xx "+page)
	if code != 2 {
		t.Fatalf("detect --target thai,xx: exit %d, want 2\n%s", code, stderr)
	}
	for _, want := range []string{`--target: target "thai" is not an ISO 639-1 code`, `--target: no profile for target language "xx"`} {
		if strings.Count(stderr, want) != 1 {
			t.Errorf("stderr does not say %q once:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stderr, `"thai"`); n != 1 {
		t.Errorf(`"thai" said %d times:\n%s`, n, stderr)
	}
}
