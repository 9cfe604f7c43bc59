package detect

import "testing"

// TestOwnLettersQuotedWordDoesNotDecide: one lower-case word with a
// member's own letter in a text of another member (a quotation, an
// address line, a language switcher) must not turn the whole page to that
// member, let alone at confidence 1. Each line read as its own language
// before f97b464.
func TestOwnLettersQuotedWordDoesNotDecide(t *testing.T) {
	d := newDetector(t, Options{})
	for _, c := range []struct{ text, want string }{
		// Russian, one Ukrainian word (uk at 1.000)
		{"Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью и должны поступать в отношении друг друга в духе братства. В Киеве говорят їжа.", "ru"},
		// Russian page with a Ukrainian address and switcher line (uk at 0.997)
		{"Вчера в городе прошёл фестиваль. Организаторы благодарят всех гостей и партнёров за участие. Адрес: вул. Хрещатик, 22, м. Київ. Телефон для справок: 044 123 45 67. Мова сайту: українська, русский.", "ru"},
		// Russian, one Belarusian word (be at 0.995)
		{"Вчера в городе прошёл фестиваль. Организаторы благодарят всех гостей и партнёров за участие. Читайте также по-белорусски: праўда.", "ru"},
		// Macedonian quoting a Serbian word (sr at 0.829)
		{"Владата денес го усвои предлогот за нов закон за образование. Министерот рече дека реформата почнува наесен. На српски ученик е ђак.", "mk"},
		// A capitalised Ukrainian name: the ASCII apostrophe, a space
		// after normalisation, starts a lower-case "word" (uk at 1.000;
		// with U+2019 it reads ru)
		{"Вчера в финале чемпионата клуб из Донецка уверенно обыграл соперника. Это уже третья победа команды в сезоне Прем'єр-ліги.", "ru"},
		// The name rule after a no-break space: "победи\u00a0Ђоковић" is
		// read as one word beginning in lower case (sr at 0.911)
		{"Всички хора се раждат свободни и равни по достойнство и права. На турнира в София победи\u00a0Ђоковић.", "bg"},
	} {
		r := d.Detect(page(`<meta charset="utf-8">`, []byte(c.text)), "")
		if r.Lang != c.want {
			t.Errorf("%s: got %s at %.3f (rival %s), want %s", c.text, r.Lang, r.Confidence, r.Rival, c.want)
		}
	}
}
