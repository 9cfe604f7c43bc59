package detect

import (
	"fmt"
	"math"
)

// The third stage: two written standards of one language.
//
// Norwegian is written in two standards, Bokmål (nb) and Nynorsk (nn).
// They share most words and nearly all names, so byte trigrams and the
// close-group word models, which measure how alike a text is to each
// language's training text, split Norwegian text between them on what the
// translators of the training catalogues happened to write: added as an
// ordinary member of the Danish and Bokmål group, Nynorsk took 29 of 120
// Bokmål list pages and cost Danish and Slovenian pages (docs/detect.md,
// "Norwegian Nynorsk and Bosnian").
//
// So a variant is decided apart, after the other two stages:
//   - the trigram stage ranks a variant and its base as one family (the
//     second language is never the other standard), and the family goes on
//     as the base, scoring as the better of the two against the other
//     languages;
//   - when the first two stages settle on the base, a word model of the
//     base and the variant decides, in which the words and word pairs
//     learnt from the training text keep a quarter of their evidence
//     (variantLearnt) and the written-down distinctive spellings of each
//     standard (variantDistinctive) count in full;
//   - the variant must win by variantPrior nats, the log-odds of the two
//     standards in writing, so that a text the words cannot tell apart (a
//     list of place names) stays with the base.
//
// Measured (docs/detect.md, "Norwegian Nynorsk, added"): Nynorsk, Bokmål
// and Danish paragraph pages all right in both evaluation sets, and no
// page of the languages before lost but one 25-character Faroese snippet.
// Short texts and lists of names of Nynorsk mostly go to Bokmål, which
// both standards write alike.

// variants maps a variant standard to its base language.
var variants = map[string]string{"nn": "nb"}

// variantBase returns the base language of tag's family: tag itself unless
// it is a variant.
func variantBase(tag string) string {
	if b, ok := variants[tag]; ok {
		return b
	}
	return tag
}

// variantPrior is how many nats a variant must win its base by: the
// log-odds of the two standards in writing. About 12% of Norwegian pupils
// have Nynorsk as their main written standard (Statistics Norway, school
// statistics, "hovudmål"), and log(0.88/0.12) ≈ 2.0. Chosen from that
// figure before any measurement, not on an evaluation set.
const variantPrior = 2.0

// variantLearnt is the share of a learnt word's log-probability difference
// the variant model keeps: the two standards' catalogues are often
// translated from each other, so what their training text says between
// them is largely the translators' choice of words. Keeping none lost 20
// out-of-domain Nynorsk paragraph pages to Bokmål (docs/detect.md).
const variantLearnt = 0.25

// variantDistinctive lists, per standard, words that the other standard
// writes otherwise, from the two standards' official spellings (Språkrådet's
// dictionaries, Bokmålsordboka and Nynorskordboka): pronouns, function
// words and common verbs and nouns whose forms differ (ikkje/ikke,
// eg/jeg, kva/hva, frå/fra, meir/mer, namn/navn, -leg/-lig). None is taken
// from an evaluation set. Left out: words both standards allow (også,
// eksempel, først and vindu in Nynorsk, heim/heime, heil, eigen in
// Bokmål), and Nynorsk forms that are other Bokmål words (seier "victory",
// kvart "quarter") or names (ho, in "Ho Chi Minh").
var variantDistinctive = map[string]string{
	"nn": `ikkje eg kva berre korleis kvifor dei deira frå òg ein eit eitt mykje noko nokon nokre
		vere vore kven sjå sidan utan kvar meir fleire gjer gjere kjem brukar
		vart døme namn mogleg moglege vanleg tilgjengeleg enno vindauge fyrst`,
	"nb": `ikke jeg hva bare hun hvordan hvorfor noe noen mye være vært hvem se siden uten hver hvor
		hele egen mer flere gjør gjøre kommer ble navn mulig mulige vanlig tilgjengelig ennå sier
		hjemme`,
}

// isVariantModel reports whether m is the model of a base and its variant
// (in that order), as the builder writes it (build, variantPairs).
func isVariantModel(m *wordModel) bool {
	return len(m.Tags) == 2 && variants[m.Tags[1]] == m.Tags[0]
}

// variantPairs returns the base and variant of each variant, in a fixed
// order.
func variantPairs() [][]string {
	var out [][]string
	for _, l := range languages {
		if b, ok := variants[l.Tag]; ok {
			out = append(out, []string{b, l.Tag})
		}
	}
	return out
}

// variantStage decides between the base of s (the language the first two
// stages chose) and its variant. It returns the tag, the other of the two
// (rival), the confidence z and the words scored; ok is false when there
// is no variant to decide or the words had no say, and then the base
// stands.
func (d *Detector) variantStage(s scored, base string) (tag, rival string, z float64, hits int, ok bool) {
	m := d.variants[base]
	if m == nil || s.vTag == "" {
		return base, "", 0, 0, false
	}
	// The whole text, up to maxWordText: the trigram stage stops early
	// once the family leads the other languages, long before the two
	// standards part.
	diff, hits, ok := d.scoreText(m, s, maxWordText, 0, 1, true)
	if !ok || hits == 0 {
		// No word says anything either way: the trigram margin alone
		// does not make a text the variant.
		return base, "", 0, 0, false
	}
	margin := diff + pairWeight*(s.vScore-s.baseScore) - variantPrior
	z = math.Abs(margin) / math.Sqrt(float64(hits))
	if margin > 0 {
		return m.Tags[1], base, z, hits, true
	}
	return base, m.Tags[1], z, hits, true
}

// VariantNote returns, for a set of target languages, a line for the
// operator when it names a language with a variant but not the variant
// (or the other way round): a crawl for nb alone does not keep Nynorsk
// pages, which an older langcrawl, without a Nynorsk profile, read as
// Bokmål. "" when there is nothing to say.
func VariantNote(targets []string) string {
	has := map[string]bool{}
	for _, t := range targets {
		has[t] = true
	}
	for _, v := range variantPairs() {
		base, variant := v[0], v[1]
		if has[base] != has[variant] {
			in, out := base, variant
			if has[variant] {
				in, out = variant, base
			}
			return fmt.Sprintf("target %s without %s: pages in %s are not kept; name both (%s, %s) to collect the language in both written standards", in, out, out, base, variant)
		}
	}
	return ""
}

// scoreEvidence is score counting only the words whose evidence between a
// and b is not zero: a word the model holds at equal weight for both
// (English "for" on a Norwegian page) says nothing.
func (m *wordModel) scoreEvidence(norm []byte, a, b int) (diff float64, hits int) {
	return m.scoreWords(norm, a, b, true)
}
