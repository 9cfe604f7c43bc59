package links

import (
	"net/url"
	"testing"

	"golang.org/x/text/encoding/japanese"
)

// TestQueryStatefulCharsetOneRun (from a review of the session's diff): a browser encodes a link's
// query in one run of the page's encoder (URL Standard, query state), so
// in ISO-2022-JP two Japanese characters are one switch to JIS X 0208 and
// one back: ESC $ B <4 bytes> ESC ( B. encodeQuery encoded each character
// with a fresh encoder, a switch and a switch back around every one, a
// URL no browser asks for (and pywb cannot serve from the page's link).
func TestQueryStatefulCharsetOneRun(t *testing.T) {
	if whole, _ := japanese.ISO2022JP.NewEncoder().String("日本"); whole != "\x1b$BF|K\\\x1b(B" {
		t.Fatalf("x/text's ISO-2022-JP gives %q", whole)
	}
	for _, tc := range []struct{ ref, want string }{
		{"/s?q=日本", "/s?q=%1B$BF|K\\%1B(B"},
		{"/s?q=日本&r=日", "/s?q=%1B$BF|K\\%1B(B&r=%1B$BF|%1B(B"},
	} {
		if got := encodeQuery(tc.ref, japanese.ISO2022JP); got != tc.want {
			t.Errorf("encodeQuery(%q, ISO-2022-JP) = %q; a browser asks for %q", tc.ref, got, tc.want)
		}
	}
	page, _ := url.Parse("http://jp.test/")
	p := Extract(page, []byte(`<a href="/s?q=日本">x</a>`), Options{QueryCharset: "iso-2022-jp"})
	ref := Extract(page, []byte("<a href=\"/s?q=%1B$BF|K\\%1B(B\">x</a>"), Options{})
	if len(p.Links) != 1 || len(ref.Links) != 1 || p.Links[0].URL != ref.Links[0].URL {
		t.Errorf("ISO-2022-JP page's link: %+v; want the URL of the one-run encoding %+v", p.Links, ref.Links)
	}
}
