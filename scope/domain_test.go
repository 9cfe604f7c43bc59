package scope

import (
	"net/url"
	"testing"
)

func TestRegisteredDomain(t *testing.T) {
	tests := []struct{ host, want string }{
		{"www.example.com", "example.com"},
		{"example.com", "example.com"},
		{"WWW.Example.COM", "example.com"},
		{"a.b.example.co.th", "example.co.th"},
		{"www.chula.ac.th", "chula.ac.th"},
		{"news.bbc.co.uk", "bbc.co.uk"},
		{"www.example.com:8080", "example.com"},
		{"www.example.com.", "example.com"},
		{"a.b.test", "b.test"}, // ".test" is unknown to the list: default rule "*"
		{"th1.test", "th1.test"},
		{"foo.blogspot.com", "foo.blogspot.com"}, // private section of the list
		{"xn--72c1a1bt4awk9o.xn--o3cw4h", "xn--72c1a1bt4awk9o.xn--o3cw4h"},
		// Fallbacks: the host itself.
		{"localhost", "localhost"},
		{"localhost:8080", "localhost"},
		{"co.uk", "co.uk"},
		{"com", "com"},
		{"127.0.0.1", "127.0.0.1"},
		{"127.0.0.1:8080", "127.0.0.1"},
		{"[::1]:8080", "::1"},
		{"::1", "::1"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := RegisteredDomain(tt.host); got != tt.want {
			t.Errorf("RegisteredDomain(%q) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestInternal(t *testing.T) {
	tests := []struct {
		tree, host string
		want       bool
	}{
		{"example.com", "example.com", true},
		{"example.com", "www.example.com", true},
		{"example.com", "a.b.example.com", true},
		{"example.com", "WWW.EXAMPLE.COM", true},
		{"example.com", "www.example.com:8080", true},
		{"example.com", "www.example.com.", true},
		{"example.com", "badexample.com", false},
		{"example.com", "example.com.evil.org", false},
		{"example.com", "example.org", false},
		{"example.com", "com", false},
		{"www.example.com", "example.com", false}, // a parent is not inside the tree
		{"b.test", "a.b.test", true},
		{"th1.test", "th2.test", false},
		{"localhost", "localhost:8080", true},
		{"127.0.0.1", "127.0.0.1:8080", true},
		{"0.0.1", "127.0.0.1", false}, // IPs match only themselves
		{"::1", "[::1]:80", true},
		{"", "example.com", false},
		{"example.com", "", false},
	}
	for _, tt := range tests {
		if got := Internal(tt.tree, tt.host); got != tt.want {
			t.Errorf("Internal(%q, %q) = %v, want %v", tt.tree, tt.host, got, tt.want)
		}
	}
}

func TestKeys(t *testing.T) {
	tests := []struct {
		in               string
		site, dir, query string
	}{
		// Tamura et al. 2007, section 4.3.
		{"http://www.xsp.com/user1/whatsnew.html", "www.xsp.com", "www.xsp.com/user1/", ""},
		{"http://www.xsp.com/user2/diary/index.htm", "www.xsp.com", "www.xsp.com/user2/", ""},
		{"http://www.xsp.com/about.html", "www.xsp.com", "www.xsp.com/", ""},
		{"http://www.xsp.com/", "www.xsp.com", "www.xsp.com/", ""},
		{"http://www.xsp.com", "www.xsp.com", "www.xsp.com/", ""},
		{"http://www.xsp.com/user1/", "www.xsp.com", "www.xsp.com/user1/", ""},
		{"http://www.xsp.com/user1", "www.xsp.com", "www.xsp.com/", ""},
		{"http://WWW.XSP.com:80/a/b", "www.xsp.com", "www.xsp.com/a/", ""},
		{"https://www.xsp.com:443/a/b", "www.xsp.com", "www.xsp.com/a/", ""},
		{"http://www.xsp.com:8080/a/b", "www.xsp.com:8080", "www.xsp.com:8080/a/", ""},
		{"https://www.xsp.com:80/a/b", "www.xsp.com:80", "www.xsp.com:80/a/", ""},
		{"http://[::1]:80/", "[::1]", "[::1]/", ""},
		// A trailing dot is the same host: one site (it was a second one).
		{"http://Dot.test./a/b", "dot.test", "dot.test/a/", ""},
		{"http://dot.test.:8080/", "dot.test:8080", "dot.test:8080/", ""},
		{"http://dot.test.:80/", "dot.test", "dot.test/", ""},
		{"http://[::1]:81/%E0%B8%81/x", "[::1]:81", "[::1]:81/%E0%B8%81/", ""},
		// Nakahira et al. 2008, section 2.2.
		{"http://www.xsp.com/index.php?id=2", "www.xsp.com", "www.xsp.com/", "http://www.xsp.com/index.php"},
		{"http://www.xsp.com/index.php?id=3&x=1", "www.xsp.com", "www.xsp.com/", "http://www.xsp.com/index.php"},
		{"http://www.xsp.com/index.php?", "www.xsp.com", "www.xsp.com/", "http://www.xsp.com/index.php"},
		{"http://www.xsp.com/a/list.cgi?p=1", "www.xsp.com", "www.xsp.com/a/", "http://www.xsp.com/a/list.cgi"},
		{"https://www.xsp.com:8443/?p=1", "www.xsp.com:8443", "www.xsp.com:8443/", "https://www.xsp.com:8443/"},
		{"http://www.xsp.com:80?p=1", "www.xsp.com", "www.xsp.com/", "http://www.xsp.com/"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := SiteKey(u); got != tt.site {
			t.Errorf("SiteKey(%q) = %q, want %q", tt.in, got, tt.site)
		}
		if got := DirKey(u); got != tt.dir {
			t.Errorf("DirKey(%q) = %q, want %q", tt.in, got, tt.dir)
		}
		if got := QueryKey(u); got != tt.query {
			t.Errorf("QueryKey(%q) = %q, want %q", tt.in, got, tt.query)
		}
	}
}
