package scope

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestSURT(t *testing.T) {
	for in, want := range map[string]string{
		"http://www.example.co.th/a?b":    "http://(th,co,example,www,)/a?b",
		"https://example.com:8080/":       "https://(com,example,:8080)/",
		"http://example.com:80/x":         "http://(com,example,)/x",
		"http://127.0.0.1:8080/x":         "http://(127.0.0.1,:8080)/x",
		"http://[::1]/":                   "http://([::1],)/",
		"http://xn--12c1fe0br.xn--o3cw4h": "http://(xn--o3cw4h,xn--12c1fe0br,)/",
	} {
		u, err := Canonicalize(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := SURT(u); got != want {
			t.Errorf("SURT(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestSURTPrefix(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{in: "http://(th,co,", want: "(th,co,"},
		{in: "https://(TH,Co,", want: "(th,co,"},
		{in: "(th,", want: "(th,"},
		{in: "http://(com,example,)/Docs/", want: "(com,example,)/Docs/"},
		{in: "www.example.com", want: "(com,example,www,"},
		{in: "http://example.com/", want: "(com,example,)/"},
		{in: "http://example.com/a/b", want: "(com,example,)/a/"},
		{in: "http://example.com:8080/a/", want: "(com,example,:8080)/a/"},
		{in: "", err: "empty"},
		{in: "http://(th co", err: "spaces"},
		{in: "http://th,co,", err: "bad host"}, // no '(': a URL, and ',' is no host character
		{in: "x(th,", err: "want the form"},
		{in: "(th;co,", err: "bad host part"},
	}
	for _, tt := range tests {
		got, err := SURTPrefix(tt.in)
		if tt.err != "" {
			if err == nil || !errors.Is(err, ErrRule) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("SURTPrefix(%q) = %q, %v; want an ErrRule error containing %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("SURTPrefix(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestRules decides links under each kind of rule: what is followed, and
// which rule a rejection names.
func TestRules(t *testing.T) {
	type seed struct {
		url   string
		kind  Kind
		depth int
	}
	tests := []struct {
		name      string
		include   []string
		exclude   []string
		seeds     []seed
		maxDepth  int
		tree      string // parent's tree; "" means RegisteredDomain of the parent host a.test
		depth     int    // parent's depth
		link      string
		requisite bool
		want      string // Reject; "" means followed
	}{
		{name: "no rules", link: "http://b.test/x"},
		{name: "exclude regexp", exclude: []string{`/calendar/`}, link: "http://a.test/calendar/2031", want: "exclude:/calendar/"},
		{name: "exclude regexp, no match", exclude: []string{`/calendar/`}, link: "http://a.test/news/"},
		{name: "exclude is on the canonical URL", exclude: []string{`^http://a\.test/x$`}, link: "http://A.TEST:80/x#frag",
			want: `exclude:^http://a\.test/x$`},
		{name: "first exclude named", exclude: []string{`\.pdf$`, `/docs/`}, link: "http://a.test/docs/a.pdf", want: `exclude:\.pdf$`},
		{name: "exclude SURT", exclude: []string{"surt:http://(test,a,)/private/"}, link: "https://a.test/private/x",
			want: "exclude:surt:(test,a,)/private/"},
		{name: "exclude SURT, other path", exclude: []string{"surt:http://(test,a,)/private/"}, link: "http://a.test/public/"},
		{name: "exclude SURT domain", exclude: []string{"surt:(test,ads,"}, link: "http://cdn.ads.test/x.js", requisite: true,
			want: "exclude:surt:(test,ads,"},
		{name: "exclude applies to requisites", exclude: []string{`\.js$`}, link: "http://cdn.test/x.js", requisite: true,
			want: `exclude:\.js$`},
		{name: "include regexp", include: []string{`\.th/`}, link: "http://b.co.th/"},
		{name: "include regexp, no match", include: []string{`\.th/`}, link: "http://b.test/", want: "not-included"},
		{name: "include SURT", include: []string{"surt:http://(th,"}, link: "https://www.b.co.th/x"},
		{name: "include SURT, no match", include: []string{"surt:http://(th,"}, link: "http://b.test/", want: "not-included"},
		{name: "any include matches", include: []string{"surt:(th,", `b\.test`}, link: "http://b.test/"},
		{name: "include does not bind requisites", include: []string{"surt:(th,"}, link: "http://cdn.test/a.css", requisite: true},
		{name: "exclude wins over include", include: []string{"surt:(test,"}, exclude: []string{"surt:(test,a,"},
			link: "http://a.test/", want: "exclude:surt:(test,a,"},
		{name: "host scope", seeds: []seed{{"http://a.test/", Host, 0}}, link: "http://a.test/x"},
		{name: "host scope ignores www and scheme", seeds: []seed{{"http://a.test/", Host, 0}}, link: "https://www.a.test/x"},
		{name: "host scope, other host", seeds: []seed{{"http://a.test/", Host, 0}}, link: "http://news.a.test/",
			want: "outside-seed:host:a.test"},
		{name: "host scope, other port", seeds: []seed{{"http://a.test:8080/", Host, 0}}, link: "http://a.test/",
			want: "outside-seed:host:a.test:8080"},
		{name: "host scope binds links from other trees", seeds: []seed{{"http://a.test/", Host, 0}}, tree: "b.test",
			link: "http://shop.a.test/", want: "outside-seed:host:a.test"},
		{name: "host scope leaves other domains alone", seeds: []seed{{"http://a.test/", Host, 0}}, link: "http://b.test/"},
		{name: "host scope does not bind requisites", seeds: []seed{{"http://a.test/", Host, 0}}, link: "http://img.a.test/1.png", requisite: true},
		{name: "prefix scope", seeds: []seed{{"http://a.test/th/index.html", Prefix, 0}}, link: "http://a.test/th/news/1"},
		{name: "prefix scope, outside", seeds: []seed{{"http://a.test/th/index.html", Prefix, 0}}, link: "http://a.test/en/",
			want: "outside-seed:prefix:a.test/th/"},
		{name: "prefix scope, a longer name is outside", seeds: []seed{{"http://a.test/th/", Prefix, 0}}, link: "http://a.test/thai",
			want: "outside-seed:prefix:a.test/th/"},
		{name: "prefix of two seeds", seeds: []seed{{"http://a.test/th/", Prefix, 0}, {"http://a.test/lo/", Prefix, 0}}, link: "http://a.test/lo/x"},
		{name: "domain scope", seeds: []seed{{"http://www.a.test/", Domain, 0}}, link: "http://news.a.test/"},
		{name: "domain scope opens a host-scoped domain", seeds: []seed{{"http://a.test/", Host, 0}, {"http://a.test/", Domain, 0}},
			link: "http://news.a.test/"},
		{name: "default depth", depth: 8, link: "http://a.test/x", want: "depth 9, limit 8"},
		{name: "seed depth", seeds: []seed{{"http://a.test/", Domain, 2}}, depth: 2, link: "http://a.test/x", want: "depth 3, limit 2"},
		{name: "seed depth above the default", seeds: []seed{{"http://a.test/", Host, 12}}, depth: 11, link: "http://a.test/x"},
		{name: "seed depth 0 is the decider's", seeds: []seed{{"http://a.test/", Host, 0}}, maxDepth: 3, depth: 3,
			link: "http://a.test/x", want: "depth 4, limit 3"},
		{name: "no depth limit for the seed", seeds: []seed{{"http://a.test/", Host, -1}}, depth: 50, link: "http://a.test/x"},
		{name: "largest depth of matching scopes", seeds: []seed{{"http://a.test/", Domain, 2}, {"http://a.test/deep/", Prefix, 5}},
			depth: 4, link: "http://a.test/deep/x"},
		{name: "smaller depth where only one scope matches", seeds: []seed{{"http://a.test/", Domain, 2}, {"http://a.test/deep/", Prefix, 5}},
			depth: 4, link: "http://a.test/flat", want: "depth 5, limit 2"},
		{name: "include and seed scope", include: []string{`a\.test`}, seeds: []seed{{"http://a.test/", Host, 0}}, link: "http://a.test/x"},
		{name: "requisites keep their page's depth", seeds: []seed{{"http://a.test/", Host, 1}}, depth: 1, link: "http://a.test/x.png", requisite: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &Filter{}
			for _, r := range tt.include {
				if err := f.AddInclude(r); err != nil {
					t.Fatal(err)
				}
			}
			for _, r := range tt.exclude {
				if err := f.AddExclude(r); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range tt.seeds {
				if err := f.AddSeed(s.url, s.kind, s.depth); err != nil {
					t.Fatal(err)
				}
			}
			d := Decider{MaxDepth: tt.maxDepth, Filter: f}
			tree := tt.tree
			if tree == "" {
				tree = "a.test"
			}
			var got Decision
			if tt.requisite {
				got = d.DecideRequisite(tree, tt.depth-1, tt.link)
			} else {
				got = d.Decide(tree, tt.depth, tt.link)
			}
			if got.Reject != tt.want {
				t.Errorf("decide %s: Reject = %q, want %q", tt.link, got.Reject, tt.want)
			}
			if tt.want == "" && got.Admit != admits[tt.name] {
				t.Errorf("decide %s: Admit = %q, want %q", tt.link, got.Admit, admits[tt.name])
			}
		})
	}
}

// admits are the Admit of TestRules' accepted links, by test name; the
// others admit on no operator rule ("").
var admits = map[string]string{
	"include regexp":                          `include:\.th/`,
	"include SURT":                            "include:surt:(th,",
	"any include matches":                     `include:b\.test`,
	"include does not bind requisites":        "requisite",
	"host scope":                              "seed:host:a.test",
	"host scope ignores www and scheme":       "seed:host:a.test",
	"host scope does not bind requisites":     "requisite",
	"prefix scope":                            "seed:prefix:a.test/th/",
	"prefix of two seeds":                     "seed:prefix:a.test/lo/",
	"domain scope":                            "seed:domain:a.test",
	"domain scope opens a host-scoped domain": "seed:domain:a.test",
	"seed depth above the default":            "seed:host:a.test",
	"no depth limit for the seed":             "seed:host:a.test",
	"largest depth of matching scopes":        "seed:prefix:a.test/deep/",
	"requisites keep their page's depth":      "requisite",
	"include and seed scope":                  `include:a\.test;seed:host:a.test`,
}

func TestRuleErrors(t *testing.T) {
	f := &Filter{}
	for _, bad := range []string{`([a-z`, ``, `surt:`, `surt:http://(a b`, `a{2,1}`} {
		if err := f.AddExclude(bad); err == nil || !errors.Is(err, ErrRule) {
			t.Errorf("AddExclude(%q) = %v, want ErrRule", bad, err)
		} else if bad != "" && !strings.Contains(err.Error(), strings.TrimPrefix(bad, "surt:")) {
			t.Errorf("AddExclude(%q) = %v, want the error to name the rule", bad, err)
		}
	}
	if err := f.AddSeed("http://a.test/", "subdomain", 0); !errors.Is(err, ErrRule) || !strings.Contains(err.Error(), `"subdomain"`) {
		t.Errorf("AddSeed with kind subdomain = %v, want ErrRule naming it", err)
	}
	if err := f.AddSeed("ftp://a.test/", Host, 0); !errors.Is(err, ErrRule) {
		t.Errorf("AddSeed(ftp://) = %v, want ErrRule", err)
	}
	if _, err := ParseKind("Prefix"); err != nil {
		t.Errorf("ParseKind(Prefix) = %v", err)
	}
	if err := (Decider{}).AddExclude("x"); !errors.Is(err, ErrNoFilter) {
		t.Errorf("AddExclude without a Filter = %v, want ErrNoFilter", err)
	}
}

// TestRuntimeExclude adds and removes exclude rules as the status page
// does while a crawl runs.
func TestRuntimeExclude(t *testing.T) {
	d := Decider{Filter: &Filter{}}
	link := "http://a.test/calendar/2031/01"
	if got := d.Decide("a.test", 0, link); got.Reject != "" {
		t.Fatalf("before the rule: %q", got.Reject)
	}
	if err := d.AddExclude(`/calendar/\d+`); err != nil {
		t.Fatal(err)
	}
	if err := d.AddExclude(`/calendar/\d+`); err != nil { // again: nothing changes
		t.Fatal(err)
	}
	if err := d.AddExclude("surt:http://(test,a,)/tmp/"); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(d.Filter.Excludes(), " "), `/calendar/\d+ surt:(test,a,)/tmp/`; got != want {
		t.Errorf("Excludes() = %q, want %q", got, want)
	}
	u, _ := Canonicalize(link)
	if got := d.Excluded(u); got != `exclude:/calendar/\d+` {
		t.Errorf("Excluded = %q", got)
	}
	if got := d.Decide("a.test", 0, link); got.Reject != `exclude:/calendar/\d+` {
		t.Errorf("after AddExclude: Reject = %q", got.Reject)
	}
	if err := d.RemoveExclude(`/calendar/\d+`); err != nil {
		t.Fatal(err)
	}
	// A SURT rule is removed as written or in its compared form.
	if err := d.RemoveExclude("surt:https://(test,a,)/tmp/"); err != nil {
		t.Fatal(err)
	}
	if err := d.RemoveExclude("nothing"); !errors.Is(err, ErrNoRule) {
		t.Errorf("RemoveExclude of a missing rule = %v, want ErrNoRule", err)
	}
	if got := d.Decide("a.test", 0, link); got.Reject != "" {
		t.Errorf("after RemoveExclude: Reject = %q", got.Reject)
	}
	if err := d.Filter.AddInclude("surt:(th,"); err != nil {
		t.Fatal(err)
	}
	if err := d.Filter.RemoveInclude("surt:(th,"); err != nil || len(d.Filter.Includes()) != 0 {
		t.Errorf("RemoveInclude = %v, includes %v", err, d.Filter.Includes())
	}
}

// TestExcludeReadable: a rule written with a Thai host name or path
// matches the URL as the crawl keeps it, in punycode and percent-escapes
// (a steering trial's rule was accepted, kept, said to be in force and
// matched nothing); an ASCII rule still matches the canonical form only.
func TestExcludeReadable(t *testing.T) {
	d := Decider{Filter: &Filter{}}
	for _, r := range []string{`^https?://ข่าว\.test/`, `/ปฏิทิน/`, `/\x{0E02}\x{0E48}\x{0E32}\x{0E27}/`, `^https?://c\.test/\p{Thai}+/`} {
		if err := d.AddExclude(r); err != nil {
			t.Fatal(err)
		}
	}
	for link, want := range map[string]string{
		"http://ข่าว.test/a":                                                     `exclude:^https?://ข่าว\.test/`,
		"http://xn--22c8e6a1f.test/a":                                            `exclude:^https?://ข่าว\.test/`,
		"http://b.test/ปฏิทิน/2026":                                              "exclude:/ปฏิทิน/",
		"http://b.test/%E0%B8%9B%E0%B8%8F%E0%B8%B4%E0%B8%97%E0%B8%B4%E0%B8%99/1": "exclude:/ปฏิทิน/",
		"http://b.test/news/":                                                    "",
		// Escapes and classes name Thai as well (a review).
		"http://b.test/%E0%B8%82%E0%B9%88%E0%B8%B2%E0%B8%A7/": `exclude:/\x{0E02}\x{0E48}\x{0E32}\x{0E27}/`,
		"http://c.test/%E0%B8%A1/x":                           `exclude:^https?://c\.test/\p{Thai}+/`,
		"http://c.test/ascii/x":                               "",
		"http://xn--o3cw4h.test/":                             "",
	} {
		if got := d.Decide("b.test", 0, link); got.Reject != want {
			t.Errorf("%s: Reject = %q, want %q", link, got.Reject, want)
		}
	}
}

// TestFilterConcurrent changes rules while other goroutines decide; run
// with -race. Every decision sees a whole rule set: the link is either
// followed or rejected by one of the two rules.
func TestFilterConcurrent(t *testing.T) {
	d := Decider{Filter: &Filter{}}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan string, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := d.Decide("a.test", 0, "http://a.test/trap/1").Reject
				if r != "" && r != "exclude:trap" && r != "exclude:surt:(test,a,)/trap/" {
					errs <- r
					return
				}
			}
		}()
	}
	for i := 0; i < 200; i++ {
		rule := "trap"
		if i%2 == 1 {
			rule = "surt:(test,a,)/trap/"
		}
		if err := d.AddExclude(rule); err != nil {
			t.Fatal(err)
		}
		if err := d.Filter.AddSeed(fmt.Sprintf("http://s%d.test/", i), Host, 0); err != nil {
			t.Fatal(err)
		}
		if err := d.RemoveExclude(rule); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for r := range errs {
		t.Errorf("a decision saw a rule that was never added: %q", r)
	}
	if n := len(d.Filter.Seeds()); n != 200 {
		t.Errorf("%d seed scopes, want 200", n)
	}
}

// FuzzRule: parsing a rule never panics, and a rule that parses decides
// any URL without panicking.
func FuzzRule(f *testing.F) {
	for _, s := range []string{`/calendar/`, "surt:http://(th,co,", "surt:www.example.com", "surt:(a,)/b/", `([a-z`, "surt:", "(th,"} {
		f.Add(s, "http://www.example.co.th/a/b?c=d")
	}
	f.Fuzz(func(t *testing.T, rule, link string) {
		r, err := parseRule(rule)
		if err != nil {
			if !errors.Is(err, ErrRule) {
				t.Fatalf("parseRule(%q) error %v does not wrap ErrRule", rule, err)
			}
			return
		}
		u, err := url.Parse(link)
		if err != nil || u.Host == "" {
			return
		}
		r.match(&target{u: u})
		if r.re == nil && !strings.HasPrefix(r.surt, "(") {
			t.Fatalf("SURT rule %q compares %q, which does not start with '('", rule, r.surt)
		}
	})
}

func ExampleFilter() {
	f := &Filter{}
	_ = f.AddInclude("surt:http://(th,")                       // the .th web only
	_ = f.AddExclude(`/calendar/\d+`)                          // a trap
	_ = f.AddSeed("http://www.example.co.th/news/", Prefix, 3) // one section of this site, 3 deep
	d := Decider{Filter: f}
	for _, link := range []string{
		"http://other.ac.th/",
		"http://example.com/",
		"http://other.ac.th/calendar/2031",
		"http://example.co.th/news/2024/1.html",
		"http://example.co.th/shop/",
	} {
		dec := d.Decide("ac.th", 0, link)
		fmt.Printf("%s %q\n", link, dec.Reject)
	}
	// A requisite of an in-scope page comes from any host.
	fmt.Printf("%q\n", d.DecideRequisite("other.ac.th", 0, "http://cdn.example.com/a.css").Reject)
	// Output:
	// http://other.ac.th/ ""
	// http://example.com/ "not-included"
	// http://other.ac.th/calendar/2031 "exclude:/calendar/\\d+"
	// http://example.co.th/news/2024/1.html ""
	// http://example.co.th/shop/ "outside-seed:prefix:example.co.th/news/"
	// ""
}

// TestAddSeeds: a batch adds its good seeds in one change, the same scope
// given twice keeps the last depth, bad seeds are each named in the error,
// and rules a reader already holds do not change under it.
func TestAddSeeds(t *testing.T) {
	f := &Filter{}
	if err := f.AddSeed("http://a.test/x/", Prefix, 1); err != nil {
		t.Fatal(err)
	}
	before := f.load()
	beforeA := slices.Clone(before.seeds["a.test"])
	err := f.AddSeeds([]SeedScope{
		{Seed: "http://a.test/", Kind: Host, Depth: 2},
		{Seed: "http://b.test/", Kind: Domain},
		{Seed: "ftp://c.test/", Kind: Host},
		{Seed: "http://a.test/", Kind: Host, Depth: 5},
		{Seed: "http://d.test/", Kind: "subdomain"},
		{Seed: "http://a.test/x/", Kind: Prefix, Depth: 3},
	})
	if !errors.Is(err, ErrRule) || !strings.Contains(err.Error(), "ftp://c.test/") || !strings.Contains(err.Error(), `"subdomain"`) {
		t.Errorf("err = %v, want ErrRule naming ftp://c.test/ and the kind subdomain", err)
	}
	got := map[string]int{}
	for _, s := range f.Seeds() {
		got[string(s.Kind)+" "+s.Seed] = s.Depth
	}
	want := map[string]int{"host http://a.test/": 5, "domain http://b.test/": 0, "prefix http://a.test/x/": 3}
	if !maps.Equal(got, want) {
		t.Errorf("seeds %v, want %v", got, want)
	}
	if !slices.Equal(before.seeds["a.test"], beforeA) {
		t.Errorf("the rules a reader held changed: %v, was %v", before.seeds["a.test"], beforeA)
	}
}

// BenchmarkAddSeeds adds 40,000 scoped seeds of 400 domains, as a
// profile's seeds list does at each start.
func BenchmarkAddSeeds(b *testing.B) {
	seeds := make([]SeedScope, 40_000)
	for i := range seeds {
		seeds[i] = SeedScope{Seed: fmt.Sprintf("http://h%d.d%d.test/", i, i%400), Kind: Host}
	}
	for range b.N {
		f := &Filter{}
		if err := f.AddSeeds(seeds); err != nil {
			b.Fatal(err)
		}
	}
}

func TestNamesNonASCII(t *testing.T) {
	for re, want := range map[string]bool{`ข่าว`: true, `\x{0E02}`: true, `\p{Thai}`: true, `[ก-ฮ]`: true,
		`[^/]*calendar`: false, `^https?://a\.test/`: false, `.*`: false} {
		if got := namesNonASCII(re); got != want {
			t.Errorf("namesNonASCII(%q) = %v, want %v", re, got, want)
		}
	}
}
