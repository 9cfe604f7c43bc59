package links

import (
	"github.com/langcrawl/langcrawl/internal/plainurl"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// queryEncoding returns the encoding a page's links encode their queries
// in (Options.QueryCharset): nil for UTF-8, for the UTF-16 ones (the URL
// Standard uses UTF-8 for them) and for a name the WHATWG encoding index
// does not know.
func queryEncoding(charset string) encoding.Encoding {
	if charset == "" {
		return nil
	}
	e, err := htmlindex.Get(charset)
	if err != nil || e == unicode.UTF8 || e == unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM) ||
		e == unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM) {
		return nil
	}
	if n, _ := htmlindex.Name(e); n == "utf-8" || strings.HasPrefix(n, "utf-16") {
		return nil
	}
	return e
}

// encodeQuery returns ref with each non-ASCII character of its query
// written as the percent-encoded bytes enc gives it, as a browser does
// when it follows a link of a page in enc (URL Standard, query state: the
// query is encoded with the document's encoding; HTML, "encoding-parsing
// a URL"). A character enc cannot write becomes "%26%23N%3B", the
// percent-encoded "&#N;" the Encoding Standard's URL error mode writes.
// The path and the fragment stay UTF-8, as the standard has them; a
// query's ASCII is left to the URL parser.
func encodeQuery(ref string, enc encoding.Encoding) string {
	q := strings.IndexByte(ref, '?')
	if q < 0 {
		return ref
	}
	end := len(ref)
	if h := strings.IndexByte(ref, '#'); h >= 0 {
		if h < q {
			return ref // the '?' is in the fragment
		}
		end = h
	}
	query := ref[q+1 : end]
	ascii := true
	for i := 0; i < len(query); i++ {
		if query[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return ref
	}
	e := enc.NewEncoder()
	var b strings.Builder
	b.Grow(len(ref) + 2*len(query))
	b.WriteString(ref[:q+1])
	// A run of characters enc can write is encoded in one go, as the
	// browser encodes the query in one run of its encoder: a stateful
	// encoding (ISO-2022-JP) switches to JIS X 0208 once for the run and
	// back at its end, not around each character.
	var run []byte
	flush := func() {
		if len(run) == 0 {
			return
		}
		out, _ := e.Bytes(run) // each character checked below
		run = run[:0]
		for _, c := range out {
			// The query percent-encode set: C0 controls, space, '"',
			// '#', '<', '>' and bytes past ASCII (a multi-byte
			// encoding's trail byte may be ASCII, left as it is).
			if c <= ' ' || c == '"' || c == '#' || c == '<' || c == '>' || c >= 0x7f {
				plainurl.WriteEscape(&b, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	var buf [utf8.UTFMax]byte
	for _, r := range query {
		if r < utf8.RuneSelf {
			flush()
			b.WriteRune(r)
			continue
		}
		n := utf8.EncodeRune(buf[:], r)
		if out, err := e.Bytes(buf[:n]); err != nil || len(out) == 0 {
			flush()
			b.WriteString("%26%23" + strconv.Itoa(int(r)) + "%3B")
			continue
		}
		run = append(run, buf[:n]...)
	}
	flush()
	b.WriteString(ref[end:])
	return b.String()
}
