package links

import (
	"bytes"
	"net/url"
	"strings"
	"unicode/utf8"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// ExtractCSS returns the absolute http(s) URLs that the stylesheet css names in url(...)
// and @import, resolved against base (the stylesheet's own URL; nil: only absolute
// URLs), without fragments, each once, in order, at most max (zero or less:
// DefaultMaxLinks). These are the requisites of a requisite: fonts, images and
// imported stylesheets. Comments and CSS escapes are understood; image-set() strings
// without url() are not.
func ExtractCSS(base *url.URL, css []byte, max int) []string {
	if max <= 0 {
		max = DefaultMaxLinks
	}
	var b *whatwg.Url
	if base != nil {
		if u, err := parser.Parse(base.String()); err == nil {
			b = u
		}
	}
	var out []string
	seen := make(map[string]bool)
	cssRefs(css, func(ref string) bool {
		if skipRef(ref) {
			return true
		}
		abs, ok := resolve(b, ref)
		if !ok || seen[abs] {
			return true
		}
		seen[abs] = true
		out = append(out, abs)
		return len(out) < max
	})
	return out
}

// cssRefs calls emit with each url(...) and @import reference of css, as written (CSS
// escapes decoded), until emit returns false.
func cssRefs(css []byte, emit func(ref string) bool) {
	n := len(css)
	for i := 0; i < n; {
		c := css[i]
		switch {
		case c == '/' && i+1 < n && css[i+1] == '*':
			end := bytes.Index(css[i+2:], []byte("*/"))
			if end < 0 {
				return
			}
			i += 2 + end + 2
		case c == '"' || c == '\'':
			_, i = cssString(css, i)
		case c == '\\':
			i += 2 // an escaped character is never the start of url( or a string
		case c == '@' && hasPrefixFold(css[i:], "@import"):
			j := skipSpaceComments(css, i+len("@import"))
			if j < n && (css[j] == '"' || css[j] == '\'') {
				s, end := cssString(css, j)
				if !emit(s) {
					return
				}
				i = end
			} else {
				i = j
			}
		case (c == 'u' || c == 'U') && hasPrefixFold(css[i:], "url(") && (i == 0 || !isIdent(css[i-1])):
			s, end, ok := cssURL(css, i+len("url("))
			if ok && !emit(s) {
				return
			}
			i = end
		default:
			i++
		}
	}
}

// cssURL reads the inside of url( starting at i, and returns the reference, the index
// after the closing parenthesis, and whether a reference was read.
func cssURL(css []byte, i int) (string, int, bool) {
	n := len(css)
	i = skipSpace(css, i)
	if i < n && (css[i] == '"' || css[i] == '\'') {
		s, end := cssString(css, i)
		end = skipSpace(css, end)
		if end < n && css[end] == ')' {
			end++
		}
		return s, end, true
	}
	var b strings.Builder
	for i < n {
		c := css[i]
		switch {
		case c == ')':
			return strings.TrimRight(b.String(), " \t\n\r\f"), i + 1, true
		case c == '\\':
			r, next := cssEscape(css, i)
			b.WriteRune(r)
			i = next
		case c == '"' || c == '\'' || c == '(':
			// A bad url token: skip it up to the closing parenthesis.
			for i < n && css[i] != ')' {
				i++
			}
			return "", i, false
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", n, false // no closing parenthesis
}

// cssString reads the string whose quote is at i, and returns its value and the index
// after the closing quote. A newline or the end of input ends a bad string.
func cssString(css []byte, i int) (string, int) {
	q := css[i]
	i++
	var b strings.Builder
	for i < len(css) {
		c := css[i]
		switch c {
		case q:
			return b.String(), i + 1
		case '\n':
			return b.String(), i
		case '\\':
			if i+1 < len(css) && (css[i+1] == '\n' || css[i+1] == '\r' || css[i+1] == '\f') {
				i += 2 // line continuation
				continue
			}
			r, next := cssEscape(css, i)
			b.WriteRune(r)
			i = next
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), i
}

// cssEscape decodes the escape whose backslash is at i (CSS Syntax 4.3.7) and returns
// the character and the index after the escape.
func cssEscape(css []byte, i int) (rune, int) {
	i++ // the backslash
	if i >= len(css) {
		return utf8.RuneError, i
	}
	if hexVal(css[i]) < 0 {
		r, size := utf8.DecodeRune(css[i:])
		return r, i + size
	}
	var r rune
	j := i
	for ; j < len(css) && j < i+6 && hexVal(css[j]) >= 0; j++ {
		r = r*16 + rune(hexVal(css[j]))
	}
	if j < len(css) && isSpace(css[j]) {
		j++
	}
	if r == 0 || r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
		r = utf8.RuneError
	}
	return r, j
}

func skipSpace(css []byte, i int) int {
	for i < len(css) && isSpace(css[i]) {
		i++
	}
	return i
}

func skipSpaceComments(css []byte, i int) int {
	for {
		i = skipSpace(css, i)
		if i+1 < len(css) && css[i] == '/' && css[i+1] == '*' {
			end := bytes.Index(css[i+2:], []byte("*/"))
			if end < 0 {
				return len(css)
			}
			i += 2 + end + 2
			continue
		}
		return i
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func isIdent(c byte) bool {
	return c == '-' || c == '_' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}
