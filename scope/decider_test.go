package scope

import (
	"fmt"
	"strings"
	"testing"
)

func TestDecide(t *testing.T) {
	tests := []struct {
		name        string
		d           Decider
		tree        string
		depth       int
		link        string
		wantURL     string
		internal    bool
		wantTree    string
		wantDepth   int
		wantQuery   string
		wantRejects string // substring; "" means accepted
	}{
		{name: "internal", tree: "example.com", depth: 2, link: "http://WWW.example.com/a",
			wantURL: "http://www.example.com/a", internal: true, wantTree: "example.com", wantDepth: 3},
		{name: "external starts a tree", tree: "example.com", depth: 5, link: "http://news.example.co.th/x",
			wantURL: "http://news.example.co.th/x", wantTree: "example.co.th", wantDepth: 0},
		{name: "default depth limit", tree: "example.com", depth: 8, link: "http://example.com/deep",
			wantURL: "http://example.com/deep", internal: true, wantTree: "example.com", wantDepth: 9,
			wantRejects: "depth 9, limit 8"},
		{name: "depth limit does not bind external", tree: "example.com", depth: 8, link: "http://other.org/",
			wantURL: "http://other.org/", wantTree: "other.org"},
		{name: "custom depth limit", d: Decider{MaxDepth: 1}, tree: "example.com", depth: 1,
			link: "http://example.com/x", wantURL: "http://example.com/x", internal: true,
			wantTree: "example.com", wantDepth: 2, wantRejects: "limit 1"},
		{name: "no depth limit", d: Decider{MaxDepth: -1}, tree: "example.com", depth: 100,
			link: "http://example.com/x", wantURL: "http://example.com/x", internal: true,
			wantTree: "example.com", wantDepth: 101},
		{name: "query rule off", tree: "example.com", link: "http://example.com/i.php?id=2",
			wantURL: "http://example.com/i.php?id=2", internal: true, wantTree: "example.com", wantDepth: 1},
		{name: "query rule on", d: Decider{QueryRule: true}, tree: "example.com",
			link: "http://example.com/i.php?id=2#x", wantURL: "http://example.com/i.php?id=2", internal: true,
			wantTree: "example.com", wantDepth: 1, wantQuery: "http://example.com/i.php"},
		{name: "query rule on, no query", d: Decider{QueryRule: true}, tree: "example.com",
			link: "http://example.com/i.php", wantURL: "http://example.com/i.php", internal: true,
			wantTree: "example.com", wantDepth: 1},
		{name: "trap", tree: "example.com", link: "http://example.com/x/x/x/x/",
			wantURL: "http://example.com/x/x/x/x/", internal: true, wantTree: "example.com", wantDepth: 1,
			wantRejects: "trap: "},
		{name: "not http", tree: "example.com", link: "ftp://example.com/", wantRejects: "not an http"},
		{name: "test host", tree: RegisteredDomain("th1.test"), link: "http://www.th1.test:8080/",
			wantURL: "http://www.th1.test:8080/", internal: true, wantTree: "th1.test", wantDepth: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.d.Decide(tt.tree, tt.depth, tt.link)
			if tt.wantRejects == "" && got.Reject != "" {
				t.Fatalf("Decide(%q) rejected: %s", tt.link, got.Reject)
			}
			if tt.wantRejects != "" && !strings.Contains(got.Reject, tt.wantRejects) {
				t.Errorf("Decide(%q).Reject = %q, want %q", tt.link, got.Reject, tt.wantRejects)
			}
			if tt.wantURL == "" {
				if got.URL != nil {
					t.Errorf("Decide(%q).URL = %q, want nil", tt.link, got.URL)
				}
				return
			}
			if got.URL == nil || got.URL.String() != tt.wantURL {
				t.Fatalf("Decide(%q).URL = %v, want %q", tt.link, got.URL, tt.wantURL)
			}
			if got.Internal != tt.internal || got.Tree != tt.wantTree || got.Depth != tt.wantDepth || got.QueryKey != tt.wantQuery {
				t.Errorf("Decide(%q) = internal %v tree %q depth %d query %q; want %v %q %d %q", tt.link,
					got.Internal, got.Tree, got.Depth, got.QueryKey, tt.internal, tt.wantTree, tt.wantDepth, tt.wantQuery)
			}
		})
	}
}

func ExampleDecider() {
	d := Decider{MaxDepth: 8, QueryRule: true}
	tree := RegisteredDomain("www.example.co.th")
	for _, link := range []string{
		"http://shop.example.co.th/index.php?id=2#top",
		"https://other.example.org/",
		"mailto:info@example.co.th",
	} {
		dec := d.Decide(tree, 0, link)
		if dec.Reject != "" {
			fmt.Println("reject:", dec.Reject)
			continue
		}
		fmt.Printf("%s internal=%v tree=%s depth=%d querykey=%q\n", dec.URL, dec.Internal, dec.Tree, dec.Depth, dec.QueryKey)
	}
	// Output:
	// http://shop.example.co.th/index.php?id=2 internal=true tree=example.co.th depth=1 querykey="http://shop.example.co.th/index.php"
	// https://other.example.org/ internal=false tree=example.org depth=0 querykey=""
	// reject: canonicalize "mailto:info@example.co.th": scope: not an http or https URL (scheme "mailto")
}
