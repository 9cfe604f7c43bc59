package detect

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DebDir is where, below a corpora directory, fetch.sh unpacks the Debian
// packages that carry gettext message catalogues: DebDir/<package>/usr/...
const DebDir = "deb"

// catalogue is one gettext domain shipped by one Debian package.
type catalogue struct {
	Package string // Debian package (directory under DebDir)
	Domain  string // <domain>.mo under usr/share/locale/<locale>/LC_MESSAGES
	Eval    bool   // held out of training entirely: the catalogue evaluation set
}

// catalogues lists the message catalogues the builder reads. Whole
// catalogues, not single messages, are held out for evaluation, so that
// near-duplicate messages ("Cannot open %s" / "Cannot open file %s") of
// one program never sit on both sides of the split. Besides, a training
// message whose msgid is also a msgid of an evaluation catalogue ("Audio
// DVD", "Width", the accessibility role names that GTK repeats) is
// dropped (evalIDs). Catalogues that embed the evaluation text wholesale
// are not listed at all: iso_3166-2 and iso_3166-3 (subdivisions and
// former countries: country names again), gnome-control-center's
// timezones (cities and countries), xkb-data (keyboard layouts named
// after countries and languages), libgweather (places), gtk40 (GTK 4
// carries gdk-pixbuf's loader messages).
var catalogues = []catalogue{
	{"libgtk2.0-common", "gtk20", false},
	{"libgtk2.0-common", "gtk20-properties", false},
	{"libglib2.0-data", "glib20", false},
	{"gsettings-desktop-schemas", "gsettings-desktop-schemas", false},
	{"iso-codes", "iso_639-2", false},
	{"iso-codes", "iso_4217", false},
	{"iso-codes", "iso_15924", false},
	{"nautilus-data", "nautilus", false},
	{"gnome-control-center-data", "gnome-control-center-2.0", false},
	{"gnome-desktop3-data", "gnome-desktop-3.0", false},
	{"gnome-menus", "gnome-menus", false},
	{"mate-desktop-common", "mate-desktop", false},
	{"cinnamon-l10n", "cinnamon", false},
	{"cinnamon-l10n", "cinnamon-control-center", false},
	{"cinnamon-l10n", "cinnamon-session", false},
	{"cinnamon-l10n", "cinnamon-settings-daemon", false},
	{"cinnamon-l10n", "nemo", false},
	{"dpkg", "dpkg", false},
	{"apt", "apt", false},
	{"debconf-i18n", "debconf", false},
	{"tar", "tar", false},
	{"mate-panel-common", "mate-panel", false},
	{"caja-common", "caja", false},
	{"vlc-l10n", "vlc", false},
	{"aptitude-common", "aptitude", false},
	{"lxpanel-data", "lxpanel", false},
	{"libgdk-pixbuf2.0-common", "gdk-pixbuf", true},
	{"at-spi2-common", "at-spi2-core", true},
	{"shared-mime-info", "shared-mime-info", true},
	{"iso-codes", "iso_3166-1", true},
}

// catalogueLocales returns the gettext locale directories whose catalogues
// hold text in the language of tag. English is the source language: its
// text is the msgids ("C"), not a translation.
func catalogueLocales(tag string) []string {
	switch tag {
	case "en":
		return []string{"C"}
	case "zh-Hans":
		return []string{"zh_CN"}
	case "zh-Hant":
		return []string{"zh_TW", "zh_HK"}
	case "pt":
		return []string{"pt", "pt_BR"}
	case "tl":
		return []string{"tl", "fil"}
	case "ku":
		return []string{"ku", "kmr"}
	}
	return []string{tag}
}

// unknownCatalogueLocales are catalogue locales in scripts no profile
// covers (Thaana, Cherokee, Canadian syllabics): evaluation text for "und".
var unknownCatalogueLocales = []string{"dv", "chr", "iu"}

// Catalogue split and sizes.
const (
	evalLineRunes     = 80    // evaluation messages are packed into lines of at least this many characters
	maxEvalLines      = 48    // per language, in the catalogue evaluation text
	maxCatalogueTrain = 96000 // bytes of catalogue training text per language, at most
)

// moMagic is the gettext .mo magic number.
const moMagic = 0x950412de

// errBadMO is returned for a malformed .mo file.
var errBadMO = errors.New("detect: bad .mo file")

// moMessage is one entry of a .mo file: the original (msgid, with any
// msgctxt and plural stripped) and its first translated form.
type moMessage struct {
	ID, Str string
}

// parseMO parses a GNU gettext .mo file (either byte order) and returns
// its messages in file order, skipping the header entry. Strings are not
// validated as UTF-8.
func parseMO(data []byte) ([]moMessage, error) {
	if len(data) < 20 {
		return nil, fmt.Errorf("%w: %d bytes", errBadMO, len(data))
	}
	var bo binary.ByteOrder
	switch {
	case binary.LittleEndian.Uint32(data) == moMagic:
		bo = binary.LittleEndian
	case binary.BigEndian.Uint32(data) == moMagic:
		bo = binary.BigEndian
	default:
		return nil, fmt.Errorf("%w: bad magic", errBadMO)
	}
	if rev := bo.Uint32(data[4:]); rev>>16 > 1 {
		return nil, fmt.Errorf("%w: revision %#x", errBadMO, rev)
	}
	n, orig, trans := uint64(bo.Uint32(data[8:])), uint64(bo.Uint32(data[12:])), uint64(bo.Uint32(data[16:]))
	size := uint64(len(data))
	if orig+8*n > size || trans+8*n > size {
		return nil, fmt.Errorf("%w: %d entries do not fit", errBadMO, n)
	}
	str := func(table, i uint64) (string, error) {
		l, off := uint64(bo.Uint32(data[table+8*i:])), uint64(bo.Uint32(data[table+8*i+4:]))
		if off+l > size {
			return "", fmt.Errorf("%w: string %d out of range", errBadMO, i)
		}
		return string(data[off : off+l]), nil
	}
	out := make([]moMessage, 0, n)
	for i := uint64(0); i < n; i++ {
		id, err := str(orig, i)
		if err != nil {
			return nil, err
		}
		s, err := str(trans, i)
		if err != nil {
			return nil, err
		}
		if id == "" {
			continue // the header
		}
		if j := strings.IndexByte(id, 4); j >= 0 {
			id = id[j+1:] // msgctxt
		}
		id, _, _ = strings.Cut(id, "\x00") // plural
		s, _, _ = strings.Cut(s, "\x00")
		out = append(out, moMessage{ID: id, Str: s})
	}
	return out, nil
}

// cleanMessage turns a UI message into plain running text: printf
// conversions, GTK mnemonics ("_Open", "(_O)"), markup and non-text
// symbols are removed and white space collapsed. It returns "" when
// fewer than three letters remain.
func cleanMessage(s string) string {
	if !utf8.ValidString(s) {
		return ""
	}
	var b strings.Builder
	letters := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '%':
			i += printfLen(s[i:])
			b.WriteByte(' ')
			continue
		case r == '(' && len(s) >= i+4 && s[i+1] == '_' && s[i+3] == ')':
			i += 4 // "(_F)" mnemonic after CJK labels
			continue
		case r == '_':
			i += w
			continue
		case r == '<':
			if j := strings.IndexByte(s[i:], '>'); j > 0 {
				i += j + 1
				b.WriteByte(' ')
				continue
			}
			b.WriteByte(' ')
		case r == '>' || r == '&' || r == '\\' || unicode.IsControl(r) || unicode.IsSpace(r):
			b.WriteByte(' ')
		default:
			if unicode.IsLetter(r) {
				letters++
			}
			b.WriteRune(r)
		}
		i += w
	}
	if letters < 3 {
		return ""
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// printfLen returns the length of the printf conversion at the start of s
// ("%s", "%1$d", "%-10.3lf", "%%"), or 1 for a lone '%'.
func printfLen(s string) int {
	i := 1
	for i < len(s) && strings.IndexByte("0123456789$#'-+.*", s[i]) >= 0 {
		i++
	}
	for i < len(s) && strings.IndexByte("hlLqjzt", s[i]) >= 0 {
		i++
	}
	if i < len(s) && (s[i] == '%' || s[i] < 0x80 && unicode.IsLetter(rune(s[i]))) {
		return i + 1
	}
	return 1
}

// textFilter says which messages of a catalogue are kept.
type textFilter struct {
	class string          // script class (scriptClass) most letters must be in; "" for any
	skip  map[string]bool // idKeys of msgids to leave out; nil for none
}

// keep returns the cleaned translation of m, or false when m is dropped:
// a translation equal to its msgid is an untranslated copy; one whose
// letters are mostly not in f.class, or whose msgid's idKey is in
// f.skip, is left out too.
func (f textFilter) keep(m moMessage) (string, bool) {
	if m.Str == m.ID {
		return "", false
	}
	t := cleanMessage(m.Str)
	if t == "" || f.class != "" && !inScript(t, f.class) || f.skip != nil && f.skip[idKey(m.ID)] {
		return "", false
	}
	return t, true
}

// msgSource hands out the kept messages of one catalogue, in file order,
// cleaning them only when asked: the builder takes a few kilobytes from
// each of many large catalogues.
type msgSource struct {
	ready []string    // cleaned text served first (the English msgids)
	msgs  []moMessage // translations still to filter and clean
	f     textFilter
}

// next returns the next kept message, or false when there is none.
func (s *msgSource) next() (string, bool) {
	if len(s.ready) > 0 {
		t := s.ready[0]
		s.ready = s.ready[1:]
		return t, true
	}
	for len(s.msgs) > 0 {
		m := s.msgs[0]
		s.msgs = s.msgs[1:]
		if t, ok := s.f.keep(m); ok {
			return t, true
		}
	}
	return "", false
}

// openCatalogue reads catalogue c for the given locales ("C" for the
// msgids), one after the other. A missing file gives no messages.
func openCatalogue(dir string, c catalogue, locales []string, f textFilter) (*msgSource, error) {
	s := &msgSource{f: f}
	for _, locale := range locales {
		if locale == "C" {
			ids, err := catalogueIDs(dir, c, f.skip)
			if err != nil {
				return nil, err
			}
			s.ready = append(s.ready, ids...)
			continue
		}
		path := filepath.Join(dir, DebDir, c.Package, "usr/share/locale", locale, "LC_MESSAGES", c.Domain+".mo")
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		msgs, err := parseMO(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		s.msgs = append(s.msgs, msgs...)
	}
	return s, nil
}

// catalogueText returns the kept, cleaned messages of one catalogue for
// one locale ("C" for the msgids), in file order (see textFilter.keep).
// A missing file gives no messages.
func catalogueText(dir string, c catalogue, locale string, f textFilter) ([]string, error) {
	s, err := openCatalogue(dir, c, []string{locale}, f)
	if err != nil {
		return nil, err
	}
	var out []string
	for t, ok := s.next(); ok; t, ok = s.next() {
		out = append(out, t)
	}
	return out, nil
}

// idKey is how msgids are compared between catalogues: cleaned and
// lower-cased.
func idKey(id string) string { return strings.ToLower(cleanMessage(id)) }

// catalogueMOs returns the .mo files of catalogue c, one per locale, in
// sorted order.
func catalogueMOs(dir string, c catalogue) ([]string, error) {
	return filepath.Glob(filepath.Join(dir, DebDir, c.Package, "usr/share/locale/*/LC_MESSAGES", c.Domain+".mo"))
}

// catalogueIDs returns the cleaned msgids of a catalogue: the union over
// every locale, sorted, so the English text does not depend on which
// locale translated what. Msgids whose idKey is in skip are left out.
func catalogueIDs(dir string, c catalogue, skip map[string]bool) ([]string, error) {
	locs, err := catalogueMOs(dir, c)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	err = eachMsgID(locs, func(id string) {
		if t := cleanMessage(id); t != "" && !skip[strings.ToLower(t)] {
			seen[t] = true
		}
	})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out, nil
}

// evalIDs returns the idKeys of every msgid of the evaluation catalogues,
// over all their locales: training messages with one of them are dropped,
// so that no evaluation message is trained on through another catalogue.
func evalIDs(dir string) (map[string]bool, error) {
	ids := map[string]bool{}
	for _, c := range catalogues {
		if !c.Eval {
			continue
		}
		locs, err := catalogueMOs(dir, c)
		if err != nil {
			return nil, err
		}
		err = eachMsgID(locs, func(id string) {
			if k := idKey(id); k != "" {
				ids[k] = true
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// eachMsgID calls fn once for every distinct msgid of the .mo files at
// paths (a catalogue's locales translate the same msgids).
func eachMsgID(paths []string, fn func(id string)) error {
	raw := map[string]bool{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		msgs, err := parseMO(data)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, m := range msgs {
			if !raw[m.ID] {
				raw[m.ID] = true
				fn(m.ID)
			}
		}
	}
	return nil
}

// scriptClass returns the script of a letter, with the scripts that
// East Asian languages mix (Han, kana, Hangul, Bopomofo) as one class.
func scriptClass(r rune) string {
	if r < 0x80 {
		return "Latin"
	}
	for _, s := range scripts {
		if unicode.Is(s.table, r) {
			return s.class
		}
	}
	return "other"
}

// script is a Unicode script table and the class scriptClass gives it.
type script struct {
	class string
	table *unicode.RangeTable
}

var scripts = func() []script {
	var out []script
	for _, n := range []string{"Latin", "Cyrillic", "Han", "Hiragana", "Katakana", "Hangul", "Bopomofo",
		"Greek", "Arabic", "Hebrew", "Thai", "Lao", "Devanagari", "Bengali", "Gurmukhi", "Gujarati",
		"Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Khmer", "Myanmar", "Tibetan", "Georgian",
		"Armenian", "Ethiopic", "Thaana", "Cherokee", "Canadian_Aboriginal"} {
		class := n
		switch n {
		case "Han", "Hiragana", "Katakana", "Hangul", "Bopomofo":
			class = "CJK"
		}
		out = append(out, script{class, unicode.Scripts[n]})
	}
	return out
}()

// mainScript returns the script class of most of the first 500 letters
// of text.
func mainScript(text string) string {
	count := map[string]int{}
	n := 0
	for _, r := range text {
		if !unicode.IsLetter(r) {
			continue
		}
		count[scriptClass(r)]++
		if n++; n == 500 {
			break
		}
	}
	best := ""
	for c, k := range count {
		if k > count[best] || k == count[best] && c < best {
			best = c
		}
	}
	return best
}

// inScript reports whether at least half the letters of s are in the
// script class class.
func inScript(s, class string) bool {
	n, in := 0, 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
			if scriptClass(r) == class {
				in++
			}
		}
	}
	return n > 0 && 2*in >= n
}

// packLines joins messages, separated by spaces, into lines of at least
// minRunes characters; a last line shorter than minRunes/4 is dropped.
func packLines(msgs []string, minRunes int) []string {
	var out []string
	var b strings.Builder
	n := 0
	for _, m := range msgs {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m)
		n += utf8.RuneCountInString(m) + 1
		if n >= minRunes {
			out = append(out, b.String())
			b.Reset()
			n = 0
		}
	}
	if n >= minRunes/4 {
		out = append(out, b.String())
	}
	return out
}

// interleave takes lines from each list in turn, up to max lines.
func interleave(lists [][]string, max int) []string {
	var out []string
	for i := 0; len(out) < max; i++ {
		took := false
		for _, l := range lists {
			if i < len(l) && len(out) < max {
				out = append(out, l[i])
				took = true
			}
		}
		if !took {
			break
		}
	}
	return out
}
