package main

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/langcrawl/langcrawl/config"
)

// readmeFlagTable returns the rows of the README.md table whose header is
// header: flag name (without "--" and its argument) -> second cell.
func readmeFlagTable(t *testing.T, header string) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i := strings.Index(text, header)
	if i < 0 {
		t.Fatalf("README.md has no table %q", header)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(text[i:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 3 {
			t.Errorf("README.md table %q: a row of %d cells: %s", header, len(cells), line)
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[0]), "`")
		name, _, _ = strings.Cut(strings.TrimPrefix(name, "--"), " ")
		rows[name] = strings.Trim(strings.TrimSpace(cells[1]), "`")
	}
	return rows
}

// checkFlagNames compares the flags of cmd with the README's rows.
func checkFlagNames(t *testing.T, cmd *cobra.Command, rows map[string]string) {
	t.Helper()
	var flags []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			flags = append(flags, f.Name)
		}
	})
	var documented []string
	for n := range rows {
		documented = append(documented, n)
	}
	sort.Strings(flags)
	sort.Strings(documented)
	for _, f := range flags {
		if !slices.Contains(documented, f) {
			t.Errorf("README.md's table of %s flags has no row for --%s", cmd.Name(), f)
		}
	}
	for _, d := range documented {
		if !slices.Contains(flags, d) {
			t.Errorf("README.md documents --%s, which %s does not have", d, cmd.Name())
		}
	}
}

// TestReadmeCrawlFlags checks README.md's table of crawl flags: every flag
// and only those, each with the profile key it sets (config.FlagKeys).
func TestReadmeCrawlFlags(t *testing.T) {
	rows := readmeFlagTable(t, "| flag | key | meaning |")
	checkFlagNames(t, crawlCmd(), rows)
	for name, key := range rows {
		want := config.FlagKeys[name]
		if name == "seed" {
			want = "seeds" // added to the profile's seeds, not set (config.Load)
		}
		if key != want {
			t.Errorf("README.md says --%s sets %q; it sets %q", name, key, want)
		}
	}
}

// TestReadmeSimulateFlags checks README.md's table of simulate flags:
// every flag and only those, and each default written as a plain value.
func TestReadmeSimulateFlags(t *testing.T) {
	rows := readmeFlagTable(t, "| flag | default | meaning |")
	cmd := simulateCmd()
	checkFlagNames(t, cmd, rows)
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		d, ok := rows[f.Name]
		if !ok || strings.ContainsAny(d, " /") || d == "all" || d == "CPUs" || d == "memory" {
			return // described in words: "pages / 500", "0 (no limit)"
		}
		def := f.DefValue
		if f.Name == "tolerances" && def == "[]" {
			def = "10" // no value is T = 10 (simulate.Options.Tolerances)
		}
		if d != def {
			t.Errorf("README.md gives --%s the default %q; the command's is %q", f.Name, d, def)
		}
	})
}

// TestReadmeCitesTestsThatExist: every test, benchmark and fuzz test that
// README.md, BENCHMARKS.md and docs/ name in backquotes is a function in
// some _test.go file of the module. The first round deleted the focused
// crawl test while README still cited it; this catches the next one. A
// citation that names its package (`report.TestSequentialStatus`) must be
// defined in that package: a name two packages share is not enough.
func TestReadmeCitesTestsThatExist(t *testing.T) {
	defined := map[string]map[string]bool{} // test name -> directories (packages) that define it
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)\w+)\(`)
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != "../..") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
				if defined[m[1]] == nil {
					defined[m[1]] = map[string]bool{}
				}
				defined[m[1]][filepath.Base(filepath.Dir(path))] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{"../../README.md", "../../BENCHMARKS.md"}
	more, _ := filepath.Glob("../../docs/*.md")
	docs = append(docs, more...)
	more, _ = filepath.Glob("../../docs/*/*.md")
	docs = append(docs, more...)
	docs = append(docs, "../../simulate/RESULTS.md")
	cited := regexp.MustCompile("`(?:([a-z][a-z0-9]*)\\.)?((?:Test|Benchmark|Fuzz)[A-Z]\\w*)")
	n, qualified := 0, 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cited.FindAllStringSubmatch(string(b), -1) {
			n++
			pkg, name := m[1], m[2]
			switch {
			case len(defined[name]) == 0:
				t.Errorf("%s cites %s, which no _test.go file defines", filepath.Base(doc), name)
			case pkg != "" && !defined[name][pkg]:
				t.Errorf("%s cites %s.%s, which package %s does not define (defined in %v)", filepath.Base(doc), pkg, name, pkg, slices.Sorted(maps.Keys(defined[name])))
			case pkg != "":
				qualified++
			}
		}
	}
	if qualified == 0 {
		t.Error("found no citation of a test with its package (README cites report.TestSequentialStatus): the pattern is broken")
	}
	if n < 100 {
		t.Errorf("found %d citations of tests in the docs, want the hundreds README holds: the pattern is broken", n)
	}
}
