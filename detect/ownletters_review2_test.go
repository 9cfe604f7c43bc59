package detect

import "testing"

// TestOwnLettersAfterOwnScript: ownScript rescoring (a page with
// ASCII words, here an English cookie notice) returns a scored with src
// nil, so ownLetterMember falls back to s.norm, where the ASCII apostrophe
// is a space: the capitalised name "Прем'єр-лізі" yields a lower-case
// word "єр" and the Russian sentence turns Ukrainian. With U+2019, or
// without the notice, it reads ru.
func TestOwnLettersAfterOwnScript(t *testing.T) {
	d := newDetector(t, Options{})
	const cookie = " We use cookies to improve your experience on our website. By continuing to browse you agree to our use of cookies."
	for _, txt := range []string{
		"Клуб из Донецка обыграл соперника в Прем'єр-лізі.",               // ru 0.887
		"Клуб из Донецка обыграл соперника в Прем\u2019єр-лізі." + cookie, // ru 0.867
		"Клуб из Донецка обыграл соперника в Прем'єр-лізі." + cookie,      // uk 0.565
	} {
		r := d.Detect(page(`<meta charset="utf-8">`, []byte(txt)), "")
		if r.Lang != "ru" {
			t.Errorf("%s: got %s at %.3f (rival %s, %s), want ru", txt, r.Lang, r.Confidence, r.Rival, r.Evidence)
		}
	}
}
