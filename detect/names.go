package detect

// normalizeText is normalize for the text of a page being identified
// (not for training text): it leaves out the tokens that are names
// rather than words of a language, so that a product or format name
// ("BitTorrent", "AutoCAD", "JPEG") does not vote for the language it
// was coined in. A name is an ASCII token written in capitals ("ROM",
// "CPIO") or in camel case starting with a capital ("AppImage",
// "BibTeX"); tokens with non-ASCII bytes, capitalised words ("Republik")
// and words with a lower-case prefix ("mBaile", "yaseNingizimu", as Irish
// and Zulu write them) are kept. When leaving the names out would leave
// too little text to score, the text is normalised whole.
func normalizeText(dst, src []byte) []byte {
	dst = append(dst[:0], ' ')
	kept, dropped := 0, 0
	for i := 0; i < len(src); {
		b := src[i]
		if !isLetterByte(b) {
			if dst[len(dst)-1] != ' ' {
				dst = append(dst, ' ')
			}
			i++
			continue
		}
		j := i
		for j < len(src) && isLetterByte(src[j]) {
			j++
		}
		tok := src[i:j]
		if isName(tok) {
			dropped += len(tok)
		} else {
			kept += len(tok)
			for _, c := range tok {
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				dst = append(dst, c)
			}
			dst = append(dst, ' ')
		}
		i = j
	}
	if dropped > 0 && kept < minNameless {
		return normalize(dst, src)
	}
	return dst
}

// minNameless is the number of letters (bytes) that must be left once
// names are left out for them to be left out.
const minNameless = 12

func isLetterByte(b byte) bool {
	return b >= 0x80 || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}

// isName reports whether an ASCII token is an acronym ("PDF") or a camel
// case name ("BitTorrent").
func isName(tok []byte) bool {
	if len(tok) < 2 || tok[0] < 'A' || tok[0] > 'Z' {
		return false
	}
	lower, camel := false, false
	for i, c := range tok {
		switch {
		case c >= 0x80:
			return false
		case c >= 'a' && c <= 'z':
			lower = true
		case i > 0 && tok[i-1] >= 'a' && tok[i-1] <= 'z':
			camel = true
		}
	}
	return !lower || camel
}
