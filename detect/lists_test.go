package detect

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The list set (issue 14, second part): pages whose paragraph is a list of
// names or short items, in page templates with English boilerplate
// (bylines, date lines, "last updated" lines, copyright lines, cookie
// notices, sharing buttons) that neither evaluation set uses. Its text
// comes from catalogues that no profile is trained on and that neither
// evaluation set uses either: GNOME Settings' timezones (cities), ISO
// 3166-2 and 3166-3 (subdivisions, former countries), the Cinnamon
// screensaver and the Nemo extensions (short user-interface items). A
// message whose msgid any listed catalogue (training or evaluation) also
// has is left out, so the lists hold no text of either side.

// ListEvalFile holds the list set's text: "tag\tkind\titem\titem..." lines,
// gzip, kind "names" or "items". Written by TestListEvalText with
// -update-lists from the corpora.
const ListEvalFile = "testdata/list-eval.txt.gz"

var updateLists = flag.Bool("update-lists", false, "TestListEvalText: rewrite "+ListEvalFile+" from the corpora")

// listSources are the held-out catalogues the list set reads.
var listSources = []struct {
	cat  catalogue
	kind string
}{
	{catalogue{"gnome-control-center-data", "gnome-control-center-2.0-timezones", true}, "names"},
	{catalogue{"iso-codes", "iso_3166-2", true}, "names"},
	{catalogue{"iso-codes", "iso_3166-3", true}, "names"},
	{catalogue{"cinnamon-l10n", "cinnamon-screensaver", true}, "items"},
	{catalogue{"cinnamon-l10n", "nemo-extensions", true}, "items"},
}

const (
	listNamesRunes = 160 // a list of names holds at least this many characters
	listItemsRunes = 120 // a list of short items, likewise
	maxItemRunes   = 40  // a user-interface item longer than this is not a short item
	maxLists       = 3   // lists of each kind per language
)

// listEvalText builds the list set's text from the corpora under dir.
func listEvalText(dir string) ([]byte, error) {
	known := map[string]bool{} // idKeys of every catalogue the builder reads
	for _, c := range catalogues {
		locs, err := catalogueMOs(dir, c)
		if err != nil {
			return nil, err
		}
		if err := eachMsgID(locs, func(id string) { known[idKey(id)] = true }); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	for _, l := range languages {
		if l.Tag == "en" {
			continue // English is the boilerplate
		}
		perSource := map[string][][]string{} // by kind, one list per source
		seen := map[string]bool{}
		for _, s := range listSources {
			var kept []string
			for _, loc := range catalogueLocales(l.Tag) {
				msgs, err := catalogueText(dir, s.cat, loc, textFilter{skip: known})
				if err != nil {
					return nil, err
				}
				for _, m := range msgs {
					if s.kind == "names" {
						// "Afrika/Abidjan": the city, not its region.
						m = strings.TrimSpace(m[strings.LastIndexByte(m, '/')+1:])
					}
					if utf8.RuneCountInString(m) < 3 || seen[m] || s.kind == "items" && utf8.RuneCountInString(m) > maxItemRunes {
						continue
					}
					seen[m] = true
					kept = append(kept, m)
				}
			}
			// An even stride over the catalogue, not its first letters.
			var strided []string
			step := max(1, len(kept)/60)
			for i := 0; i < len(kept); i += step {
				strided = append(strided, kept[i])
			}
			perSource[s.kind] = append(perSource[s.kind], strided)
		}
		byKind := map[string][]string{}
		for k, lists := range perSource {
			byKind[k] = interleave(lists, 1<<20)
		}
		var all strings.Builder
		for _, k := range []string{"names", "items"} {
			all.WriteString(strings.Join(byKind[k], " "))
		}
		script := mainScript(all.String())
		for _, k := range []string{"names", "items"} {
			minRunes := listNamesRunes
			if k == "items" {
				minRunes = listItemsRunes
			}
			var list []string
			n, lists := 0, 0
			for _, m := range byKind[k] {
				if !inScript(m, script) {
					continue
				}
				list = append(list, m)
				n += utf8.RuneCountInString(m) + 2
				if n >= minRunes {
					fmt.Fprintf(zw, "%s\t%s\t%s\n", l.Tag, k, strings.Join(list, "\t"))
					list, n = nil, 0
					if lists++; lists == maxLists {
						break
					}
				}
			}
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// TestListEvalText checks that the list set's text is what the corpora
// give (with -update-lists, writes it). Without the corpora it is skipped:
// the set itself is checked in.
func TestListEvalText(t *testing.T) {
	dir := os.Getenv("LANGCRAWL_CORPORA")
	if dir == "" {
		dir = filepath.Join("corpora", "cache")
	}
	if _, err := os.Stat(filepath.Join(dir, DebDir, "cinnamon-l10n")); err != nil {
		t.Skipf("corpora missing in %s: run detect/corpora/fetch.sh", dir)
	}
	got, err := listEvalText(dir)
	if err != nil {
		t.Fatal(err)
	}
	if *updateLists {
		if err := os.WriteFile(ListEvalFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(ListEvalFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what the corpora give: go test ./detect -run TestListEvalText -update-lists", ListEvalFile)
	}
}

// listList is one list of the list set.
type listList struct {
	tag, kind string
	items     []string
}

// loadLists reads ListEvalFile.
func loadLists(t testing.TB) []listList {
	t.Helper()
	by, tags := loadEvalText(t, ListEvalFile)
	var out []listList
	for _, tag := range tags {
		for _, line := range by[tag] {
			f := strings.Split(line, "\t")
			if len(f) < 2 {
				t.Fatalf("%s: bad line %q", ListEvalFile, line)
			}
			out = append(out, listList{tag: tag, kind: f[0], items: f[1:]})
		}
	}
	return out
}

// listTemplates are page templates of the list set, other than
// boilerplateTemplates: English bylines, date and "last updated" lines,
// copyright and licence lines, cookie notices, sharing links and an author
// line around the list, much of it in elements whose class or id names no
// page furniture. %[1]s is the list's markup, %[2]s its first item as the
// heading, %[3]s the charset.
var listTemplates = []string{
	// News: masthead, bylines and a date line above, sharing links and a
	// copyright line below.
	`<!DOCTYPE html><html><head><meta charset="%[3]s"><title>News</title></head><body>
<div class="masthead"><a href="/">The Example Times</a></div>
<div class="container"><h1>%[2]s</h1>
<div class="info">By Jane Smith and Tom Brown, Staff Reporters</div>
<div class="info">Published March 14, 2022, 9:30 a.m. ET | Updated March 15, 2022</div>
%[1]s
<p>Share this story: <a href="#">Facebook</a> <a href="#">Twitter</a> <a href="#">LinkedIn</a> <a href="#">Email</a></p></div>
<div class="bottom"><p>&copy; 2022 The Example Times Company. All rights reserved. Reproduction without permission is prohibited.</p></div>
</body></html>`,
	// A wiki: last-edited and licence lines.
	`<!DOCTYPE html><html><head><meta charset="%[3]s"></head><body><div id="content"><h1 id="firstHeading">%[2]s</h1>
<div id="bodyContent">%[1]s</div></div>
<div id="lastmod">This page was last edited on 2 November 2023, at 14:05 (UTC).</div>
<div id="license">Text is available under the Creative Commons Attribution-ShareAlike License; additional terms may apply.</div>
</body></html>`,
	// A cookie notice first, a byline after the list, a legal line.
	`<html><head><meta charset="%[3]s"></head><body>
<div class="notice-bar"><p>This website uses cookies to ensure you get the best experience on our website.</p><a href="#">Got it!</a></div>
<div class="wrapper"><h2>%[2]s</h2>%[1]s
<p class="small text-muted">Posted on 5 March 2021 by Maria Lopez</p></div>
<div class="legal">Copyright 2021 Example Inc. All rights reserved.</div></body></html>`,
	// An old table layout: a last-modified line in small print, a
	// copyright line centred at the bottom.
	`<html><head><meta http-equiv="Content-Type" content="text/html; charset=%[3]s"></head><body>
<table width="100%%"><tr><td width="20%%" valign="top"><b>Quick links</b><br><a href="/">Home</a><br><a href="/links">Links</a></td>
<td valign="top"><h3>%[2]s</h3>%[1]s<br><font size="1">Last modified: Tue, 05 Jan 2021 10:14:02 GMT</font></td></tr></table>
<center><font size="1">Copyright &copy; 1998-2021 Example Web Services. All Rights Reserved. Best viewed in 1024x768.</font></center>
</body></html>`,
	// Documentation: feedback and review lines.
	`<!DOCTYPE html><html><head><meta charset="%[3]s"></head><body><div class="doc"><h1>%[2]s</h1>%[1]s
<p>Was this page helpful? Send your feedback to the documentation team.</p>
<p class="updated">Last reviewed: 2023-06-12</p></div></body></html>`,
	// A blog post: a byline with reading time, tags, an author line.
	`<!DOCTYPE html><html><head><meta charset="%[3]s"></head><body><div class="post"><h2>%[2]s</h2>
<p><em>Written by Alex Johnson on July 21, 2019 &middot; 3 min read</em></p>%[1]s
<p>Filed under: Resources, Lists</p>
<p>Alex Johnson writes about travel and technology. Follow him for more.</p></div></body></html>`,
}

// listForms render a list: as one paragraph, as list items, as lines.
var listForms = []struct {
	name   string
	render func(items []string) string
}{
	{"paragraph", func(items []string) string { return "<p>" + strings.Join(items, ", ") + "</p>" }},
	{"ul", func(items []string) string { return "<ul><li>" + strings.Join(items, "</li>\n<li>") + "</li></ul>" }},
	{"lines", func(items []string) string { return "<p>" + strings.Join(items, "<br>\n") + "</p>" }},
}

// listEvalSet builds the list set's pages: every list in every form, in
// UTF-8 and in its language's first legacy charset, alone in a plain page
// (scenario "plain", the control) and in every template ("list-template").
func listEvalSet(t testing.TB, lists []listList) []evalPage {
	t.Helper()
	specs := map[string]langSpec{}
	for _, l := range languages {
		specs[l.Tag] = l
	}
	var pages []evalPage
	for li, l := range lists {
		charsets := []string{"utf-8"}
		if cs := specs[l.tag].Charsets; len(cs) > 0 {
			charsets = append(charsets, cs[0])
		}
		for _, cs := range charsets {
			for fi, f := range listForms {
				body := f.render(l.items)
				head := l.items[0]
				add := func(scenario string, tk int, page string) {
					b, err := encodeLegacy(page, cs)
					if err != nil {
						t.Fatalf("%s in %s: %v", l.tag, cs, err)
					}
					pages = append(pages, evalPage{name: fmt.Sprintf("%s/%s/%s/%s/%d", l.tag, cs, scenario, f.name, len(pages)),
						form: f.name, template: tk,
						scenario: scenario, tag: l.tag, charset: cs, body: b})
				}
				add("plain", -1, fmt.Sprintf("<!DOCTYPE html><html><head><meta charset=%q></head><body>%s</body></html>", cs, body))
				for k := range listTemplates {
					if (li+fi+k)%2 == 0 { // half the combinations, alternating
						add("list-template", k, fmt.Sprintf(listTemplates[k], body, head, cs))
					}
				}
			}
		}
	}
	return pages
}

// TestEvaluationLists measures the detector on the list set.
func TestEvaluationLists(t *testing.T) {
	pages := listEvalSet(t, loadLists(t))
	r := evaluate(t, evalDetector(t), pages)
	// Measured with metadata lines, runs of short blocks (extract.go) and
	// the English-minority check (detect.go): list-template 0.9161, plain
	// 0.9441, 101 template pages and 6 plain ones to English; before them
	// 0.4864, 0.9270, 2,865 and 14 (docs/detect.md has each rule alone).
	//
	// With Nynorsk (variant.go) the set gained 72 Nynorsk list pages,
	// names of places, regions and time zones that the two standards
	// mostly write alike. The set the languages supported before had is
	// built from their lists alone (the templates alternate by a list's
	// position, so leaving Nynorsk's pages out of the whole set would
	// give the others different pages), and keeps the floors above.
	// The twenty-first session's group partner (scored.grpTag) moved one
	// Catalan template page to Spanish (0.9161 -> 0.9160 there, 0.9106 ->
	// 0.9103 over all pages), where the out-of-domain set gained two
	// pages and the trial webs of Malay and Indonesian every misread of
	// its kind: the floor of 0.916 went to 0.9155, on purpose. The
	// twenty-third session's cookie notices by their text (consentLine)
	// and own-script reading (ownScript) measured 0.9224 and 0.9441:
	// floors raised to 0.922 and 0.944. The twenty-fifth session's
	// declared charset scored first (declaredFirst) measured 0.9246 and
	// 0.9457 (ten Welsh list pages read Vietnamese before): floors 0.924
	// and 0.945.
	var before []listList
	for _, l := range loadLists(t) {
		if l.tag != "nn" {
			before = append(before, l)
		}
	}
	old := evaluate(t, evalDetector(t), listEvalSet(t, before))
	for sc, want := range map[string]float64{"list-template": 0.924, "plain": 0.945} {
		if got := old.byScen[sc]; got < want {
			t.Errorf("scenario %s, languages before Nynorsk: language accuracy %.4f, below the floor %.4f", sc, got, want)
		}
	}
	// Over all pages, with Nynorsk's: measured 0.9106 / 0.9385 (Nynorsk
	// 22 of 72 right, 48 to Bokmål); 0.9157 / 0.9385 in the twenty-third
	// session.
	for sc, want := range map[string]float64{"list-template": 0.915, "plain": 0.938} {
		if got := r.byScen[sc]; got < want {
			t.Errorf("scenario %s: language accuracy %.4f, below the floor %.4f", sc, got, want)
		}
	}
	if n := r.toEn["list-template"]; n > 101 {
		t.Errorf("%d list-template pages of other languages detected as English, above the ceiling 101", n)
	}
	// Calibration: measured 0.0533 (0.3421 before the three rules); the
	// calibration is fitted on snippets of one language, and a page of
	// names beside English is harder than any of them.
	checkECE(t, r, 0.06)
	// Lists of names alone that read as English (6 measured).
	if n := r.toEn["plain"]; n > 6 {
		t.Errorf("%d plain list pages detected as English, above the ceiling 6", n)
	}
}
