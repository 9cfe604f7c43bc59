package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSURT(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://www.example.com/", "com,example)/"},
		{"https://Example.COM", "com,example)/"},
		{"http://www2.example.com/Path/To/", "com,example)/path/to"},
		{"http://example.com:80/a", "com,example)/a"},
		{"https://example.com:443/a", "com,example)/a"},
		{"http://example.com:8080/a", "com,example:8080)/a"},
		{"https://example.com:80/a", "com,example:80)/a"},
		{"http://a.b.example.co.th/x?b=2&a=1&A=0", "th,co,example,b,a)/x?a=0&a=1&b=2"},
		{"http://example.com/?b&a=1&b=", "com,example)/?a=1&b&b="},
		{"http://example.com/p#frag", "com,example)/p"},
		{"http://user:pw@example.com/", "com,example)/"},
		{"http://wwwexample.com/", "com,wwwexample)/"},
		{"http://192.168.1.10/x", "10,1,168,192)/x"}, // pywb 2.9.1 (surt) reverses IPv4 addresses too
		{"http://example.com/%E0%B8%81", "com,example)/%e0%b8%81"},
		{"not a url", "not a url"},
	}
	for _, tc := range tests {
		if got := SURT(tc.in); got != tc.want {
			t.Errorf("SURT(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func ExampleSURT() {
	fmt.Println(SURT("https://www.Example.co.th/News/?page=2&cat=1"))
	// Output: th,co,example)/news?cat=1&page=2
}

type cdxEntry struct {
	key, ts string
	URL     string `json:"url"`
	Mime    string `json:"mime"`
	Status  string `json:"status"`
	Digest  string `json:"digest"`
	Length  string `json:"length"`
	Offset  string `json:"offset"`
	File    string `json:"filename"`
}

var cdxRE = regexp.MustCompile(`^(\S+) (\d{14}) (\{.*\})$`)

func readIndex(t *testing.T, path string) []cdxEntry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []cdxEntry
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		m := cdxRE.FindStringSubmatch(sc.Text())
		if m == nil {
			t.Fatalf("bad CDXJ line %q", sc.Text())
		}
		e := cdxEntry{key: m[1], ts: m[2]}
		if err := json.Unmarshal([]byte(m[3]), &e); err != nil {
			t.Fatalf("CDXJ JSON %q: %v", m[3], err)
		}
		out = append(out, e)
	}
	if !slices.IsSorted(lines) {
		t.Errorf("index not sorted:\n%s", strings.Join(lines, "\n"))
	}
	return out
}

// recordAt reads the record at offset and length, the way pywb does,
// without gowarc: one gzip member, or plain bytes.
func recordAt(t *testing.T, path string, offset, length int64) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw := make([]byte, length)
	if _, err := f.ReadAt(raw, offset); err != nil {
		t.Fatalf("read %s at %d+%d: %v", path, offset, length, err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return string(raw)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gunzip member at %d: %v", offset, err)
	}
	return string(b)
}

func TestCDXJ(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprintf("compress=%v", compress), func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Compress = compress
			cfg.MaxSize = 2500
			w := newWriter(t, cfg)
			date := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
			urls := []string{"http://z.th/", "http://www.a.th/b", "https://m.th/q?y=1&x=2", "http://a.th/a"}
			refs := map[string]Ref{}
			for i, u := range urls {
				ref, err := w.WriteExchange(&Exchange{
					URL: u, Date: date.Add(time.Duration(i) * time.Second),
					RawRequest:  request(u),
					RawResponse: response(strings.Repeat("หน้า ", 300) + u),
				})
				if err != nil {
					t.Fatal(err)
				}
				refs[u] = ref
				if err := w.WriteMetadata(u, ref.ResponseID, time.Time{}, []Field{{"depth", "1"}}); err != nil {
					t.Fatal(err)
				}
			}
			orig := refs["http://z.th/"]
			rv, err := w.WriteRevisit(&Revisit{
				URL: "http://z.th/", Date: date.Add(time.Hour), RawRequest: request("http://z.th/"),
				RawResponse:       []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\nbody not kept"),
				RefersTo:          orig.ResponseID,
				RefersToTargetURI: "http://z.th/",
				RefersToDate:      date,
				PayloadDigest:     orig.PayloadDigest,
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			entries := readIndex(t, filepath.Join(cfg.Dir, IndexName))
			if len(entries) != len(urls)+1 {
				t.Fatalf("%d index lines, want %d (responses and the revisit)", len(entries), len(urls)+1)
			}
			revisits := 0
			for _, e := range entries {
				if e.key != SURT(e.URL) {
					t.Errorf("key %s for %s", e.key, e.URL)
				}
				path := filepath.Join(cfg.Dir, e.File)
				if !slices.Contains(w.Files(), path) {
					t.Errorf("index names %s, not a closed file", e.File)
				}
				var off, length int64
				fmt.Sscan(e.Offset, &off)
				fmt.Sscan(e.Length, &length)
				rec := recordAt(t, path, off, length)
				if !strings.HasPrefix(rec, "WARC/1.1\r\n") || !strings.Contains(rec, "\r\nWARC-Target-URI: "+e.URL+"\r\n") {
					t.Errorf("%s at %s+%s is not its record:\n%.300s", e.File, e.Offset, e.Length, rec)
				}
				if e.Status != "200" {
					t.Errorf("status %q", e.Status)
				}
				if strings.Contains(rec, "WARC-Type: revisit") {
					revisits++
					if e.Mime != "warc/revisit" || e.ts != "20260506080809" || "sha1:"+e.Digest != orig.PayloadDigest {
						t.Errorf("revisit line %+v", e)
					}
					if off != rv.Offset || path != rv.File {
						t.Errorf("revisit at %s %d, Ref %s %d", path, off, rv.File, rv.Offset)
					}
					continue
				}
				ref := refs[e.URL]
				want := date.Add(time.Duration(slices.Index(urls, e.URL)) * time.Second).Format("20060102150405")
				if e.ts != want || e.Mime != "text/html" || "sha1:"+e.Digest != ref.PayloadDigest ||
					off != ref.Offset || length != ref.Length || path != ref.File {
					t.Errorf("line %+v, ref %+v, want timestamp %s", e, ref, want)
				}
				if !strings.Contains(rec, "WARC-Type: response") {
					t.Errorf("index points at a non-response record:\n%.200s", rec)
				}
			}
			if revisits != 1 {
				t.Errorf("%d revisit lines", revisits)
			}
		})
	}
}

func TestRevisitRecord(t *testing.T) {
	w := newWriter(t, testConfig(t))
	_, err := w.WriteRevisit(&Revisit{URL: "http://a.th/"})
	if err == nil || !strings.Contains(err.Error(), "http://a.th/") {
		t.Errorf("identical-payload-digest revisit without digest: %v", err)
	}
	_, err = w.WriteRevisit(&Revisit{URL: "http://a.th/", Profile: "http://example.org/mine", PayloadDigest: "sha1:X"})
	if err == nil {
		t.Error("unknown profile accepted")
	}
	ref, err := w.WriteRevisit(&Revisit{
		URL:         "http://a.th/",
		Profile:     ProfileServerNotModified,
		RawResponse: []byte("HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\n\r\n"),
		RefersTo:    "<urn:uuid:00000000-0000-0000-0000-000000000001>",
	})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	recs := readAll(t, ref.File)
	rv := recs[len(recs)-1]
	if rv.Type != "revisit" || rv.Header("WARC-Profile") != ProfileServerNotModified ||
		rv.RefersTo != "<urn:uuid:00000000-0000-0000-0000-000000000001>" ||
		string(rv.Block) != "HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\n\r\n" {
		t.Errorf("revisit %+v block %q", rv.Headers, rv.Block)
	}
	if rv.Header("WARC-Payload-Digest") != "" {
		t.Errorf("server-not-modified revisit has a payload digest")
	}
}

func TestSortIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.cdxj")
	in := "b,a)/ 2 {}\na,b)/ 1 {}\na,b)/ 0 {}\nc)/ 3 {}" // no final newline
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SortIndex(path); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := "a,b)/ 0 {}\na,b)/ 1 {}\nb,a)/ 2 {}\nc)/ 3 {}\n"; string(got) != want {
		t.Errorf("sorted:\n%s\nwant:\n%s", got, want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("sorted index mode %v (%v), want the original's 0644", fi.Mode(), err)
	}
	if err := SortIndex(filepath.Join(t.TempDir(), "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing file: %v", err)
	}
}
