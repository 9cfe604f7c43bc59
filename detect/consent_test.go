package detect

import (
	"strings"
	"testing"
)

// TestConsentLineIsFurniture: a cookie notice is furniture by its text,
// whatever its class is called. Three independent trials (Danish,
// Indonesian and Slovenian targets; twenty-third session) found a shop
// page's one native line read as English at confidence 1 beside a
// cookie notice under a class name the extractor does not know ("ck"),
// and every such shop cut at T+1 under both strategies; under the class
// "cookie-notice" the same pages were right. Each page below came out
// English at 1 before. The lines are written for the test.
func TestConsentLineIsFurniture(t *testing.T) {
	const shop = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shop</title></head><body>
<div class="top"><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/cart">Cart</a></div>
<div class="hero">%S%</div>
<div class="ck">We use cookies to improve your experience on our site. By continuing to browse, you agree to our use of cookies. <a href="/privacy">Learn more</a> <span>OK</span></div>
</body></html>`
	d := newDetector(t, Options{})
	for _, c := range []struct{ lang, line string }{
		{"da", "Alle vores strikkegarner er spundet af uld fra danske får."},
		{"id", "Semua kain batik kami dibuat dengan tangan oleh pengrajin di Solo."},
		{"sl", "Vsa naša kolesa so sestavljena ročno v naši delavnici."},
		{"hr", "Sve naše bicikle ručno sastavljamo u vlastitoj radionici."},
	} {
		r := d.Detect([]byte(strings.Replace(shop, "%S%", c.line, 1)), "")
		if r.Lang != c.lang {
			t.Errorf("%s line beside a cookie notice under class ck: got %s at %.3f, want %s", c.lang, r.Lang, r.Confidence, c.lang)
		}
	}

	// English text that speaks of cookies is still English: a recipe
	// whose paragraphs name them, where other text holds the page.
	recipe := `<html><body><h1>Grandma's oatmeal raisin cookies</h1>
<p>These cookies are soft in the middle and crisp at the edges.</p>
<p>Preheat the oven, cream the butter with the brown sugar until it is light and fluffy, then beat in the eggs one at a time and stir in the vanilla. Fold in the oats and the raisins, scoop the dough onto a lined tray and bake until the edges turn golden.</p>
</body></html>`
	if r := d.Detect([]byte(recipe), ""); r.Lang != "en" {
		t.Errorf("an English recipe naming cookies: got %s at %.3f, want en", r.Lang, r.Confidence)
	}
	// A page that is only a notice keeps its text (furniture is dropped
	// only beside other text): a Danish consent page reads Danish.
	notice := `<html><body><div class="x">Vi bruger cookies til at forbedre din oplevelse på vores hjemmeside og til at lave statistik over, hvordan siden bliver brugt. Du kan altid trække dit samtykke tilbage.</div></body></html>`
	if r := d.Detect([]byte(notice), ""); r.Lang != "da" {
		t.Errorf("a page that is only a Danish cookie notice: got %s at %.3f, want da", r.Lang, r.Confidence)
	}

	for _, c := range []struct {
		text string
		want bool
	}{
		{"We use cookies. Accept", true},
		{"Wir verwenden COOKIES, um die Website zu verbessern.", true},
		{"Kami menggunakan cookie untuk pengalaman terbaik.", true},
		{"Free shipping on all orders over 50 euros.", false},
		{strings.Repeat("A paragraph of running text that mentions a cookie once. ", 8), false}, // longer than maxConsentLine
	} {
		if got := consentLine([]byte(c.text)); got != c.want {
			t.Errorf("consentLine(%.40q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestASCIIWordsDoNotVoteInScript: between languages that share a script
// other than Latin (Hindi, Marathi and Nepali), a page's ASCII words are
// no evidence, and the page is read on its own script's words
// (ownScript). A trial of Hindi targets found a Hindi shop line, Hindi at
// 0.998 alone, read as Nepali at 0.979 beside one English sentence:
// Marathi and Nepali had scored above Hindi on the English, and the close
// group's words chose between those two only; a Hindi shop was cut at T+1
// so. Each page below came out Nepali before (at 0.979 to 0.988).
func TestASCIIWordsDoNotVoteInScript(t *testing.T) {
	const page = `<!DOCTYPE html><html><head><meta charset="utf-8"><title></title></head><body>
<div class="promo">आज का भाव: सोना ₹ 72,300 प्रति दस ग्राम</div><div class="cc">%E%</div>
</body></html>`
	d := newDetector(t, Options{})
	for _, en := range []string{
		"We use tracking to give you the best shopping experience. By using this site you accept our privacy policy. Accept",
		"By using this site you accept our terms of service and our privacy policy. Accept",
		"Sign up for our newsletter and get the best deals every week. Subscribe",
	} {
		r := d.Detect([]byte(strings.Replace(page, "%E%", en, 1)), "")
		if r.Lang != "hi" {
			t.Errorf("Hindi line beside %.40q: got %s at %.3f, want hi", en, r.Lang, r.Confidence)
		}
	}
}

// TestShortLineBesideEnglishNote pins the limit README states: an English
// block that is not a cookie notice (a shipping note) under a class name
// the extractor does not know still outweighs a short native line. A
// Danish line of 60 characters beside a 107-character note reads English;
// one of 115 reads Danish. A change that mends this changes README with
// it.
func TestShortLineBesideEnglishNote(t *testing.T) {
	const page = `<html><head><meta charset="utf-8"></head><body><div class="top"><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/cart">Cart</a></div>` +
		`<div class="hero">%S%</div><div class="ft">Free shipping on all orders over 50 euros. Easy returns within 30 days. Secure payment with all major cards.</div></body></html>`
	const line = "Alle vores strikkegarner er spundet af uld fra danske får og farvet med planter fra egen have i Jylland hver sommer."
	d := newDetector(t, Options{})
	for _, c := range []struct {
		n    int
		want string
	}{{60, "en"}, {115, "da"}} {
		r := d.Detect([]byte(strings.Replace(page, "%S%", string([]rune(line)[:c.n]), 1)), "")
		if r.Lang != c.want {
			t.Errorf("a Danish line of %d characters beside an English shipping note: got %s at %.3f, want %s", c.n, r.Lang, r.Confidence, c.want)
		}
	}
}

// TestWordModelScripts: ownScript reads again only the pages of groups
// written in a script other than Latin, known by their word models' words.
func TestWordModelScripts(t *testing.T) {
	d := newDetector(t, Options{})
	want := map[string]string{"id": "Latin", "da": "Latin", "es": "Latin", "cs": "Latin", "hr": "Latin", "hi": "Devanagari", "ru": "Cyrillic"}
	for tag, sc := range want {
		m := d.groups[tag]
		if m == nil {
			t.Fatalf("no close group for %s", tag)
		}
		if m.script != sc {
			t.Errorf("group of %s: script %q, want %q", tag, m.script, sc)
		}
	}
}

// TestPageAboutCookiesKept: a page with more than maxConsentBlocks blocks
// naming cookies is about them, and they are its text. A review of the
// first consentLine, which took every such block for furniture, found
// each page below read as English on its one English line (each read
// right before the rule). From the review, renamed.
func TestPageAboutCookiesKept(t *testing.T) {
	d := newDetector(t, Options{})
	nav := `<div class="top"><a href="/">Home</a> <a href="/blog">Blog</a> <a href="/about">About us</a></div>`
	for _, c := range []struct{ lang, body string }{
		{"ru", `<h1>Использование HTTP cookies</h1>
<p>HTTP cookie (веб-кука, куки браузера) — это небольшой фрагмент данных, который сервер отправляет браузеру пользователя.</p>
<p>Браузер может сохранить cookie и отправлять его обратно с каждым следующим запросом к тому же серверу.</p>
<p>Обычно cookie используются, чтобы узнать, пришли ли два запроса от одного и того же браузера.</p>
<p>Сервер создаёт cookie с помощью заголовка Set-Cookie в ответе; браузер сохраняет его.</p>
<div class="sub">Subscribe to our newsletter for weekly updates on web development.</div>`},
		{"da", `<h1>Bageriet</h1>
<p>Vores cookies bages hver morgen med smør, rørsukker og belgisk chokolade.</p>
<p>Prøv vores nye cookies med havregryn og tranebær, som vi laver i små portioner.</p>
<p>Alle cookies kan bestilles til levering i hele Danmark fra mandag til fredag.</p>
<div class="ship">Free shipping on all orders over 50 euros. Easy returns within 30 days.</div>`},
		{"de", `<h1>Cookie-Richtlinie</h1>
<p>Unsere Webseite verwendet Cookies, um die Nutzung für Sie angenehmer zu machen.</p>
<p>Cookies sind kleine Textdateien, die beim Besuch der Webseite auf Ihrem Gerät gespeichert werden.</p>
<p>Wir setzen technisch notwendige Cookies ein, ohne die die Webseite nicht funktioniert, sowie Analyse-Cookies.</p>
<p>Sie können Cookies jederzeit in den Einstellungen Ihres Browsers deaktivieren.</p>
<div class="x">Powered by WordPress and WooCommerce</div>`},
	} {
		page := `<html><head><meta charset="utf-8"></head><body>` + nav + c.body + `</body></html>`
		if r := d.Detect([]byte(page), ""); r.Lang != c.lang {
			t.Errorf("a %s page about cookies beside one English line: got %s at %.3f, want %s", c.lang, r.Lang, r.Confidence, c.lang)
		}
	}
}

// TestOwnScriptWithBOM: a page with a byte-order mark (or in UTF-16) is
// read through decoded, which skipped ownScript: a review found
// TestASCIIWordsDoNotVoteInScript's page, saved with a UTF-8 BOM, still
// Nepali at 0.979. From the review, renamed.
func TestOwnScriptWithBOM(t *testing.T) {
	d := newDetector(t, Options{})
	page := `<!DOCTYPE html><html><head><meta charset="utf-8"><title></title></head><body>
<div class="promo">आज का भाव: सोना ₹ 72,300 प्रति दस ग्राम</div><div class="cc">Sign up for our newsletter and get the best deals every week. Subscribe</div>
</body></html>`
	plain := d.Detect([]byte(page), "")
	bom := d.Detect(append([]byte("\xef\xbb\xbf"), page...), "")
	if plain.Lang != "hi" || bom.Lang != "hi" {
		t.Errorf("Hindi line beside English: without BOM %s at %.3f, with BOM %s at %.3f; want hi both", plain.Lang, plain.Confidence, bom.Lang, bom.Confidence)
	}
}
