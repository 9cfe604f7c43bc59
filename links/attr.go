package links

import "strings"

// srcset calls emit with each candidate URL of a srcset attribute, following the HTML
// Standard's "parse a srcset attribute": candidates are separated by commas, a URL runs
// to the next whitespace (trailing commas end the candidate), and descriptors, which may
// hold commas inside parentheses, run to the next comma outside them.
func srcset(s string, emit func(string)) {
	i, n := 0, len(s)
	for i < n {
		for i < n && (isSpace(s[i]) || s[i] == ',') {
			i++
		}
		if i >= n {
			return
		}
		start := i
		for i < n && !isSpace(s[i]) {
			i++
		}
		u := s[start:i]
		if strings.HasSuffix(u, ",") {
			emit(strings.TrimRight(u, ","))
			continue
		}
		emit(u)
		depth := 0
		for ; i < n; i++ {
			switch s[i] {
			case '(':
				depth++
			case ')':
				if depth > 0 {
					depth--
				}
			case ',':
				if depth == 0 {
					i++
					goto next
				}
			}
		}
	next:
	}
}

// refreshURL returns the URL of a <meta http-equiv="refresh"> content value, following
// the HTML Standard's "shared declarative refresh steps": a time, then ';' or ',', then
// an optional "url=", then the URL, optionally quoted. ok is false when there is no URL
// (the page refreshes itself) or the value is malformed.
func refreshURL(content string) (ref string, ok bool) {
	s := strings.TrimLeft(content, " \t\n\r\f")
	i := 0
	for i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i == 0 {
		return "", false
	}
	s = strings.TrimLeft(s[i:], " \t\n\r\f")
	if s == "" {
		return "", false
	}
	if s[0] != ';' && s[0] != ',' {
		// The time must be followed by a separator or whitespace (trimmed above).
		if len(s) == len(content) {
			return "", false
		}
	} else {
		s = s[1:]
	}
	s = strings.TrimLeft(s, " \t\n\r\f")
	if len(s) >= 3 && strings.EqualFold(s[:3], "url") {
		rest := strings.TrimLeft(s[3:], " \t\n\r\f")
		if strings.HasPrefix(rest, "=") {
			s = strings.TrimLeft(rest[1:], " \t\n\r\f")
		}
	}
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		q := s[0]
		s = s[1:]
		if j := strings.IndexByte(s, q); j >= 0 {
			s = s[:j]
		}
	}
	s = strings.TrimRight(s, " \t\n\r\f")
	return s, s != ""
}
