package links

import (
	"fmt"
	"strings"
	"testing"
)

func TestAnchorEvidence(t *testing.T) {
	page := mustURL(t, "http://example.com/dir/page.html")
	tests := []struct{ name, html, want string }{
		{"text", `<a href="a.html">ข่าว  <b>วันนี้</b></a>`, "a.html|ข่าว วันนี้||"},
		{"hreflang and lang", `<a href="/th/" hreflang=" th " lang="th">ไทย</a>`, "th/|ไทย|th|th"},
		{"title when no text", `<a href="t.html" title="Thai news"></a>`, "t.html|Thai news||"},
		{"img alt", `<a href="i.html"><img src="x.png" alt="โลโก้"></a>`, "i.html|โลโก้||"},
		{"unclosed at end", `<a href="u.html">last`, "u.html|last||"},
		{"a ends the previous a", `<a href="p.html">one<a href="q.html">two</a>`, "p.html|one||\nq.html|two||"},
		{"first non-empty anchor of a URL", `<a href="d.html"></a><a href="d.html">later</a>`, "d.html|later||"},
		{"entities", `<a href="e.html">a &amp; b</a>`, "e.html|a & b||"},
		{"area and link carry hreflang", `<link rel="alternate" hreflang="lo" href="/lo/"><area href="m.html" hreflang="en">`, "lo/||lo|\nm.html||en|"},
		{"text outside anchors is not anchor text", `before <a href="o.html">in</a> after`, "o.html|in||"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Extract(page, []byte(tc.html), Options{})
			var got []string
			for _, l := range p.Links {
				if l.Kind != Nav {
					continue
				}
				u := strings.TrimPrefix(strings.TrimPrefix(l.URL, "http://example.com/dir/"), "http://example.com/")
				got = append(got, fmt.Sprintf("%s|%s|%s|%s", u, l.Anchor, l.Hreflang, l.Lang))
			}
			if g := strings.Join(got, "\n"); g != tc.want {
				t.Errorf("got\n%s\nwant\n%s", g, tc.want)
			}
		})
	}
}

func TestAnchorBounded(t *testing.T) {
	long := strings.Repeat("ข", 500)
	p := Extract(mustURL(t, "http://example.com/"), []byte(`<a href="x">`+long+`</a>`), Options{})
	if len(p.Links) != 1 {
		t.Fatalf("links: %d", len(p.Links))
	}
	a := p.Links[0].Anchor
	if len(a) > MaxAnchorLen || !strings.HasPrefix(long, a) || a == "" {
		t.Errorf("anchor of %d bytes, want a prefix of at most %d", len(a), MaxAnchorLen)
	}
}
