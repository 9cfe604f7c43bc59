package webgen

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// get asks s for u with the request headers hdr ("Name: value").
func genGet(s *Server, u string, hdr ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", u, nil)
	for _, h := range hdr {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

// TestGenerations checks each kind of change of the demo web from
// generation 1 to 2 (and 3) against what the server answers.
func TestGenerations(t *testing.T) {
	g, err := Generate(DemoDefaults())
	if err != nil {
		t.Fatal(err)
	}
	plain := NewServer(g, ServerOptions{})               // generation 1, as ever
	one := NewServer(g, ServerOptions{Validators: true}) // generation 1, with validators
	two := NewServer(g, ServerOptions{Validators: true, Generation: 2})
	if two.Generation() != 2 || plain.Generation() != 1 {
		t.Fatalf("generations %d and %d", plain.Generation(), two.Generation())
	}

	first, err := g.Changes(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range first {
		if c.Kind != Unchanged || c.Status != 200 {
			t.Fatalf("generation 1: %s is %s %d", c.URL, c.Kind, c.Status)
		}
	}
	changes, err := g.Changes(2)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, c := range changes {
		k := c.Kind.String()
		if c.Kind == Unchanged {
			k += fmt.Sprintf(" validators=%v", c.Validators)
		}
		count[k]++
	}
	t.Logf("generation 2 of the demo web: %v", count)
	for _, k := range []string{"unchanged validators=true", "unchanged validators=false", "changed", "lang-changed", "gone", "new", "copy"} {
		if count[k] < 3 {
			t.Errorf("generation 2 has %d %s URLs; want a few of each", count[k], k)
		}
	}

	byURL := map[string]Change{}
	for _, c := range changes {
		byURL[c.URL] = c
	}
	linked := map[string]bool{} // URLs linked from the changed pages of generation 2
	for _, c := range changes {
		r1, r2 := one.serve1(t, c.URL), genGet(two, c.URL)
		if p := genGet(plain, c.URL); p.Code == 200 && !bytes.Equal(p.Body.Bytes(), r1.Body.Bytes()) {
			t.Errorf("%s: validators change generation 1's bytes", c.URL)
		}
		if r2.Code != c.Status {
			t.Errorf("%s (%s): status %d, truth %d", c.URL, c.Kind, r2.Code, c.Status)
			continue
		}
		if tr, ok := g.TruthAt(c.URL, 2); !ok || tr.Status != c.Status || tr.Lang != c.Lang {
			t.Errorf("%s: TruthAt %+v, Changes %+v", c.URL, tr, c)
		}
		etag := r2.Header().Get("ETag")
		if c.Status == 200 && (etag != "") != c.Validators {
			t.Errorf("%s: ETag %q, validators %v", c.URL, etag, c.Validators)
		}
		switch c.Kind {
		case Unchanged:
			if !bytes.Equal(r1.Body.Bytes(), r2.Body.Bytes()) || r1.Code != 200 {
				t.Errorf("%s: unchanged, but its bytes differ", c.URL)
			}
			if c.Validators {
				if r := genGet(two, c.URL, "If-None-Match: "+r1.Header().Get("ETag")); r.Code != 304 || r.Body.Len() != 0 {
					t.Errorf("%s: If-None-Match with its ETag answered %d", c.URL, r.Code)
				}
				if r := genGet(two, c.URL, "If-Modified-Since: "+r1.Header().Get("Last-Modified")); r.Code != 304 {
					t.Errorf("%s: If-Modified-Since its Last-Modified answered %d", c.URL, r.Code)
				}
			}
		case Changed, LangChanged:
			if bytes.Equal(r1.Body.Bytes(), r2.Body.Bytes()) || etag == r1.Header().Get("ETag") && c.Validators {
				t.Errorf("%s: changed, but its bytes or ETag did not", c.URL)
			}
			if c.Validators {
				if r := genGet(two, c.URL, "If-None-Match: "+r1.Header().Get("ETag"), "If-Modified-Since: "+r1.Header().Get("Last-Modified")); r.Code != 200 {
					t.Errorf("%s: changed, but a conditional request for generation 1's answered %d", c.URL, r.Code)
				}
			}
			if (c.Kind == LangChanged) == (c.Lang == c.PrevLang) {
				t.Errorf("%s: %s from %q to %q", c.URL, c.Kind, c.PrevLang, c.Lang)
			}
			for _, h := range genHrefs(r2.Body.String()) {
				linked[resolve(c.URL, h)] = true
			}
		case Gone:
			if c.Status != 404 && c.Status != 410 || r1.Code != 200 {
				t.Errorf("%s: gone with %d (generation 1: %d)", c.URL, c.Status, r1.Code)
			}
		case New, Copy:
			if r1.Code != 404 {
				t.Errorf("%s: new in generation 2, but generation 1 answers %d", c.URL, r1.Code)
			}
		}
		if c.Kind == Copy {
			orig := genGet(two, c.Original)
			if byURL[c.Original].Kind != Unchanged || !bytes.Equal(orig.Body.Bytes(), r2.Body.Bytes()) || r2.Body.Len() < CopyMinSize {
				t.Errorf("%s: a copy of %s (%s), %d bytes, not the same bytes", c.URL, c.Original, byURL[c.Original].Kind, r2.Body.Len())
			}
		}
	}
	for _, c := range changes {
		if (c.Kind == New || c.Kind == Copy) && !linked[c.URL] {
			t.Errorf("%s (%s) is linked from no changed page", c.URL, c.Kind)
		}
	}

	// Deterministic, and generation 3 builds on 2: what is gone stays gone.
	g2, _ := Generate(DemoDefaults())
	again, _ := g2.Changes(2)
	if !slices.Equal(again, changes) {
		t.Error("Changes(2) differs between two graphs of the same Params")
	}
	third, err := g.Changes(3)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range third {
		if prev, ok := byURL[c.URL]; ok && prev.Status != 200 && c.Status == prev.Status && c.Kind != Unchanged {
			t.Errorf("%s: gone in 2, %s in 3", c.URL, c.Kind)
		} else if ok && prev.Status != 200 && c.Status == 200 {
			t.Errorf("%s: gone in 2, back in 3", c.URL)
		}
	}
	if err := two.SetGeneration(0); err == nil {
		t.Error("SetGeneration(0) accepted")
	}
}

func (s *Server) serve1(t *testing.T, u string) *httptest.ResponseRecorder {
	t.Helper()
	if s.Generation() != 1 {
		t.Fatal("not generation 1")
	}
	return genGet(s, u)
}

func genHrefs(html string) []string {
	var out []string
	for _, part := range strings.Split(html, `href="`)[1:] {
		out = append(out, part[:strings.IndexByte(part, '"')])
	}
	return out
}

func resolve(base, ref string) string {
	req, _ := http.NewRequest("GET", base, nil)
	u, err := req.URL.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}
