package detect

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// canonical returns the WHATWG name of a charset label, or "" if the
// label is not one the WHATWG Encoding Standard knows (which includes the
// IANA names and aliases browsers honour). The "replacement" encoding is
// treated as unknown.
func canonical(label string) string {
	label = strings.Trim(strings.TrimSpace(label), `"'`)
	if label == "" {
		return ""
	}
	e, err := htmlindex.Get(label)
	if err != nil {
		return ""
	}
	name, err := htmlindex.Name(e)
	if err != nil || name == "replacement" {
		return ""
	}
	return name
}

// isNoiseLabel reports whether a declared label is one that authoring
// tools emit unconditionally (Tamura et al. 2007, section 2.2): ISO-8859-1
// and its aliases, and US-ASCII.
func isNoiseLabel(label string) bool {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`)) {
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "iso88591", "latin1", "l1",
		"iso-ir-100", "cp819", "ibm819", "csisolatin1", "iso_8859-1:1987",
		"us-ascii", "ascii", "ansi_x3.4-1968", "iso-8859-1:1987":
		return true
	}
	return false
}

// headerCharset returns the charset parameter of an HTTP Content-Type
// value, as written (not canonicalised), or "".
func headerCharset(contentType string) string {
	if contentType == "" {
		return ""
	}
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		return params["charset"]
	}
	// Malformed media types are common; fall back to a plain search.
	return charsetParam(contentType)
}

// charsetParam finds "charset=..." in a content attribute or header value.
func charsetParam(s string) string {
	// ASCII-only case folding keeps byte offsets (strings.ToLower would
	// change the length of invalid UTF-8).
	i := -1
	for j := 0; j+len("charset") <= len(s); j++ {
		if strings.EqualFold(s[j:j+len("charset")], "charset") {
			i = j
			break
		}
	}
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(s[i+len("charset"):], " \t")
	if !strings.HasPrefix(rest, "=") {
		return ""
	}
	rest = strings.TrimLeft(rest[1:], " \t")
	if rest == "" {
		return ""
	}
	if q := rest[0]; q == '"' || q == '\'' {
		if j := strings.IndexByte(rest[1:], q); j >= 0 {
			return rest[1 : 1+j]
		}
		return ""
	}
	end := strings.IndexAny(rest, "; \t\"'")
	if end < 0 {
		end = len(rest)
	}
	return rest[:end]
}

// bomCharset returns the charset a byte order mark names, and the BOM length.
func bomCharset(b []byte) (string, int) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return "utf-8", 3
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return "utf-16be", 2
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return "utf-16le", 2
	}
	return "", 0
}

// Decode returns body converted to UTF-8 using charset (any WHATWG label).
// A leading byte order mark is removed, and malformed input is replaced by
// U+FFFD as the WHATWG decoders do. An unknown label yields ErrUnknownCharset.
// An empty label decodes as UTF-8.
func Decode(body []byte, charset string) ([]byte, error) {
	name := "utf-8"
	if charset != "" {
		name = canonical(charset)
		if name == "" {
			return nil, &charsetError{label: charset}
		}
	}
	if bom, n := bomCharset(body); n > 0 {
		name = bom
		body = body[n:]
	}
	if name == "utf-8" {
		if utf8.Valid(body) {
			return append([]byte(nil), body...), nil
		}
		return []byte(strings.ToValidUTF8(string(body), "\uFFFD")), nil
	}
	e, _ := htmlindex.Get(name)
	out, _, err := transform.Bytes(e.NewDecoder(), body)
	if err != nil {
		return nil, &charsetError{label: charset, err: err}
	}
	return out, nil
}

type charsetError struct {
	label string
	err   error
}

func (e *charsetError) Error() string {
	if e.err != nil {
		return "detect: decode " + e.label + ": " + e.err.Error()
	}
	return ErrUnknownCharset.Error() + ": " + e.label
}

func (e *charsetError) Unwrap() error {
	if e.err != nil {
		return e.err
	}
	return ErrUnknownCharset
}

// encodeLegacy encodes UTF-8 text into charset the way legacy authoring
// tools did: characters the charset lacks are approximated (Romanian
// comma-below letters by cedilla ones, Vietnamese by a base letter plus
// combining tone marks, typographic punctuation by ASCII) or dropped.
// It is used to build profiles and evaluation pages.
func encodeLegacy(text string, charset string) ([]byte, error) {
	if charset == "utf-8" {
		return []byte(text), nil
	}
	e, err := htmlindex.Get(charset)
	if err != nil {
		return nil, &charsetError{label: charset}
	}
	enc := e.NewEncoder()
	out := make([]byte, 0, len(text))
	var buf [16]byte
	try := func(s string) bool {
		enc.Reset()
		nDst, _, err := enc.Transform(buf[:], []byte(s), true)
		if err != nil {
			return false
		}
		out = append(out, buf[:nDst]...)
		return true
	}
	if charset == "iso-2022-jp" {
		// Stateful: encode in one go, replacing what fails.
		var clean strings.Builder
		for _, r := range text {
			if s, ok := substitute[r]; ok {
				clean.WriteString(s)
				continue
			}
			if _, _, err := transform.String(e.NewEncoder(), string(r)); err != nil {
				continue
			}
			clean.WriteRune(r)
		}
		b, _, err := transform.Bytes(e.NewEncoder(), []byte(clean.String()))
		return b, err
	}
	for _, r := range text {
		if r < 0x80 {
			out = append(out, byte(r))
			continue
		}
		if try(string(r)) {
			continue
		}
		if s, ok := substitute[r]; ok {
			if try(s) {
				continue
			}
		}
		// Decompose, then recompose as much of the front as the charset holds.
		d := []rune(norm.NFD.String(string(r)))
		done := false
		for k := len(d); k >= 1 && !done; k-- {
			c := norm.NFC.String(string(d[:k]))
			if utf8.RuneCountInString(c) == 1 && try(c) {
				for _, m := range d[k:] {
					try(string(m))
				}
				done = true
			}
		}
	}
	return out, nil
}

var substitute = map[rune]string{
	'ș': "ş", 'ț': "ţ", 'Ș': "Ş", 'Ț': "Ţ",
	'‘': "'", '’': "'", '“': `"`, '”': `"`, '„': `"`, '«': `"`, '»': `"`,
	'‐': "-", '–': "-", '—': "-", '…': "...", '\u00a0': " ", '\u200b': "",
	// Persian and Urdu in windows-1256, which has no Farsi yeh: legacy
	// pages write the Arabic yeh for it. Dropped instead, the windows-1256
	// profiles of Persian and Urdu had never seen that letter, and an
	// Urdu trial (twenty-third session) found legacy Urdu lines read as
	// Arabic at up to 0.999, a server of them cut at T+1.
	'ی': "ي",
}

var _ encoding.Encoding // keep the import for doc links
