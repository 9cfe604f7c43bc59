package archive

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// clock is a fake time source that moves on by step at every call.
type clock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.t
	c.t = c.t.Add(c.step)
	return t
}

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 890_000_000, time.UTC)

func testConfig(t *testing.T) Config {
	t.Helper()
	c := &clock{t: t0, step: time.Millisecond}
	return Config{
		Dir:       t.TempDir(),
		Compress:  true,
		Hostname:  "crawler-1.example.org",
		Software:  "langcrawl/0.1.0",
		Operator:  "Web Archive, National Library",
		UserAgent: "langcrawl/0.1.0 (+https://example.org/crawler)",
		Robots:    "obey",
		Profile:   "name: thai\nscope:\n  depth: 3\n  hosts: [\"a.th\", \"b.th\"]\n",
		Now:       c.Now,
	}
}

func newWriter(t *testing.T, cfg Config) *Writer {
	t.Helper()
	w, err := NewWriter(cfg)
	if err != nil {
		t.Fatalf("NewWriter: %v", err)
	}
	return w
}

func request(url string) []byte {
	host := strings.SplitN(strings.TrimPrefix(strings.TrimPrefix(url, "http://"), "https://"), "/", 2)[0]
	return []byte("GET " + url + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: langcrawl\r\n\r\n")
}

func response(body string, headers ...string) []byte {
	var b strings.Builder
	b.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=TIS-620\r\n")
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	if len(headers) == 0 {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.WriteString(body)
	return []byte(b.String())
}

// chunk encodes data with the chunked transfer-coding, in pieces of size n.
func chunk(data []byte, n int) []byte {
	var b bytes.Buffer
	for len(data) > 0 {
		k := min(n, len(data))
		fmt.Fprintf(&b, "%x\r\n", k)
		b.Write(data[:k])
		b.WriteString("\r\n")
		data = data[k:]
	}
	b.WriteString("0\r\n\r\n")
	return b.Bytes()
}

// sha1b32 is the test's own digest, independent of the package's.
func sha1b32(b []byte) string {
	s := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

func readAll(t *testing.T, path string) []Record {
	t.Helper()
	recs, err := ReadAll(path)
	if err != nil {
		t.Fatalf("ReadAll(%s): %v", path, err)
	}
	return recs
}

func TestRoundTrip(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprintf("compress=%v", compress), func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Compress = compress
			w := newWriter(t, cfg)
			date := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			ex := &Exchange{
				URL:         "http://www.example.th/a?b=1",
				IP:          "127.0.0.1",
				Date:        date,
				RawRequest:  request("http://www.example.th/a?b=1"),
				RawResponse: response("<html>สวัสดี</html>"),
			}
			ref, err := w.WriteExchange(ex)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			files := w.Files()
			if len(files) != 1 || files[0] != ref.File {
				t.Fatalf("Files() = %v, Ref.File = %q", files, ref.File)
			}
			wantExt := ".warc"
			if compress {
				wantExt = ".warc.gz"
			}
			if !strings.HasSuffix(ref.File, wantExt) || strings.HasSuffix(ref.File, ".gz") != compress {
				t.Errorf("file %s, want extension %s", ref.File, wantExt)
			}
			recs := readAll(t, ref.File)
			if len(recs) != 3 {
				t.Fatalf("got %d records, want 3", len(recs))
			}
			info, req, resp := recs[0], recs[1], recs[2]
			if info.Type != "warcinfo" || req.Type != "request" || resp.Type != "response" {
				t.Fatalf("types %s %s %s", info.Type, req.Type, resp.Type)
			}
			if info.Header("WARC-Filename") != filepath.Base(ref.File) {
				t.Errorf("WARC-Filename %q, file %s", info.Header("WARC-Filename"), ref.File)
			}
			if req.ID != ref.RequestID || resp.ID != ref.ResponseID {
				t.Errorf("ids %s %s, ref %+v", req.ID, resp.ID, ref)
			}
			if req.ConcurrentTo != resp.ID || resp.ConcurrentTo != req.ID {
				t.Errorf("concurrent-to: request -> %s, response -> %s", req.ConcurrentTo, resp.ConcurrentTo)
			}
			if resp.Offset != ref.Offset {
				t.Errorf("response at %d, Ref.Offset %d", resp.Offset, ref.Offset)
			}
			for _, r := range []Record{req, resp} {
				for name, want := range map[string]string{
					"WARC-Target-URI":  ex.URL,
					"WARC-Date":        "2026-01-02T03:04:05Z",
					"WARC-IP-Address":  "127.0.0.1",
					"WARC-Warcinfo-ID": info.ID,
				} {
					if got := r.Header(name); got != want {
						t.Errorf("%s %s = %q, want %q", r.Type, name, got, want)
					}
				}
				if r.Header("WARC-Block-Digest") != sha1b32(r.Block) {
					t.Errorf("%s block digest %s, want %s", r.Type, r.Header("WARC-Block-Digest"), sha1b32(r.Block))
				}
			}
			if got := req.Header("Content-Type"); got != "application/http;msgtype=request" {
				t.Errorf("request Content-Type %q", got)
			}
			if got := resp.Header("Content-Type"); got != "application/http;msgtype=response" {
				t.Errorf("response Content-Type %q", got)
			}
			if !bytes.Equal(req.Block, ex.RawRequest) || !bytes.Equal(resp.Block, ex.RawResponse) {
				t.Errorf("blocks not stored verbatim")
			}
			if resp.Header("WARC-Truncated") != "" {
				t.Errorf("unexpected WARC-Truncated %q", resp.Header("WARC-Truncated"))
			}

			// warcinfo
			if info.Header("Content-Type") != "application/warc-fields" {
				t.Errorf("warcinfo Content-Type %q", info.Header("Content-Type"))
			}
			fields := parseFields(t, info.Block)
			for name, want := range map[string]string{
				"software":               cfg.Software,
				"hostname":               cfg.Hostname,
				"operator":               cfg.Operator,
				"http-header-user-agent": cfg.UserAgent,
				"robots":                 "obey",
				"format":                 "WARC File Format 1.1",
				"conformsTo":             conformsTo,
			} {
				if got := fields[name]; len(got) != 1 || got[0] != want {
					t.Errorf("warcinfo %s = %q, want %q", name, got, want)
				}
			}
			var profile string
			if p := fields["profile"]; len(p) != 1 || json.Unmarshal([]byte(p[0]), &profile) != nil || profile != cfg.Profile {
				t.Errorf("warcinfo profile %q does not give back %q", fields["profile"], cfg.Profile)
			}
			if info.Header("WARC-Date") != "2026-03-04T05:06:07Z" {
				t.Errorf("warcinfo date %q", info.Header("WARC-Date"))
			}
		})
	}
}

// parseFields reads a warc-fields block independently of gowarc.
func parseFields(t *testing.T, block []byte) map[string][]string {
	t.Helper()
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(block), "\r\n"), "\r\n") {
		name, value, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("bad warc-fields line %q", line)
		}
		m[name] = append(m[name], value)
	}
	return m
}

func TestPayloadDigest(t *testing.T) {
	entity := []byte(strings.Repeat("ภาษาไทย 0123456789 ", 50))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(entity)
	zw.Close()
	chunked := chunk(entity, 100)
	trailer := append(bytes.TrimSuffix(chunk(entity, 333), []byte("\r\n")), []byte("Expires: never\r\n\r\n")...)
	withExt := bytes.Replace(chunk(entity, 500), []byte("1f4\r\n"), []byte("1f4;name=value\r\n"), 1)
	bad := []byte("zz\r\nhello\r\n0\r\n\r\n")

	tests := []struct {
		name    string
		resp    []byte
		chunked bool // the caller's hint
		raw     bool // Config.RawPayloadDigest
		want    []byte
	}{
		{"identity", response(string(entity)), false, false, entity},
		{"chunked", response(string(chunked), "Transfer-Encoding: chunked"), false, false, entity},
		{"chunked by hint only", response(string(chunked), "X-Foo: bar"), true, false, entity},
		{"chunked header case", response(string(chunked), "transfer-encoding: gzip, Chunked"), false, false, entity},
		{"chunked with trailer", response(string(trailer), "Transfer-Encoding: chunked"), false, false, entity},
		{"chunk extension", response(string(withExt), "Transfer-Encoding: chunked"), false, false, entity},
		{"gzip content-encoding kept", response(gz.String(), "Content-Encoding: gzip"), false, false, gz.Bytes()},
		{"gzip and chunked", response(string(chunk(gz.Bytes(), 64)), "Content-Encoding: gzip", "Transfer-Encoding: chunked"), false, false, gz.Bytes()},
		{"truncated inside chunk", response(string(chunked[:250]), "Transfer-Encoding: chunked"), false, false, entity[:234]},
		{"malformed chunking digests as stored", response(string(bad), "Transfer-Encoding: chunked"), false, false, bad},
		{"raw option keeps framing", response(string(chunked), "Transfer-Encoding: chunked"), false, true, chunked},
		{"no body", []byte("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"), false, false, nil},
		{"headers never end", []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"), false, false, nil},
		{"bare LF line ends", []byte("HTTP/1.0 200 OK\nContent-Type: text/plain\n\nbody\n"), false, false, []byte("body\n")},
	}
	// "truncated inside chunk": 250 bytes hold "64\r\n", 100 bytes, CRLF, "64\r\n",
	// 100 bytes, CRLF, "64\r\n" and 34 bytes: 234 bytes of payload.
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.RawPayloadDigest = tc.raw
			w := newWriter(t, cfg)
			ref, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: tc.resp, Chunked: tc.chunked})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			want := sha1b32(tc.want)
			if ref.PayloadDigest != want {
				t.Errorf("Ref.PayloadDigest %s, want %s", ref.PayloadDigest, want)
			}
			recs := readAll(t, ref.File)
			resp := recs[len(recs)-1]
			if got := resp.Header("WARC-Payload-Digest"); got != want {
				t.Errorf("WARC-Payload-Digest %s, want %s", got, want)
			}
			if got := resp.Header("WARC-Block-Digest"); got != sha1b32(tc.resp) {
				t.Errorf("WARC-Block-Digest %s, want %s", got, sha1b32(tc.resp))
			}
		})
	}
}

func TestTruncatedChunkPrefix(t *testing.T) {
	// The table above derives its truncated expectation arithmetically;
	// check the same case by hand: "5\r\nhello\r\n3\r\nwor" holds "hellowor".
	body := "5\r\nhello\r\n3\r\nwor"
	got := PayloadDigest(response(body, "Transfer-Encoding: chunked"), 0, false, false)
	if want := sha1b32([]byte("hellowor")); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestTruncated(t *testing.T) {
	for _, reason := range []string{TruncatedLength, TruncatedTime, TruncatedDisconnect, TruncatedUnspecified} {
		t.Run(reason, func(t *testing.T) {
			w := newWriter(t, testConfig(t))
			ref, err := w.WriteExchange(&Exchange{URL: "http://a.th/big", RawResponse: response("partial"), Truncated: reason})
			if err != nil {
				t.Fatal(err)
			}
			w.Close()
			recs := readAll(t, ref.File)
			if got := recs[len(recs)-1].Header("WARC-Truncated"); got != reason {
				t.Errorf("WARC-Truncated %q, want %q", got, reason)
			}
		})
	}
	w := newWriter(t, testConfig(t))
	_, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: response("x"), Truncated: "bored"})
	if !errors.Is(err, ErrTruncated) {
		t.Errorf("bad reason: err %v, want ErrTruncated", err)
	}
	if _, err := w.WriteExchange(&Exchange{RawResponse: response("x")}); err == nil {
		t.Error("exchange without URL accepted")
	}
}

func TestMetadata(t *testing.T) {
	w := newWriter(t, testConfig(t))
	ref, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawRequest: request("http://a.th/"), RawResponse: response("<a href=x>")})
	if err != nil {
		t.Fatal(err)
	}
	fields := []Field{
		{"via", "http://seed.th/"},
		{"hopsFromSeed", "L"},
		{"depth", "1"},
		{"fetchTimeMs", "12"},
		{"outlink", "http://a.th/x"},
		{"outlink", "http://b.th/y"},
		{"charset", "TIS-620"},
		{"language", "th"},
	}
	date := time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC)
	if err := w.WriteMetadata("http://a.th/", ref.ResponseID, date, fields); err != nil {
		t.Fatal(err)
	}
	err = w.WriteMetadata("http://a.th/", ref.ResponseID, date, []Field{{"out link", "x"}})
	if !errors.Is(err, ErrField) {
		t.Errorf("bad name: err %v, want ErrField", err)
	}
	err = w.WriteMetadata("http://a.th/", ref.ResponseID, date, []Field{{"outlink", "x\r\nWARC-Type: response"}})
	if !errors.Is(err, ErrField) {
		t.Errorf("line break in value: err %v, want ErrField", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, ref.File)
	if len(recs) != 4 {
		t.Fatalf("got %d records, want 4", len(recs))
	}
	md := recs[3]
	if md.Type != "metadata" || md.RefersTo != ref.ResponseID || md.TargetURI != "http://a.th/" {
		t.Errorf("metadata %s refers to %s target %s", md.Type, md.RefersTo, md.TargetURI)
	}
	if md.Header("Content-Type") != "application/warc-fields" || md.Header("WARC-Date") != "2026-01-02T03:04:06Z" {
		t.Errorf("metadata headers %v", md.Headers)
	}
	if md.WarcinfoID != recs[0].ID {
		t.Errorf("metadata warcinfo id %s, want %s", md.WarcinfoID, recs[0].ID)
	}
	var want strings.Builder
	for _, f := range fields {
		want.WriteString(f.Name + ": " + f.Value + "\r\n")
	}
	if string(md.Block) != want.String() {
		t.Errorf("metadata block\n%q\nwant\n%q", md.Block, want.String())
	}
}

// TestExchangeWithMetadata: Exchange.Metadata puts the metadata record
// right after the response, in the same append, and the Ref still points
// at the response alone.
func TestExchangeWithMetadata(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprintf("compress=%v", compress), func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Compress = compress
			w := newWriter(t, cfg)
			fields := []Field{{"via", "http://seed.th/"}, {"outlink", "http://a.th/x L a/@href"}}
			ref, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawRequest: request("http://a.th/"),
				RawResponse: response("<a href=x>"), Metadata: fields})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.WriteExchange(&Exchange{URL: "http://a.th/bad", RawResponse: response("x"),
				Metadata: []Field{{"out link", "x"}}}); !errors.Is(err, ErrField) {
				t.Errorf("bad field name: err %v, want ErrField", err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			recs := readAll(t, ref.File)
			var types []string
			for _, r := range recs {
				types = append(types, r.Type)
			}
			if got := strings.Join(types, " "); got != "warcinfo request response metadata" {
				t.Fatalf("records %s, want warcinfo request response metadata (and nothing of the bad exchange)", got)
			}
			resp, md := recs[2], recs[3]
			if resp.ID != ref.ResponseID || resp.Offset != ref.Offset {
				t.Errorf("Ref %+v does not point at the response (id %s at %d)", ref, resp.ID, resp.Offset)
			}
			if ref.Offset+ref.Length != md.Offset {
				t.Errorf("response record %d+%d does not end where the metadata record starts (%d)", ref.Offset, ref.Length, md.Offset)
			}
			if md.RefersTo != ref.ResponseID || md.TargetURI != "http://a.th/" || md.WarcinfoID != recs[0].ID {
				t.Errorf("metadata refers to %s, target %s, warcinfo %s", md.RefersTo, md.TargetURI, md.WarcinfoID)
			}
			if want := "via: http://seed.th/\r\noutlink: http://a.th/x L a/@href\r\n"; string(md.Block) != want {
				t.Errorf("metadata block %q, want %q", md.Block, want)
			}
		})
	}
}

var nameRE = regexp.MustCompile(`^langcrawl-(\d{17})-(\d{5})-crawler-1\.example\.org\.warc\.gz$`)

// TestRotation: files rotate at MaxSize, named with serials in order, and
// an exchange's three records (request, response, the page's metadata)
// are never split across two files.
func TestRotation(t *testing.T) {
	cfg := testConfig(t)
	cfg.MaxSize = 3000 // a few compressed exchanges per file
	w := newWriter(t, cfg)
	page := strings.Repeat("ข้อความภาษาไทย ", 150) // ~6 KB, compresses well
	const n = 12
	for i := range n {
		u := fmt.Sprintf("http://a.th/%d", i)
		if _, err := w.WriteExchange(&Exchange{URL: u, RawRequest: request(u), RawResponse: response(page + fmt.Sprint(i)),
			Metadata: []Field{{"hopsFromSeed", "L"}}}); err != nil {
			t.Fatal(err)
		}
		if i == n-2 {
			// Exactly one .open file while writing: the current one.
			entries, _ := os.ReadDir(cfg.Dir)
			open := 0
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".open") {
					open++
				}
			}
			if open != 1 {
				t.Errorf("%d .open files while writing, want 1", open)
			}
			if len(w.Files()) < 2 {
				t.Errorf("only %d closed files after %d exchanges of MaxSize 3000", len(w.Files()), i+1)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := w.Files()
	entries, _ := os.ReadDir(cfg.Dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".open") {
			t.Errorf("%s still open after Close", e.Name())
		}
	}
	if int64(len(files)) != w.Stats().Files {
		t.Errorf("Files() has %d, Stats().Files %d", len(files), w.Stats().Files)
	}
	seen, metas := 0, 0
	for i, f := range files {
		m := nameRE.FindStringSubmatch(filepath.Base(f))
		if m == nil {
			t.Fatalf("file name %s does not match the pattern", filepath.Base(f))
		}
		if m[2] != fmt.Sprintf("%05d", i) {
			t.Errorf("file %d has serial %s", i, m[2])
		}
		if _, err := time.Parse("20060102150405.000", m[1][:14]+"."+m[1][14:]); err != nil {
			t.Errorf("timestamp %s: %v", m[1], err)
		}
		recs := readAll(t, f)
		if recs[0].Type != "warcinfo" {
			t.Fatalf("%s starts with %s", f, recs[0].Type)
		}
		ids := map[string]string{}
		for _, r := range recs[1:] {
			if r.WarcinfoID != recs[0].ID {
				t.Errorf("%s: %s record has warcinfo id %s, want %s", f, r.Type, r.WarcinfoID, recs[0].ID)
			}
			ids[r.ID] = r.Type
		}
		meta := 0
		for _, r := range recs[1:] {
			switch {
			case r.Type == "metadata":
				meta++
				if ids[r.RefersTo] != "response" {
					t.Errorf("%s: metadata of %s refers to %s, not a response in the same file", f, r.TargetURI, r.RefersTo)
				}
			case ids[r.ConcurrentTo] == "":
				t.Errorf("%s: %s of %s is concurrent to %s, not in the same file", f, r.Type, r.TargetURI, r.ConcurrentTo)
			}
			if r.Type == "response" {
				seen++
			}
		}
		metas += meta
	}
	if seen != n || metas != n {
		t.Errorf("%d responses and %d metadata records in all files, want %d of each", seen, metas, n)
	}
	if len(files) < 3 {
		t.Errorf("%d files, want rotation into at least 3", len(files))
	}
}

func TestRotateAndClose(t *testing.T) {
	w := newWriter(t, testConfig(t))
	if err := w.Rotate(); err != nil {
		t.Fatalf("Rotate with no file: %v", err)
	}
	if len(w.Files()) != 0 {
		t.Fatalf("files before any write: %v", w.Files())
	}
	for range 2 {
		if _, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: response("x")}); err != nil {
			t.Fatal(err)
		}
		if err := w.Rotate(); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(w.Files()); got != 2 {
		t.Fatalf("%d files after two rotations, want 2", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: response("x")}); !errors.Is(err, ErrClosed) {
		t.Errorf("write after Close: %v, want ErrClosed", err)
	}
	if err := w.WriteMetadata("http://a.th/", "", time.Time{}, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("metadata after Close: %v, want ErrClosed", err)
	}
	if err := w.Rotate(); !errors.Is(err, ErrClosed) {
		t.Errorf("Rotate after Close: %v, want ErrClosed", err)
	}
	st := w.Stats()
	if st.Exchanges != 2 || st.Records != 4 || st.Files != 2 || st.Bytes <= 0 {
		t.Errorf("Stats %+v", st)
	}
	var size int64
	for _, f := range w.Files() {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		size += fi.Size()
	}
	if size != st.Bytes {
		t.Errorf("files hold %d bytes, Stats().Bytes %d", size, st.Bytes)
	}
}

func TestConfig(t *testing.T) {
	_, err := NewWriter(Config{MaxSize: -1, Prefix: "a/b"})
	if !errors.Is(err, ErrConfig) {
		t.Fatalf("err %v, want ErrConfig", err)
	}
	for _, want := range []string{"Dir", "MaxSize", "Prefix"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	dir := filepath.Join(t.TempDir(), "new", "warcs")
	w, err := NewWriter(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("Dir not created: %v", err)
	}
	if w.cfg.Prefix != DefaultPrefix || w.cfg.MaxSize != DefaultMaxSize || w.cfg.Hostname == "" || w.cfg.Now == nil {
		t.Errorf("defaults not filled: %+v", w.cfg)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("NewWriter created files: %v", entries)
	}
	if _, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: response("x")}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if f := w.Files(); len(f) != 1 || !strings.HasSuffix(f[0], ".warc") {
		t.Errorf("uncompressed by default: %v", f)
	}
}

// fullDisk is a file that fails with ENOSPC once limit bytes are written.
type fullDisk struct {
	*os.File
	mu    *sync.Mutex
	limit *int64
}

func (f fullDisk) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if int64(len(p)) > *f.limit {
		n, _ := f.File.Write(p[:*f.limit])
		*f.limit = 0
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	*f.limit -= int64(len(p))
	return f.File.Write(p)
}

func TestFullDisk(t *testing.T) {
	cfg := testConfig(t)
	cfg.MaxSize = 4000
	w := newWriter(t, cfg)
	var mu sync.Mutex
	limit := int64(1 << 40)
	w.create = func(path string) (file, error) {
		f, err := createFile(path)
		if err != nil {
			return nil, err
		}
		return fullDisk{File: f.(*os.File), mu: &mu, limit: &limit}, nil
	}
	page := strings.Repeat("ภาษาไทย", 400)
	write := func(i int) (Ref, error) {
		u := fmt.Sprintf("http://a.th/%d", i)
		return w.WriteExchange(&Exchange{URL: u, RawRequest: request(u), RawResponse: response(page + fmt.Sprint(i))})
	}
	for i := range 6 {
		if _, err := write(i); err != nil {
			t.Fatal(err)
		}
	}
	closed := w.Files()
	if len(closed) == 0 {
		t.Fatal("no file closed before the disk fills")
	}
	before := map[string][]byte{}
	for _, f := range closed {
		before[f], _ = os.ReadFile(f)
	}

	mu.Lock()
	limit = 700 // the next exchange fits only partly
	mu.Unlock()
	_, err := write(6)
	if err == nil {
		t.Fatal("write on a full disk succeeded")
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("error %v does not wrap ENOSPC", err)
	}
	if !strings.Contains(err.Error(), ".warc.gz.open") || !strings.Contains(err.Error(), cfg.Dir) {
		t.Errorf("error %q does not name the file", err)
	}
	// The file that failed was cut back and closed: it reads whole, and
	// holds only complete exchanges.
	files := w.Files()
	if len(files) != len(closed)+1 {
		t.Fatalf("after the failure %d files closed, want %d", len(files), len(closed)+1)
	}
	recs := readAll(t, files[len(files)-1])
	types := map[string]int{}
	for _, r := range recs {
		types[r.Type]++
		if r.TargetURI == "http://a.th/6" {
			t.Errorf("part of the failed exchange was kept: %s record", r.Type)
		}
	}
	if types["request"] != types["response"] {
		t.Errorf("unpaired records after the failure: %v", types)
	}
	for f, b := range before {
		if now, _ := os.ReadFile(f); !bytes.Equal(now, b) {
			t.Errorf("closed file %s changed", f)
		}
	}
	if w.Stats().WriteErrors == 0 {
		t.Error("Stats().WriteErrors not counted")
	}

	// Still full: opening a new file fails too, naming it, and leaves no
	// empty file behind.
	if _, err := write(7); err == nil || !strings.Contains(err.Error(), cfg.Dir) {
		t.Errorf("write on a still-full disk: %v", err)
	}
	// Space again: writing goes on in a new file.
	mu.Lock()
	limit = 1 << 40
	mu.Unlock()
	ref, err := write(8)
	if err != nil {
		t.Fatalf("write after space came back: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if recs := readAll(t, ref.File); recs[len(recs)-1].TargetURI != "http://a.th/8" {
		t.Errorf("last record %s", recs[len(recs)-1].TargetURI)
	}
	entries, _ := os.ReadDir(cfg.Dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".open") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestConcurrentWrites(t *testing.T) {
	cfg := testConfig(t)
	cfg.MaxSize = 5000
	w := newWriter(t, cfg)
	const workers, each = 4, 10
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			for i := range each {
				u := fmt.Sprintf("http://h%d.th/%d", g, i)
				ref, err := w.WriteExchange(&Exchange{URL: u, RawRequest: request(u), RawResponse: response(strings.Repeat("x", 500) + u)})
				if err != nil {
					t.Error(err)
					return
				}
				if err := w.WriteMetadata(u, ref.ResponseID, time.Time{}, []Field{{"depth", "0"}}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	urls := map[string]int{}
	for _, f := range w.Files() {
		for _, r := range readAll(t, f)[1:] {
			urls[r.TargetURI]++
		}
	}
	if len(urls) != workers*each {
		t.Errorf("%d distinct URLs archived, want %d", len(urls), workers*each)
	}
	for u, n := range urls {
		if n != 3 {
			t.Errorf("%s has %d records, want request, response and metadata", u, n)
		}
	}
}

func TestReadAllCorruptTail(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprintf("compress=%v", compress), func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Compress = compress
			w := newWriter(t, cfg)
			ref, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: response("hello")})
			if err != nil {
				t.Fatal(err)
			}
			w.Close()
			b, _ := os.ReadFile(ref.File)
			cut := append(b, b[ref.Offset:ref.Offset+ref.Length/2]...) // half a record more
			if err := os.WriteFile(ref.File, cut, 0o644); err != nil {
				t.Fatal(err)
			}
			// gowarc under ErrWarn would loop here until the test times out.
			if _, err := ReadAll(ref.File); err == nil || !strings.Contains(err.Error(), ref.File) {
				t.Errorf("ReadAll of a cut file: %v", err)
			}
		})
	}
}

// TestHeaderLineBreakRefused: with gowarc's validation off, the writer
// itself refuses a header value that would break the record's header.
func TestHeaderLineBreakRefused(t *testing.T) {
	w := newWriter(t, testConfig(t))
	_, err := w.WriteExchange(&Exchange{URL: "http://a.th/\r\nWARC-Type: resource", RawResponse: response("x")})
	if !errors.Is(err, ErrField) {
		t.Fatalf("target URI with a line break: err %v, want ErrField", err)
	}
	ref, err := w.WriteExchange(&Exchange{URL: "http://a.th/ok", RawResponse: response("x")})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, r := range readAll(t, ref.File) {
		if strings.Contains(r.TargetURI, "WARC-Type") {
			t.Fatalf("the refused exchange was written: %+v", r.Headers)
		}
	}
}
