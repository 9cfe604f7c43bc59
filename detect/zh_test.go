package detect

import (
	"errors"
	"testing"

	"golang.org/x/text/encoding/traditionalchinese"
)

// TestScriptTargetForeignCharset: a review found sharedCharsets counts a charset's languages by ISO code
// (csLangs["big5"] = {zh}) and targetScript("zh") is true for zh-hans, so
// big5, Traditional Chinese's charset, is accepted as defining a
// Simplified-only target; finish then marks a Big5 Traditional page
// relevant for zh-hans (csLangs[cs][res.Lang], by code, not tag).
func TestScriptTargetForeignCharset(t *testing.T) {
	_, err := New(Options{Targets: []string{"zh-hans"}, TargetCharsets: []string{"big5"}})
	if !errors.Is(err, ErrSharedCharset) {
		t.Errorf("zh-hans with big5 (Traditional's charset): err %v, want ErrSharedCharset", err)
	}
	if err != nil {
		return
	}
	d := newDetector(t, Options{Targets: []string{"zh-hans"}, TargetCharsets: []string{"big5"}})
	txt := "這是一個繁體中文的網頁，我們在這裡介紹臺灣的圖書館、博物館與美術館，歡迎大家參觀。"
	b5, err := traditionalchinese.Big5.NewEncoder().Bytes([]byte(txt))
	if err != nil {
		t.Fatal(err)
	}
	r := d.Detect(page(`<meta charset="big5">`, b5), "")
	if r.Relevant {
		t.Errorf("a Big5 Traditional page (tag %s, charset %s) is relevant for a zh-hans target", r.Tag, r.Charset)
	}
}
