package links_test

import (
	"fmt"
	"net/url"

	"github.com/langcrawl/langcrawl/links"
)

func ExampleExtract() {
	page, _ := url.Parse("http://example.co.th/news/today.html")
	html := []byte(`<html><head><meta name="robots" content="noindex">
<link rel="stylesheet" href="/s.css"></head>
<body><a href="story.html#top">story</a> <a href="http://ads.example.com/" rel="nofollow">ad</a>
<img src="a.jpg" srcset="a-2x.jpg 2x"> <a href="mailto:editor@example.co.th">mail</a></body></html>`)
	p := links.Extract(page, html, links.Options{})
	fmt.Println("noindex:", p.NoIndex, "nofollow:", p.NoFollow)
	for _, l := range p.Links {
		fmt.Println(l.Kind, l.Tag, l.URL, l.NoFollow)
	}
	// Output:
	// noindex: true nofollow: false
	// requisite link http://example.co.th/s.css false
	// nav a http://example.co.th/news/story.html false
	// nav a http://ads.example.com/ true
	// requisite img http://example.co.th/news/a.jpg false
	// requisite img http://example.co.th/news/a-2x.jpg false
}
