package detect

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// WordlistDir is where, below a corpora directory, fetch.sh writes the word
// lists of Tesseract's language data: WordlistDir/<code>.txt, one word per
// line, as Tesseract's dawg2wordlist prints them.
const WordlistDir = "wordlist"

// wordlists names the Tesseract language data (Debian tesseract-ocr-<code>)
// whose word list tops up the training text of a language the message
// catalogues leave thin, up to maxCatalogueTrain. Tigrinya had 1.7 KB of
// catalogue text and its country names all read as Amharic; Maltese
// 1.3 KB, Faroese 16 KB (its pages went to Swedish and Icelandic),
// Swahili 25 KB.
//
// Measured and left out (issue 3, out-of-domain set): a word list is each
// word once, so a profile trained mostly on one has a flat trigram
// distribution that fits any text of its script a little. Javanese,
// Sundanese and Latin, with little running text besides, then took 114,
// 72 and 42 pages of other Latin-script languages; with its list cut to
// half its UDHR text, Javanese still took 57. Luxembourgish, Lao, Tatar,
// Pashto and Yoruba changed no page of that set. Tesseract has no data for
// Somali, Hausa, Igbo or Tagalog.
var wordlists = map[string]string{
	"ti": "tir",
	"fo": "fao",
	"mt": "mlt",
	"sw": "swa",
}

// wordlistText returns up to max bytes of words of the main script of the
// language from the word list of tag, twelve to a line: "" when the
// language has no word list. A missing file is an error, as fetch.sh
// writes every listed one.
//
// The lists come from text Google crawled from the web to train Tesseract
// (Apache-2.0). They hold each word once, in the order of Tesseract's
// directed word graph, with names, capitals and some English among them.
// Only words in lower case are read (names and acronyms are mostly not),
// and the words are taken at an even stride over the whole list, so that
// the top-up is not all words with one first letter.
func wordlistText(dir, tag, script string, max int) (string, error) {
	code, ok := wordlists[tag]
	if !ok || max <= 0 {
		return "", nil
	}
	path := filepath.Join(dir, WordlistDir, code+".txt")
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("word list %s missing: run detect/corpora/fetch.sh", path)
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	var words []string
	total := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if w := sc.Text(); lowerWord(w, script) {
			words = append(words, w)
			total += len(w) + 1
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	stride := 1
	if total > max {
		stride = (total + max - 1) / max
	}
	var sb strings.Builder
	n := 0
	for i := 0; i < len(words) && sb.Len()+len(words[i])+1 <= max; i += stride {
		sb.WriteString(words[i])
		if n++; n%12 == 0 {
			sb.WriteByte('\n')
		} else {
			sb.WriteByte(' ')
		}
	}
	return sb.String(), nil
}

// lowerWord reports whether w is a word in lower case, in the script class
// of the language (scriptClass): letters without case (Ethiopic, Lao,
// Arabic) and marks count, and so do an inner hyphen
// or apostrophe ("il-fiżika"); digits and other signs do not.
func lowerWord(w, script string) bool {
	if w == "" {
		return false
	}
	for i, r := range w {
		switch {
		case unicode.Is(unicode.M, r):
		case unicode.IsLower(r) || unicode.Is(unicode.Lo, r):
			if scriptClass(r) != script {
				return false
			}
		case (r == '-' || r == '\'') && i > 0 && i < len(w)-1:
		default:
			return false
		}
	}
	return true
}

// groupLists names, per language tag, the Tesseract word list that gives
// a close group's word model its spelling vocabulary (buildWordModel): the
// words a member's list holds and another's does not. The lists come from
// web text, so they hold the spellings and words of pages ("kualiti",
// "syarikat", "antarabangsa" in Malay) that user interface text and the
// UDHR rarely use.
var groupLists = map[string]string{
	"ms": "msa",
	"id": "ind",
}

// spellingLists names, per language tag, the Tesseract word list whose
// word endings give a close group's word model its spelling features
// (wordSuffixes, buildWordModel): how many of the list's words end in
// each three letters. A list holds a few hundred thousand words of web
// text, so the endings speak for words that neither the training text nor
// the model holds, and cost a few thousand entries per group, where the
// words themselves would cost megabytes.
var spellingLists = map[string]string{
	"da": "dan", "nb": "nor",
	"hr": "hrv", "sl": "slv",
	"mk": "mkd", "bg": "bul", "sr": "srp",
	"uk": "ukr", "ru": "rus", "be": "bel",
	"es": "spa", "gl": "glg", "pt": "por", "ca": "cat",
	"hi": "hin", "ne": "nep", "mr": "mar",
	"cs": "ces", "sk": "slk",
}

// groupVocabularies returns the lists named by lists (groupLists or
// spellingLists) of the members of group g, as sets of words read as the
// word model reads them (nil when a member has none: then no list is used
// for the group).
func groupVocabularies(dir string, g []string, lists map[string]string) ([]map[string]bool, error) {
	out := make([]map[string]bool, len(g))
	for i, tag := range g {
		code, ok := lists[tag]
		if !ok {
			return nil, nil
		}
		path := filepath.Join(dir, WordlistDir, code+".txt")
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("word list %s missing: run detect/corpora/fetch.sh", path)
		}
		if err != nil {
			return nil, err
		}
		m := map[string]bool{}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			w := sc.Text()
			// As the detector reads words: lower case, letters and marks
			// only (forWords).
			var buf [maxWordBytes + 8]byte
			one := ""
			n := 0
			forWords(normalize(nil, []byte(w)), buf[:0], func(x []byte) { one = string(x); n++ })
			if n == 1 && len(one) >= 2 {
				m[one] = true
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		out[i] = m
	}
	return out, nil
}
