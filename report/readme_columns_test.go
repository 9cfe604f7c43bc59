package report

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeCSVColumns: every column README's table of report files names
// (a snake_case word in backquotes on a CSV file's row) is a column of that
// file as WriteFiles writes it, so the table cannot name a column that was
// renamed or never written.
func TestReadmeCSVColumns(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := hostileReportOut(t) // a crawl with candidates, seeds and MIME types
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	fileRe := regexp.MustCompile("^\\| `([a-z-]+\\.csv)`")
	colRe := regexp.MustCompile("`([a-z]+(?:_[a-z]+)+)`")
	checked := 0
	for _, line := range strings.Split(string(readme), "\n") {
		m := fileRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		header := readCSV(t, filepath.Join(dir, m[1]))[0]
		for _, c := range colRe.FindAllStringSubmatch(line, -1) {
			checked++
			if !slices.Contains(header, c[1]) {
				t.Errorf("README names column %q of %s, which has %v", c[1], m[1], header)
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d columns named in README's table of report files: the test reads the wrong table", checked)
	}
}
