package crawl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/detect"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/links"
)

// captureLinks returns the links of the capture a 304 stands for, read
// from its record in the WARC file the history names (from a re-crawl
// review): a 304 has no body, and without them a page's links were
// followed only in the generation that captured it, so the URLs an older
// profile left out (a depth limit since raised, an exclusion since
// lifted, a site budget since raised) were never fetched while the page
// stayed unchanged. ok is false when the capture cannot be read (its file
// moved or gone): the 304 then follows no link, as before.
func (c *Crawler) captureLinks(prev frontier.History, u *url.URL) (found []links.Link, decl, lang string, ok bool) {
	if prev.File == "" || prev.RecordID == "" {
		return nil, "", "", false
	}
	var f *os.File
	paths := []string{prev.File, prev.File + ".open"}
	for _, d := range c.cfg.CaptureDirs {
		p := filepath.Join(d, filepath.Base(prev.File))
		paths = append(paths, p, p+".open")
	}
	for _, p := range paths {
		if g, err := os.Open(p); err == nil {
			f = g
			break
		}
	}
	if f == nil {
		return nil, "", "", false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || prev.Offset >= fi.Size() {
		return nil, "", "", false
	}
	limit := c.cfg.MaxParse
	if limit <= 0 {
		limit = 8 << 20
	}
	var rec *archive.Record
	errFound := errors.New("found")
	err = archive.Scan(io.NewSectionReader(f, prev.Offset, fi.Size()-prev.Offset), filepath.Base(prev.File), int(limit)+64<<10,
		func(r archive.Record, _ []byte) error {
			rec = &r
			return errFound
		})
	if rec == nil || (err != nil && !errors.Is(err, errFound)) || rec.ID != prev.RecordID || rec.Type != "response" {
		return nil, "", "", false
	}
	i := bytes.Index(rec.Block, []byte("\r\n\r\n"))
	if i < 0 {
		return nil, "", "", false
	}
	tp := textproto.NewReader(bufio.NewReader(bytes.NewReader(rec.Block[:i+4])))
	if _, err := tp.ReadLine(); err != nil {
		return nil, "", "", false
	}
	mh, err := tp.ReadMIMEHeader()
	if err != nil && len(mh) == 0 {
		return nil, "", "", false
	}
	res := &fetch.Result{URL: prev.URL, RawResponse: rec.Block, BodyOffset: i + 4, Header: map[string][]string(mh),
		Chunked: strings.Contains(strings.ToLower(mh.Get("Transfer-Encoding")), "chunked")}
	payload, _ := res.Payload(limit)
	if len(payload) == 0 {
		return nil, "", "", false
	}
	switch mt := mediaType(mh.Get("Content-Type")); {
	case isHTML(mt):
		d := c.p.Detector.Detect(payload, mh.Get("Content-Type"))
		text, derr := detect.Decode(payload, d.Charset)
		if derr != nil {
			text = payload
		}
		page := links.Extract(u, text, links.Options{QueryCharset: d.Charset})
		for _, ln := range page.Links {
			if !page.NoFollow || ln.Kind == links.Requisite {
				found = append(found, ln)
			}
		}
		return found, declaredLang(mh.Get("Content-Language"), page.Lang), d.Lang, true
	case mt == "text/css" && c.cfg.Requisites:
		for _, s := range links.ExtractCSS(u, payload, maxStylesheetLinks) {
			found = append(found, links.Link{URL: s, Kind: links.Requisite, Tag: "css", Attr: "url"})
		}
		return found, "", "", true
	}
	return nil, "", "", false
}
