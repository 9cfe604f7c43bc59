package plainurl

import "strings"

// IsHex reports whether c is a hexadecimal digit, either case.
func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Unhex returns the value of the hexadecimal digit c (IsHex(c) holds).
func Unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// Unreserved reports whether c is an unreserved character of RFC 3986
// (section 2.3): letters, digits, '-', '.', '_' and '~', which a
// percent-escape names the same as the character itself.
func Unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// Escape returns the byte the percent-escape at s[i] names ("%7e": '~'),
// and false when s[i:] starts no escape ('%' and two hex digits).
func Escape(s string, i int) (byte, bool) {
	if i+2 >= len(s) || s[i] != '%' || !IsHex(s[i+1]) || !IsHex(s[i+2]) {
		return 0, false
	}
	return Unhex(s[i+1])<<4 | Unhex(s[i+2]), true
}

// WriteEscape writes c percent-encoded, in upper-case hex: "%7E".
func WriteEscape(b *strings.Builder, c byte) {
	const hex = "0123456789ABCDEF"
	b.WriteByte('%')
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&15])
}

// WriteNormalEscape writes the byte c an escape named as RFC 3986
// (section 6.2.2) normalises the escape: c itself when unreserved, else
// the escape in upper-case hex.
func WriteNormalEscape(b *strings.Builder, c byte) {
	if Unreserved(c) {
		b.WriteByte(c)
	} else {
		WriteEscape(b, c)
	}
}
