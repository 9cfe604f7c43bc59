package links

import (
	"net/url"
	"testing"
)

// TestQueryInPageCharset: a link's query is percent-encoded in the page's
// charset, as a browser does (URL Standard, query state), its path and
// fragment in UTF-8; a character the charset cannot write becomes the
// percent-encoded "&#N;". A replay review found a TIS-620 page's search
// link fetched and archived as q=%E0%B9%84%E0%B8%97%E0%B8%A2 (UTF-8), a URL
// no browser reading the page asks for.
func TestQueryInPageCharset(t *testing.T) {
	page, _ := url.Parse("http://thai.test/dir/")
	for _, tt := range []struct {
		charset, ref, want string
	}{
		{"windows-874", "/search?q=ไทย", "http://thai.test/search?q=%E4%B7%C2"},
		{"TIS-620", "/search?q=ไทย&x=1", "http://thai.test/search?q=%E4%B7%C2&x=1"},
		{"tis-620", "ไทย.html?q=ไทย#ไทย", "http://thai.test/dir/%E0%B9%84%E0%B8%97%E0%B8%A2.html?q=%E4%B7%C2"},
		{"windows-874", "/a#x?q=ไทย", "http://thai.test/a"},
		{"windows-874", "/s?q=日", "http://thai.test/s?q=%26%2326085%3B"},
		{"windows-874", "/s?q=a%20b", "http://thai.test/s?q=a%20b"},
		{"gbk", "/s?q=中文", "http://thai.test/s?q=%D6%D0%CE%C4"},
		{"iso-8859-1", "/s?q=café", "http://thai.test/s?q=caf%E9"},
		{"utf-8", "/search?q=ไทย", "http://thai.test/search?q=%E0%B9%84%E0%B8%97%E0%B8%A2"},
		{"", "/search?q=ไทย", "http://thai.test/search?q=%E0%B9%84%E0%B8%97%E0%B8%A2"},
		{"UTF-16LE", "/search?q=ไทย", "http://thai.test/search?q=%E0%B9%84%E0%B8%97%E0%B8%A2"},
		{"no-such-charset", "/search?q=ไทย", "http://thai.test/search?q=%E0%B9%84%E0%B8%97%E0%B8%A2"},
	} {
		p := Extract(page, []byte(`<a href="`+tt.ref+`">x</a>`), Options{QueryCharset: tt.charset})
		if len(p.Links) != 1 || p.Links[0].URL != tt.want {
			t.Errorf("%s page, href %q: %+v; want %s", tt.charset, tt.ref, p.Links, tt.want)
		}
	}
}
