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
	dst, _ = normalizeTextLabels(dst, src, false)
	return dst
}

// wordsText is normalizeText for a close group's word models: it also
// leaves out the label lines of src (labelLine), and reports false when
// leaving them out leaves too little text. labelFree calls it only for a
// text that has label lines.
func wordsText(src []byte) ([]byte, bool) {
	return normalizeTextLabels(make([]byte, 0, len(src)+2), src, true)
}

// labelText returns the label lines of src (labelLine), each ending in a
// line feed; nil when it has none.
func labelText(src []byte) []byte {
	var out []byte
	for i := 0; i < len(src); {
		end, ok := labelLine(src, i)
		if ok {
			out = append(append(out, src[i:end]...), '\n')
		}
		i = end + 1
	}
	return out
}

// normalizeTextLabels is normalizeText; with labels, the lines of src
// that are labels (labelLine) are left out as names are, and the bool
// reports whether any was (and the text left was kept).
func normalizeTextLabels(dst, src []byte, labels bool) ([]byte, bool) {
	dst = append(dst[:0], ' ')
	kept, dropped, left := 0, 0, false
	label := -1 // the end of the current line when it is a label (labelLine)
	for i := 0; i < len(src); {
		b := src[i]
		if labels && i > label && (i == 0 || src[i-1] == '\n') {
			label = -1
			if end, ok := labelLine(src, i); ok {
				label = end
			}
		}
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
		if i < label || isName(tok) {
			left = left || i < label
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
		return normalize(dst, src), false
	}
	return dst, left
}

// maxLabelWords is the most words a label line (labelLine) has.
const maxLabelWords = 4

// labelLine reports whether the line of src starting at i (lines are the
// extracted blocks) is a label rather than text, and returns its end: a
// line of one to maxLabelWords ASCII words, each with a capital letter
// ("Galaxy S24 Pro", "iPhone 15 Pro 999 EUR", "Desk Lamp", "Item 517").
// A line in a language has lower-case words, or letters beyond ASCII. A
// product grid's names say nothing of which of two close neighbours the
// page is in, whatever words they borrow: a trial found a Slovak shop
// page whose one Slovak line sat beside eight English product names read
// as Czech at 0.975, as two of the names ended in "Pro", which the Czech
// and Slovak word model counts for Czech (Slovak writes "pre"); six
// "Item 517" labels did the same at 0.999. Only the word models leave
// them out (wordsText): for the trigrams, a list of place names is often
// the page's only text in its language (leaving them out there put 5
// more list pages of TestEvaluationLists to English).
func labelLine(src []byte, i int) (end int, ok bool) {
	end = i
	for end < len(src) && src[end] != '\n' {
		end++
	}
	words := 0
	for k := i; k < end; {
		if !isLetterByte(src[k]) {
			k++
			continue
		}
		j, upper := k, false
		for j < end && isLetterByte(src[j]) {
			if src[j] >= 0x80 {
				return end, false
			}
			upper = upper || src[j] <= 'Z'
			j++
		}
		if !upper {
			return end, false
		}
		words++
		k = j
	}
	return end, words > 0 && words <= maxLabelWords
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
