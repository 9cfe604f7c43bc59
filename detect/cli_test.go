package detect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestRunCLI(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	utf := write("thai-utf8.html", page("", []byte(thaiText)))
	tis := write("thai-tis.html", page("", enc(t, thaiText, "windows-874")))
	// The header file says windows-874; the page has no META.
	write("thai-tis.html.headers", []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=TIS-620\r\nServer: x\r\n\r\n"))
	en := write("english.html", page("", []byte(enText)))
	ms := write("malay.html", page("", []byte(msText)))
	missing := filepath.Join(dir, "missing.html")

	var out bytes.Buffer
	err := RunCLI(&out, []string{"th"}, []string{utf, tis, en, ms, missing})
	if err == nil {
		t.Error("no error for a missing file")
	}
	want := []struct {
		file, lang, charset, evidence string
		relevant, failed              bool
		rival                         any // nil: none
	}{
		{utf, "th", "utf-8", "ngram", true, false, nil},
		{tis, "th", "windows-874", "header+ngram", true, false, nil},
		{en, "en", "windows-1252", "ascii+ngram", false, false, nil},
		{ms, "ms", "windows-1252", "ascii+ngram+words", false, false, "id"},
		{missing, "und", "", "", false, true, nil},
	}
	sc := bufio.NewScanner(&out)
	i := 0
	for ; sc.Scan(); i++ {
		var got map[string]any
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, sc.Bytes())
		}
		if i >= len(want) {
			t.Fatalf("extra line %s", sc.Bytes())
		}
		w := want[i]
		for _, k := range []string{"file", "lang", "charset", "confidence", "relevant", "evidence"} {
			if _, ok := got[k]; !ok {
				t.Errorf("line %d lacks %q: %s", i, k, sc.Bytes())
			}
		}
		if got["file"] != w.file || got["lang"] != w.lang || got["charset"] != w.charset ||
			got["evidence"] != w.evidence || got["relevant"] != w.relevant || (got["error"] != nil) != w.failed || got["rival"] != w.rival {
			t.Errorf("line %d = %s, want %+v", i, sc.Bytes(), w)
		}
	}
	if i != len(want) {
		t.Errorf("%d lines, want %d", i, len(want))
	}
}
