package report

import (
	"path/filepath"
	"testing"
	"time"
)

// The tests below are from a second review (twenty-third session) of the
// entry referrers and the undecided-kept count, each failing on the code it
// reviewed; renamed.

// TestCandidateEnteredThroughOwnRedirector: the Hindi hub links to its own
// redirector (/go/shop, a click counter), which redirects to the shop. The
// redirect's via is on its own host, so redirVia does not keep it, and the
// shop's entry is the redirector URL, a record with no language: no target
// referrer, and the hub is not in the sample.
func TestCandidateEnteredThroughOwnRedirector(t *testing.T) {
	pages := []page{
		{url: "http://hub.test/", depth: 0, tree: "hub.test", lang: "hi", charset: "utf-8", relevant: true},
		{url: "http://hub.test/go/shop", depth: 1, tree: "hub.test", via: "http://hub.test/"},
		{url: "http://shop.test/", depth: 1, tree: "hub.test", lang: "en", charset: "utf-8", via: "http://hub.test/go/shop"},
	}
	log := `2026-01-01T00:00:06.000Z -5003          0 http://shop.test/p/2 LRL http://shop.test/ - #002 - - - focus:dropped:shop.test
`
	r, err := Build(writeCrawlOut(t, pages, log, reviewProfile))
	if err != nil {
		t.Fatal(err)
	}
	c := reviewCandidate(t, r, "shop.test")
	if c.TargetReferrers != 1 || len(c.ReferrerSample) == 0 || c.ReferrerSample[0] != "http://hub.test/" {
		t.Errorf("shop.test entered from the Hindi hub through its redirector: %d referrers, %d in the target, sample %v; want the hub",
			c.Referrers, c.TargetReferrers, c.ReferrerSample)
	}
}

// TestCandidateRedirectReadAfterTarget: the redirect's record is in a file
// read after the page it led to (the order TestCandidateViaReadLater
// allows). resolveVia runs when the page is added, before redirVia knows
// the redirect: the page's via is then the shop's own URL, no entry is
// kept, and the hub is lost.
func TestCandidateRedirectReadAfterTarget(t *testing.T) {
	out := t.TempDir()
	dir := filepath.Join(out, WARCDir)
	writeWARC(t, dir, t0, []page{
		{url: "http://hub.test/", depth: 0, tree: "hub.test", lang: "hi", charset: "utf-8", relevant: true},
		{url: "http://shop.test/home", depth: 1, tree: "hub.test", lang: "en", charset: "utf-8", via: "http://shop.test/"},
	})
	writeWARC(t, dir, t0.Add(time.Hour), []page{
		{url: "http://shop.test/", depth: 1, tree: "hub.test", via: "http://hub.test/"},
	})
	writeLogProfile(t, out, `2026-01-01T00:00:06.000Z -5003          0 http://shop.test/p/2 LRL http://shop.test/home - #002 - - - focus:dropped:shop.test
`, reviewProfile)
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	c := reviewCandidate(t, r, "shop.test")
	if c.TargetReferrers != 1 || len(c.ReferrerSample) == 0 || c.ReferrerSample[0] != "http://hub.test/" {
		t.Errorf("shop.test: %d referrers, %d in the target, sample %v; want the hub", c.Referrers, c.TargetReferrers, c.ReferrerSample)
	}
}

// TestSequentialRecheckNotCloseCall: crawl/verdict.go never makes a re-check's
// page a close call (tally's recheck: it counts in N_r and reopens the
// server), and the crawl log marks it "focus:recheck". The report's
// closeCall does not read that mark, so the server the crawl keeps is
// not counted among the undecided crawled in full.
func TestSequentialRecheckNotCloseCall(t *testing.T) {
	const log = `2026-01-01T00:00:00.000Z   200       1000 http://ms.test/ - - text/html #001 20260101000000000+12 sha1:AAA - lang:ms,charset:utf-8
2026-01-01T00:01:00.000Z   200       1000 http://mix.test/ L http://ms.test/ text/html #001 20260101000100000+12 sha1:BBB - lang:ms,charset:utf-8,focus:recheck
`
	r, err := Build(writeCrawlOut(t, closeCallPages, log, closeCallProfile))
	if err != nil {
		t.Fatal(err)
	}
	if n := r.undecidedKept(); n != 1 {
		t.Errorf("mix.test's target page was a re-check's, in N_r for the crawl: undecidedKept %d, want 1", n)
	}
}
