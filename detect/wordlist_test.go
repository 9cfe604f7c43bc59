package detect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLowerWord(t *testing.T) {
	for w, want := range map[string]bool{
		"il-fiżika": true,  // Maltese, inner hyphen
		"ሃገር":       true,  // Ethiopic has no case
		"Malta":     false, // a name
		"NÝGGJUR":   false, // capitals
		"-word":     false,
		"word'":     false,
		"abc1":      false,
		"^[^":       false, // Tesseract's pattern lines
		"":          false,
		"ሃገርx":      false, // a Latin letter in an Ethiopic word
	} {
		script := "Latin"
		if strings.ContainsRune(w, 'ሃ') {
			script = "Ethiopic"
		}
		if got := lowerWord(w, script); got != want {
			t.Errorf("lowerWord(%q, %s) = %v, want %v", w, script, got, want)
		}
	}
}

func TestWordlistText(t *testing.T) {
	dir := t.TempDir()
	if _, err := wordlistText(dir, "mt", "Latin", 100); err == nil || !strings.Contains(err.Error(), "fetch.sh") {
		t.Fatalf("missing word list: err = %v, want one that says to run fetch.sh", err)
	}
	if s, err := wordlistText(dir, "en", "Latin", 100); err != nil || s != "" {
		t.Fatalf("a language without a word list: %q, %v", s, err)
	}
	// 26 words a..z of 4 bytes each with their separator; every other one
	// a name that must be skipped.
	var lines []string
	for c := 'a'; c <= 'z'; c++ {
		lines = append(lines, strings.Repeat(string(c), 3), strings.ToUpper(strings.Repeat(string(c), 3)))
	}
	if err := os.MkdirAll(filepath.Join(dir, WordlistDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, WordlistDir, "mlt.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := wordlistText(dir, "mt", "Latin", 40)
	if err != nil {
		t.Fatal(err)
	}
	// 104 bytes of lower-case words into 40: every third word, spread
	// over the whole alphabet rather than its first ten letters.
	if got := strings.Fields(s); strings.Join(got, " ") != "aaa ddd ggg jjj mmm ppp sss vvv yyy" {
		t.Errorf("words taken: %q", got)
	}
	if len(s) > 40 {
		t.Errorf("%d bytes, want at most 40", len(s))
	}
	if s, _ := wordlistText(dir, "mt", "Latin", 1000); len(strings.Fields(s)) != 26 {
		t.Errorf("with room for all: %d words, want 26", len(strings.Fields(s)))
	}
}
