package plainurl

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
