package detect_test

import (
	"fmt"

	"github.com/langcrawl/langcrawl/detect"
)

func ExampleDetector_Detect() {
	d, err := detect.New(detect.Options{Targets: []string{"th"}})
	if err != nil {
		panic(err)
	}
	// Thai in TIS-620, under a META that claims ISO-8859-1 (noise).
	page := []byte("<html><head><meta http-equiv=Content-Type content=\"text/html; charset=iso-8859-1\"></head><body><p>" +
		"\xbb\xaf\xd4\xad\xad\xd2\xca\xd2\xa1\xc5\xc7\xe8\xd2\xb4\xe9\xc7\xc2\xca\xd4\xb7\xb8\xd4\xc1\xb9\xd8\xc9\xc2\xaa\xb9\x20\xb7\xd8\xa1\xa4\xb9\xe0\xa1\xd4\xb4\xc1\xd2\xc1\xd5\xcd\xd4\xca\xc3\xd0\xe1\xc5\xd0\xe0\xca\xc1\xcd\xc0\xd2\xa4\xa1\xd1\xb9\xe3\xb9\xc8\xd1\xa1\xb4\xd4\xec\xc8\xc3\xd5\xe1\xc5\xd0\xca\xd4\xb7\xb8\xd4" +
		"</p></body></html>")
	r := d.Detect(page, "text/html")
	fmt.Println(r.Lang, r.Charset, r.Relevant, r.Evidence)
	text, _ := detect.Decode(page, r.Charset)
	fmt.Println(len(text) > len(page))
	// Output:
	// th windows-874 true ngram
	// true
}
