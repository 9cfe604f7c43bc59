package detect

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The second stage: close languages decided by their words.
//
// Byte trigrams separate most languages well but confuse closely related
// ones whose spelling overlaps (Indonesian and Malay, Danish and Bokmål,
// Croatian and Slovenian, Zulu and Xhosa): their profiles hold mostly the
// same trigrams, and a few hundred characters of text can tip either way.
// Following the work on discriminating similar languages (Tiedemann and
// Ljubešić, "Efficient Discrimination Between Closely Related Languages",
// COLING 2012, and the DSL shared tasks since 2014), which found that
// word-level features separate such groups far better than character
// n-grams trained over all languages, the trigram classifier is used as
// the first stage only: when its two best languages form one of the close
// groups below, a naive Bayes model of words and word pairs, trained by
// the builder on that group's text alone (the same UDHR articles and
// catalogue messages as the profiles), decides between the two, with the
// trigram margin counted against it at a small weight (pairWeight). Tiedemann and Ljubešić classify
// with a group model from the start and need the group to be known; here
// the trigram stage names the group, so the detector still covers all
// languages, and the word model is consulted only where it is needed.

// closeGroups are the sets of related languages that get a word model.
// A language is in at most one group.
//
// Issue 14's third part joined the two Cyrillic groups into one (Russian
// against Bulgarian or Macedonian had no second stage before; with the
// spelling features the one group measured 2 pages better in domain
// than two groups, and the web-style Russian sentences all right) and
// added Catalan to the Ibero-Romance group, Czech and Slovak, and Hindi,
// Nepali and Marathi (2 web-style Nepali pages had gone to Hindi).
//
// Measured and left out: Xhosa and Zulu (in-domain 6 pages better,
// out-of-domain 11 worse: Zulu country names went to Xhosa), Amharic and
// Tigrinya (no page changed at the weight chosen; Tigrinya has 1.7 KB of
// catalogue text to learn words from). Chinese and Japanese have no
// spaces to read words by.
var closeGroups = [][]string{
	{"id", "ms"},
	{"da", "nb"},
	{"hr", "sl"},
	{"mk", "bg", "sr", "uk", "ru", "be"},
	{"es", "gl", "pt", "ca"},
	{"hi", "ne", "mr"},
	{"cs", "sk"},
}

func hasDist(dist map[string]int, w string) bool { _, ok := dist[w]; return ok }

// sharedShrink scales the evidence of a word that every member's spelling
// list holds (groupLists): both languages write it, so how often the
// training text of each uses it says more about that text (translators of
// user interfaces) than about the language.
const sharedShrink = 0.5

// maxGroupTrain caps the catalogue text, beyond maxCatalogueTrain, that a
// close group member's word model reads besides its profiles' text: words
// need more text than trigrams to be counted well.
const maxGroupTrain = 0

// Word model sizes and smoothing.
const (
	wordAlpha      = 0.5  // additive smoothing of word counts
	bigramMinCount = 3    // the same for word pairs
	wordMinCount   = 2    // words seen fewer times in the whole group are left out
	wordMinSpan    = 0.25 // words whose log-probabilities differ less than this (nats) across the group are left out
	wordScale      = 8.0  // log-probability differences are stored as int8 of value*wordScale
	listCount      = 1    // pseudo-count of a word in a member's spelling list (groupLists)
	maxWordBytes   = 48   // longer "words" are ignored; single letters count (leaving them out measured worse on both sets)
	// maxWordText caps the normalised text (bytes) the word model reads:
	// a third of the trigram stage's, as a hundred words or more decide
	// and the words cost more per byte than the trigrams.
	maxWordText = 1024
)

// wordModel is the naive Bayes model of one close group over words and
// word pairs ("kata laluan"). For each of them it holds, per member, the word's log-probability minus
// the mean over the members: only differences between members matter.
type wordModel struct {
	Tags  []string
	Words []string // ascending
	Delta []int8   // len(Words)*len(Tags)
	index map[string]int32
	// suffixes: the model holds word endings ("-ção", wordSuffixes), so
	// scoring reads them.
	suffixes bool
	// script: the script class its words are written in (mainScript),
	// for ownScript.
	script string
}

func (m *wordModel) init() {
	m.index = make(map[string]int32, len(m.Words))
	var sb strings.Builder
	for i, w := range m.Words {
		m.index[w] = int32(i)
		m.suffixes = m.suffixes || strings.HasPrefix(w, "-")
		if sb.Len() < 4096 {
			sb.WriteString(w)
			sb.WriteByte(' ')
		}
	}
	m.script = mainScript(sb.String())
}

func (m *wordModel) member(tag string) int {
	for i, t := range m.Tags {
		if t == tag {
			return i
		}
	}
	return -1
}

// forWords calls f with each word of norm (text normalised by normalize,
// then valid UTF-8): maximal runs of letters and combining marks,
// lower-cased. buf is scratch space for the lower-cased word.
func forWords(norm []byte, buf []byte, f func(w []byte)) {
	w := buf[:0]
	flush := func() {
		if len(w) > 0 && len(w) <= maxWordBytes {
			f(w)
		}
		w = w[:0]
	}
	for i := 0; i < len(norm); {
		c := norm[i]
		if c < 0x80 {
			i++
			if c >= 'a' && c <= 'z' {
				w = append(w, c)
			} else {
				flush()
			}
			continue
		}
		r, n := utf8.DecodeRune(norm[i:])
		i += n
		if r < rune(len(lower2)) {
			r = lower2[r] // two-byte runes: Latin, Greek, Cyrillic, ... from the table
		} else if r != utf8.RuneError && (unicode.IsLetter(r) || unicode.Is(unicode.M, r)) {
			r = unicode.ToLower(r)
		} else {
			r = -1
		}
		if r >= 0 {
			w = utf8.AppendRune(w, r)
		} else {
			flush()
		}
	}
	flush()
}

// lower2 maps each rune below U+0800 (one or two bytes of UTF-8) to its
// lower case if it is a letter or mark, else to -1: unicode.IsLetter and
// unicode.ToLower took two thirds of the word stage on Cyrillic text.
var lower2 = func() (t [0x800]rune) {
	for r := range t {
		t[r] = -1
		if unicode.IsLetter(rune(r)) || unicode.Is(unicode.M, rune(r)) {
			t[r] = unicode.ToLower(rune(r))
		}
	}
	return t
}()

// forFeatures calls f with the features of norm: each word, with
// wordBigrams each pair of adjacent words joined by a space, and with
// suffixes the ending of each longer word after a hyphen ("-ção").
func forFeatures(norm []byte, suffixes bool, f func(w []byte)) {
	var wb [maxWordBytes + 8]byte
	var pb [2*maxWordBytes + 16]byte
	var sb []byte // escapes to the heap through f: only when needed
	if suffixes {
		sb = make([]byte, 0, 1+4*suffixRunes)
	}
	prev := pb[:0]
	forWords(norm, wb[:0], func(w []byte) {
		f(w)
		if suffixes {
			if i := suffixStart(w); i > 0 {
				sb = append(append(sb[:0], '-'), w[i:]...)
				f(sb)
			}
		}
		if !wordBigrams {
			return
		}
		if len(prev) > 0 {
			prev = append(append(prev, ' '), w...)
			f(prev)
		}
		prev = append(prev[:0], w...)
	})
}

// wordSuffixes adds the endings of words to the features of the groups
// whose members have spelling lists (spellingLists): the spelling
// of the group's languages (Portuguese -ção against Spanish -ción,
// Ukrainian -ння against Russian -ние, Danish -hed against Bokmål -het),
// learnt from the same training text as the words, which also speaks for
// words that text never holds (a name, a new word).
const wordSuffixes = true

// suffixRunes is the length of a word ending (wordSuffixes), in
// characters; only words at least one character longer have one.
const suffixRunes = 3

// suffixStart returns the byte offset in w of its last suffixRunes
// characters, or 0 when w has no more than suffixRunes characters.
func suffixStart(w []byte) int {
	i, n := len(w), 0
	for i > 0 && n < suffixRunes {
		i--
		for i > 0 && w[i]&0xC0 == 0x80 {
			i--
		}
		n++
	}
	return i
}

// wordBigrams adds word pairs to the features: in-domain Indonesian went
// from 64 to 67 of 69 pages, nothing else changed, for 66 KB of profiles
// (with pairs seen at least 3 times; at least 2 cost 209 KB).
const wordBigrams = true

// buildWordModel trains the model of one group from each member's
// training text (raw UTF-8, as for the trigram profiles).
//
// lists holds, per member, the words of its spelling vocabulary (nil for
// none): a word that some members' lists hold and others' do not counts
// listCount more times for each member that holds it, as if seen in its
// text; so "universiti" and "kualiti" speak for Malay, "universitas" for
// Indonesian, though the training text never uses them.
//
// spell holds, per member, the words of its spelling list
// (spellingLists; nil for none): the endings of its words
// (wordSuffixes) are counted over the list, once per word, and not over
// the training text.
func buildWordModel(tags []string, texts []string, lists, spell []map[string]bool) *wordModel {
	return buildWordModelWith(tags, texts, lists, spell, distinctive, 1)
}

// buildWordModelWith is buildWordModel with the distinctive lists (by
// tag, as distinctive) and the share of a learnt word's evidence kept
// (learnt; the distinctive words keep theirs in full): the variant
// models (variant.go) use their own lists and keep a quarter.
func buildWordModelWith(tags []string, texts []string, lists, spell []map[string]bool, distinct map[string]string, learnt float64) *wordModel {
	counts := make([]map[string]int, len(tags))
	totals := make([]int, len(tags))
	all := map[string]int{}
	for i, t := range texts {
		counts[i] = map[string]int{}
		// The endings come from the spelling lists alone.
		forFeatures(normalize(nil, []byte(t)), false, func(w []byte) {
			counts[i][string(w)]++
			all[string(w)]++
			totals[i]++
		})
	}
	listed := map[string]bool{} // words some members' lists hold and others' do not
	shared := map[string]bool{} // words every member's list holds
	if len(lists) == len(tags) {
		for _, l := range lists {
			for w := range l {
				k := 0
				for _, o := range lists {
					if o[w] {
						k++
					}
				}
				if k < len(lists) {
					listed[w] = true // not every member spells it so
				} else {
					shared[w] = true
				}
			}
		}
		for w := range listed {
			for i, l := range lists {
				if l[w] {
					counts[i][w] += listCount
					totals[i] += listCount
				}
			}
		}
	}
	// The distinctive words of each member (spelling.go), and the member
	// each one speaks for; a word listed for two members is left out.
	dist := map[string]int{}
	for i, tag := range tags {
		for _, w := range distinctiveWords(distinct, tag) {
			if j, ok := dist[w]; ok && j != i {
				dist[w] = -1
				continue
			}
			dist[w] = i
		}
	}
	var vocab []string
	for w, i := range dist {
		if i >= 0 && !listed[w] {
			vocab = append(vocab, w)
		}
	}
	for w, c := range all {
		if listed[w] {
			continue
		}
		if i, ok := dist[w]; ok && i >= 0 {
			continue // already in
		}
		if c >= wordMinCount && (c >= bigramMinCount || !strings.Contains(w, " ")) {
			vocab = append(vocab, w)
		}
	}
	for w := range listed {
		vocab = append(vocab, w)
	}
	sort.Strings(vocab)
	m := &wordModel{Tags: append([]string(nil), tags...)}
	// The endings come first: "-" sorts before every letter.
	if wordSuffixes && len(spell) == len(tags) {
		suffixFeatures(m, spell)
	}
	lp := make([]float64, len(tags))
	v := float64(len(vocab))
	for _, w := range vocab {
		lo, hi, mean := math.Inf(1), math.Inf(-1), 0.0
		for i := range tags {
			lp[i] = math.Log((float64(counts[i][w]) + wordAlpha) / (float64(totals[i]) + wordAlpha*v))
		}
		if j, ok := dist[w]; ok && j >= 0 {
			// At least distinctiveNats over every other member.
			for i := range tags {
				if i != j && lp[j]-lp[i] < distinctiveNats {
					lp[i] = lp[j] - distinctiveNats
				}
			}
		}
		for i := range tags {
			lo, hi = min(lo, lp[i]), max(hi, lp[i])
			mean += lp[i]
		}
		if hi-lo < wordMinSpan {
			continue // no evidence either way
		}
		mean /= float64(len(tags))
		shrink := 1.0
		if shared[w] && dist[w] < 0 || shared[w] && !hasDist(dist, w) {
			shrink = sharedShrink
		}
		if j, ok := dist[w]; !ok || j < 0 {
			shrink *= learnt
		}
		m.Words = append(m.Words, w)
		for i := range tags {
			q := math.Round((lp[i] - mean) * shrink * wordScale)
			m.Delta = append(m.Delta, int8(max(-127, min(127, q))))
		}
	}
	m.init()
	return m
}

// Spelling features (wordSuffixes) from the members' spelling lists.
const (
	suffixMinCount = 20  // endings of fewer list words in the whole group are left out
	suffixMinSpan  = 1.0 // endings whose log-probabilities differ less than this (nats) are left out
	suffixWeight   = 1.0 // the share of an ending's log-probability difference that counts
)

// suffixFeatures adds to m the endings of the words of each member's
// spelling list that tell the members apart: a naive Bayes model of the
// ending of a word, counted over the list's words (types, not tokens),
// its log-probability differences scaled by suffixWeight, as an ending
// and the word it ends are not independent evidence.
func suffixFeatures(m *wordModel, spell []map[string]bool) {
	k := len(spell)
	counts := make([]map[string]int, k)
	totals := make([]int, k)
	all := map[string]int{}
	for i, l := range spell {
		counts[i] = map[string]int{}
		for w := range l {
			if j := suffixStart([]byte(w)); j > 0 {
				f := "-" + w[j:]
				counts[i][f]++
				totals[i]++
				all[f]++
			}
		}
	}
	var feats []string
	for f, c := range all {
		if c >= suffixMinCount {
			feats = append(feats, f)
		}
	}
	sort.Strings(feats)
	v := float64(len(feats))
	lp := make([]float64, k)
	for _, f := range feats {
		lo, hi, mean := math.Inf(1), math.Inf(-1), 0.0
		for i := range spell {
			lp[i] = math.Log((float64(counts[i][f]) + wordAlpha) / (float64(totals[i]) + wordAlpha*v))
			lo, hi = min(lo, lp[i]), max(hi, lp[i])
			mean += lp[i]
		}
		if hi-lo < suffixMinSpan {
			continue
		}
		mean /= float64(k)
		m.Words = append(m.Words, f)
		for i := range spell {
			q := math.Round((lp[i] - mean) * suffixWeight * wordScale)
			m.Delta = append(m.Delta, int8(max(-127, min(127, q))))
		}
	}
}

// score returns, for members a and b, the log-likelihood of norm's words
// under b minus that under a, and how many words of the model it holds.
func (m *wordModel) score(norm []byte, a, b int) (diff float64, hits int) {
	return m.scoreWords(norm, a, b, false)
}

// scoreWords is score; with evidenceOnly, a word whose weights for a and
// b are equal is not counted among the hits.
func (m *wordModel) scoreWords(norm []byte, a, b int, evidenceOnly bool) (diff float64, hits int) {
	k := len(m.Tags)
	var s int
	forFeatures(norm, m.suffixes, func(w []byte) {
		if i, ok := m.index[string(w)]; ok {
			d := int(m.Delta[int(i)*k+b]) - int(m.Delta[int(i)*k+a])
			if d != 0 || !evidenceOnly {
				s += d
				hits++
			}
		}
	})
	return float64(s) / wordScale, hits
}

// pairWeight is how much the trigram stage's log-likelihood difference
// counts against the word model's in the second stage: 0 lets the words
// alone decide. With 0, out-of-domain Zulu and Danish lost pages that the
// trigrams had right (a page of country names: "I-Angola" gives the
// word "i"); 0.1 kept them, 0.2 and 0.5 lost in-domain Indonesian pages.
const pairWeight = 0.1

// secondStage decides between the two best languages of s when they form
// a close group, or, when the second is not of the best's group, between
// the best and its group's best-scoring other member (scored.grpTag). It
// returns the language tag to use, the other of the two (rival), the
// confidence z (margin over the square root of the evidence), the words
// scored and whether the words had any say.
func (d *Detector) secondStage(s scored) (tag, rival string, z float64, hits int, ok bool) {
	m := d.groups[s.tag]
	if m == nil || s.secTag == "" {
		return s.tag, "", 0, 0, false
	}
	if m.member(s.secTag) < 0 && s.grpTag != "" {
		s.secTag, s.second = s.grpTag, s.grpScore
	}
	a, b := m.member(s.tag), m.member(s.secTag)
	if a < 0 || b < 0 {
		return s.tag, "", 0, 0, false
	}
	diff, hits, ok := d.scoreText(m, s, min(s.n+2, maxWordText), a, b, false)
	if !ok || hits == 0 {
		return s.tag, "", 0, 0, false
	}
	margin := diff - pairWeight*(s.score-s.second)
	z = math.Abs(margin) / math.Sqrt(float64(hits))
	tag, rival = s.tag, s.secTag
	if margin > 0 {
		tag, rival = s.secTag, s.tag
	}
	if own := d.ownLetterMember(m, s); own != "" && own == rival {
		// The text holds letters only the rival's alphabet has, and
		// the words said otherwise: the rival, with no confidence
		// either way (a review found one word of them deciding a long
		// text at 0.99 before the share and this were required).
		tag, rival, z = own, tag, 0
	}
	return tag, rival, z, hits, true
}

// ownLetters lists, for the members of a close group that have them,
// letters no other member's standard alphabet holds: Serbian ђ and ћ
// (Macedonian writes ѓ and ќ for them, Bulgarian and Russian neither),
// Macedonian ѓ, ќ and ѕ, Ukrainian є, ї and ґ, Belarusian ў. Written from
// the alphabets, not learnt. A trial (twenty-third session) found a
// Serbian sentence with two ђ ("пронађете", "прилагођивач") read as
// Macedonian at 0.96: the trigrams had said Serbian, the group's words,
// trained on user-interface text, Macedonian.
var ownLetters = map[string]string{
	"sr": "ђћ",
	"mk": "ѓќѕ",
	"uk": "єїґ",
	"be": "ў",
}

// allOwnLetters is every letter of ownLetters.
var allOwnLetters = func() string {
	var sb strings.Builder
	for _, tag := range slices.Sorted(maps.Keys(ownLetters)) {
		sb.WriteString(ownLetters[tag])
	}
	return sb.String()
}()

// ownLetterBytes returns, for a single-byte charset, the letter each byte
// decodes to (0 for none), when some byte decodes to a letter of
// ownLetters; nil otherwise.
func ownLetterBytes(cs string) *[256]rune {
	var t [256]rune
	any := false
	for b := 0; b < 0x100; b++ {
		if b < 0x80 {
			t[b] = rune(b)
			continue
		}
		dec, err := Decode([]byte{byte(b)}, cs)
		if err != nil {
			continue
		}
		if r, _ := utf8.DecodeRune(dec); r != utf8.RuneError {
			t[b] = r
			any = any || strings.ContainsRune(allOwnLetters, r)
		}
	}
	if !any {
		return nil
	}
	return &t
}

// ownLetterMember returns the member of m whose own letters (ownLetters)
// at least one word in ownLetterShare of the text's Cyrillic words holds,
// when no other member's letters are there; "" otherwise. Only words that
// begin in lower case count: a name ("Ђоковић" in a Bulgarian line, where
// Bulgarian writes "Джокович") is often written as its own language
// spells it. A word is read whole, across apostrophes and hyphens
// ("Прем'єр-ліги" is one word, capitalised), in the page's text before
// normalisation (s.src) when kept, in its own encoding.
func (d *Detector) ownLetterMember(m *wordModel, s scored) string {
	if m.script != "Cyrillic" {
		return ""
	}
	text := s.src
	if text == nil {
		text = s.orig
	}
	if text == nil {
		text = s.norm
	}
	text = text[:min(len(text), maxOwnLetterText)]
	var runes *[256]rune // nil for UTF-8
	if s.table == "utf-8" {
		if !bytes.ContainsAny(text, allOwnLetters) { // most pages hold none
			return ""
		}
	} else if runes = d.ownByte[s.table]; runes == nil || !slices.ContainsFunc(text, func(b byte) bool {
		return b >= 0x80 && isOwnLetter(runes[b])
	}) {
		return ""
	}
	found := ""
	words, own := 0, 0
	inWord, lower, cyr, has := false, false, false, ""
	end := func() {
		if cyr {
			words++
		}
		if has != "" && lower {
			own++
		}
		inWord, cyr, has = false, false, ""
	}
	prevJoin := false // the rune before was an apostrophe or hyphen inside a word
	for i := 0; i < len(text); {
		r, n := rune(text[i]), 1
		if runes != nil {
			r = runes[text[i]]
		} else if r >= 0x80 {
			r, n = utf8.DecodeRune(text[i:])
		}
		i += n
		switch {
		case r >= 0x400 && r <= 0x4ff && r != 0x482, // Cyrillic letters and marks, most of the text
			r < 0x80 && (r|0x20 >= 'a' && r|0x20 <= 'z'),
			r >= 0x80 && (r < 0x400 || r > 0x4ff) && (unicode.IsLetter(r) || unicode.Is(unicode.M, r)):
			if !inWord {
				inWord = true
				if r >= 0x430 && r <= 0x45f {
					lower = true // а..я, ѐ..џ
				} else {
					lower = unicode.IsLower(r)
				}
			}
			prevJoin = false
			if r >= 0x400 && r <= 0x4ff {
				cyr = true
			}
			if isOwnLetter(r) {
				for _, tag := range m.Tags {
					if strings.ContainsRune(ownLetters[tag], r) {
						if found != "" && found != tag {
							return "" // two members' letters: a mixed text
						}
						found, has = tag, tag
					}
				}
			}
		case inWord && !prevJoin && (r == '\'' || r == '\u2019' || r == '\u02bc' || r == '-' || r == '\u2010' || r == '\u2011'):
			prevJoin = true // inside the word, if a letter follows
		default:
			if inWord {
				end()
			}
			prevJoin = false
		}
	}
	if inWord {
		end()
	}
	if own == 0 || own*ownLetterShare < words {
		return ""
	}
	return found
}

// isOwnLetter reports whether r is a letter of ownLetters (all lie in
// U+0452..U+0491).
func isOwnLetter(r rune) bool {
	switch r {
	case 'ђ', 'ћ', 'ѓ', 'ќ', 'ѕ', 'є', 'ї', 'ґ', 'ў':
		return true
	}
	return false
}

// ownLetterShare: the own letters decide only when at least one word in
// this many holds them, so a word or two quoted in a longer text ("їжа" in
// a Russian paragraph, a review) does not. Assumed, not tuned.
const ownLetterShare = 10

// maxOwnLetterText caps the bytes of a text ownLetterMember reads.
const maxOwnLetterText = 4 * maxWordText

// labelFree is s's text for the word models with its label lines (a
// product grid's names, labelLine) left out, up to limit bytes; false
// when it has none, when the labels read together are in one of m's
// languages (a menu in the page's own language, "Laman Utama", "Hubungi
// Kami": a review found Malay pages with such menus read as Indonesian,
// and Nynorsk ones as Bokmål, when their menus were left out), or when it
// cannot be decoded.
func (d *Detector) labelFree(m *wordModel, s scored, limit int) ([]byte, bool) {
	if s.src == nil {
		return nil, false
	}
	labels := labelText(s.src)
	if labels == nil {
		return nil, false
	}
	// Label lines are ASCII: the UTF-8 profiles read them in any charset.
	if l := d.scoreUTF8(labels, true); l.n >= minTrigrams && m.member(l.tag) >= 0 {
		return nil, false
	}
	w, ok := wordsText(s.src)
	if !ok {
		return nil, false
	}
	return textUpTo(s, w, limit)
}

// scoreText scores the text of s (up to limit bytes) with the word model
// m, members a and b (wordModel.scoreWords): without its label lines
// when it has any that are not in m's languages (labelFree) and a word of
// the model is left, else whole. A page whose only words of the group
// are its labels (a list of German place names read as Bokmål) is scored
// as before.
func (d *Detector) scoreText(m *wordModel, s scored, limit, a, b int, evidenceOnly bool) (diff float64, hits int, ok bool) {
	if w, ok := d.labelFree(m, s, limit); ok {
		if diff, hits := m.scoreWords(w, a, b, evidenceOnly); hits > 0 {
			return diff, hits, true
		}
	}
	norm, ok := textUpTo(s, s.norm, limit)
	if !ok {
		return 0, 0, false
	}
	diff, hits = m.scoreWords(norm, a, b, evidenceOnly)
	return diff, hits, true
}

// textUpTo is norm, a normalised text of s, cut to limit bytes and
// decoded from s's table as UTF-8: the text the word models read (what
// the trigram stage scored, up to maxWordText bytes, for a close group;
// up to maxWordText for a variant, however much the trigrams scored);
// false when it cannot be decoded.
func textUpTo(s scored, norm []byte, limit int) ([]byte, bool) {
	if len(norm) > limit {
		norm = norm[:limit]
	}
	if s.table != "utf-8" {
		txt, err := Decode(norm, s.table)
		if err != nil {
			return nil, false
		}
		norm = txt
	}
	return norm, true
}

// writeWordModels appends the group models to the profile stream:
//
//	count uint8
//	per group:
//	  members uint8, per member: tag (uint8 length + bytes)
//	  words   uint32, per word: uint8 length + bytes (ascending)
//	  words × members int8 (log-probability minus the members' mean, × wordScale)
func writeWordModels(w io.Writer, ms []*wordModel) error {
	var bw bytes.Buffer
	bw.WriteByte(byte(len(ms)))
	for _, m := range ms {
		bw.WriteByte(byte(len(m.Tags)))
		for _, t := range m.Tags {
			bw.WriteByte(byte(len(t)))
			bw.WriteString(t)
		}
		binary.Write(&bw, binary.LittleEndian, uint32(len(m.Words)))
		for _, word := range m.Words {
			bw.WriteByte(byte(len(word)))
			bw.WriteString(word)
		}
		for _, v := range m.Delta {
			bw.WriteByte(byte(v))
		}
	}
	_, err := w.Write(bw.Bytes())
	return err
}

// readWordModels parses what writeWordModels wrote.
func readWordModels(r *bytes.Reader) ([]*wordModel, error) {
	str := func() (string, error) { return readShortString(r) }
	n, err := r.ReadByte()
	if err != nil {
		return nil, fmt.Errorf("%w: word models: %v", ErrBadProfiles, err)
	}
	var out []*wordModel
	for g := 0; g < int(n); g++ {
		k, err := r.ReadByte()
		if err != nil || k < 2 {
			return nil, fmt.Errorf("%w: word model %d: members", ErrBadProfiles, g)
		}
		m := &wordModel{}
		for i := 0; i < int(k); i++ {
			t, err := str()
			if err != nil {
				return nil, fmt.Errorf("%w: word model %d: %v", ErrBadProfiles, g, err)
			}
			m.Tags = append(m.Tags, t)
		}
		var nw uint32
		if err := binary.Read(r, binary.LittleEndian, &nw); err != nil {
			return nil, fmt.Errorf("%w: word model %v: %v", ErrBadProfiles, m.Tags, err)
		}
		if int64(nw) > int64(r.Len()) {
			return nil, fmt.Errorf("%w: word model %v: %d words do not fit", ErrBadProfiles, m.Tags, nw)
		}
		m.Words = make([]string, nw)
		for i := range m.Words {
			if m.Words[i], err = str(); err != nil {
				return nil, fmt.Errorf("%w: word model %v: %v", ErrBadProfiles, m.Tags, err)
			}
		}
		raw := make([]byte, int(nw)*int(k))
		if _, err := io.ReadFull(r, raw); err != nil {
			return nil, fmt.Errorf("%w: word model %v: %v", ErrBadProfiles, m.Tags, err)
		}
		m.Delta = make([]int8, len(raw))
		for i, v := range raw {
			m.Delta[i] = int8(v)
		}
		m.init()
		out = append(out, m)
	}
	return out, nil
}

// Related reports whether languages a and b (ISO 639-1 codes, or profile
// tags such as "zh-Hant") are told apart by the second stage: members of
// one close group, or a written standard and its variant (Bokmål and
// Nynorsk; "no" stands for either). A short text of one is read as the
// other too often to take the reading as evidence between them; the crawl
// reads no anchor text between them (package focus, Link.AnchorLang).
func Related(a, b string) bool {
	a, b = relatedBase(a), relatedBase(b)
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	for _, g := range closeGroups {
		if slices.Contains(g, a) && slices.Contains(g, b) {
			return true
		}
	}
	return false
}

// relatedBase is tag's language in lower case, with a variant standard
// and "no" read as their base (nn and no as nb).
func relatedBase(tag string) string {
	tag, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
	if tag == "no" {
		return "nb"
	}
	return variantBase(tag)
}
