package focus

import (
	"errors"
	"strings"
	"testing"
)

func TestStatusOf(t *testing.T) {
	tests := []struct {
		c    Counts
		tol  int
		want Status
	}{
		{Counts{Downloaded: 0, Relevant: 0}, 10, Undecided},
		{Counts{Downloaded: 1, Relevant: 0}, 10, Undecided},
		{Counts{Downloaded: 10, Relevant: 0}, 10, Undecided}, // N_a <= T
		{Counts{Downloaded: 11, Relevant: 0}, 10, Irrelevant},
		{Counts{Downloaded: 11, Relevant: 1}, 10, Relevant},
		{Counts{Downloaded: 1, Relevant: 1}, 10, Relevant},
		{Counts{Downloaded: 1000, Relevant: 1}, 10, Relevant},
		{Counts{Downloaded: 1, Relevant: 0}, 0, Irrelevant},
		{Counts{Downloaded: 0, Relevant: 0}, 0, Undecided},
		{Counts{Downloaded: 20, Relevant: 0}, 20, Undecided},
		{Counts{Downloaded: 21, Relevant: 0}, 20, Irrelevant},
	}
	for _, tt := range tests {
		if got := StatusOf(tt.c, tt.tol); got != tt.want {
			t.Errorf("StatusOf(%+v, %d) = %v, want %v", tt.c, tt.tol, got, tt.want)
		}
	}
}

// TestStatusTransitions walks one server through the page sequence of
// section 4.1: undecided until T irrelevant pages, then irrelevant; one
// relevant page makes it relevant for good.
func TestStatusTransitions(t *testing.T) {
	tests := []struct {
		name  string
		pages string // r = relevant page, x = irrelevant page
		tol   int
		want  []Status
	}{
		{"irrelevant after T+1", "xxxx", 3, []Status{Undecided, Undecided, Undecided, Irrelevant}},
		{"relevant first", "rxxxxx", 3, []Status{Relevant, Relevant, Relevant, Relevant, Relevant, Relevant}},
		{"relevant just in time", "xxxr", 3, []Status{Undecided, Undecided, Undecided, Relevant}},
		{"late relevant page revives", "xxxxxr", 3, []Status{Undecided, Undecided, Undecided, Irrelevant, Irrelevant, Relevant}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Counts
			for i, p := range tt.pages {
				if p == 'r' {
					c.Relevant++
				}
				c.Downloaded++
				if got := StatusOf(c, tt.tol); got != tt.want[i] {
					t.Fatalf("after page %d (%q): %v, want %v", i+1, tt.pages[:i+1], got, tt.want[i])
				}
			}
		})
	}
}

func TestParseStrategy(t *testing.T) {
	for _, s := range Strategies() {
		got, err := ParseStrategy(" " + strings.ToUpper(string(s)) + " ")
		if err != nil || got != s {
			t.Errorf("ParseStrategy(%q) = %q, %v", s, got, err)
		}
	}
	if got, err := ParseStrategy(""); err != nil || got != ConservativeServer {
		t.Errorf("ParseStrategy(\"\") = %q, %v; want default", got, err)
	}
	_, err := ParseStrategy("perfect")
	if !errors.Is(err, ErrStrategy) {
		t.Fatalf("ParseStrategy(perfect) err = %v, want ErrStrategy", err)
	}
	for _, s := range Strategies() {
		if !strings.Contains(err.Error(), string(s)) {
			t.Errorf("error %q does not list %q", err, s)
		}
	}
}

func TestNew(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Strategy() != ConservativeServer || p.Tolerance() != DefaultTolerance {
		t.Errorf("defaults = %q, T=%d", p.Strategy(), p.Tolerance())
	}
	_, err = New(Config{Strategy: "dfs", Tolerance: -1, Decay: Decay{Every: -5}})
	if err == nil {
		t.Fatal("New accepted a bad config")
	}
	for _, want := range []string{"focus.strategy", "focus.tolerance", "focus.decay.every"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	if _, err := New(Config{Tolerance: 5, Decay: Decay{Every: 1, Min: 6}}); !errors.Is(err, ErrConfig) {
		t.Errorf("Min > T: err = %v, want ErrConfig", err)
	}
}

func TestKey(t *testing.T) {
	tests := []struct {
		s    Strategy
		want string
	}{
		{BFS, ""}, {HardFocused, ""}, {SoftFocused, ""},
		{AggressiveServer, "www.xsp.com"}, {ConservativeServer, "www.xsp.com"},
		{ConservativeDirectory, "www.xsp.com/user1/"},
	}
	for _, tt := range tests {
		p := mustNew(t, Config{Strategy: tt.s})
		if got := p.Key("www.xsp.com", "www.xsp.com/user1/"); got != tt.want {
			t.Errorf("%s: Key = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func mustNew(t testing.TB, cfg Config) *Policy {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Named counter states used in the decision table (T = 10).
var (
	unvisited  = Counts{}
	undecided  = Counts{Downloaded: 3}
	atLimit    = Counts{Downloaded: 10}
	irrelevant = Counts{Downloaded: 11}
	relevant   = Counts{Downloaded: 11, Relevant: 1}
)

func TestDecide(t *testing.T) {
	type in struct {
		rel       bool
		src, dest Counts
		visited   bool
	}
	type out struct {
		enq, high, def bool
		reason         string
	}
	var (
		high  = out{true, true, false, ReasonRelevantPage}
		low   = out{true, false, false, ReasonOtherPage}
		seen  = out{false, false, false, ReasonSeen}
		unvis = out{false, false, false, ReasonUnvisited}
		irr   = out{false, false, false, ReasonIrrelevantDest}
		hard  = out{false, false, false, ReasonIrrelevantPage}
		def   = out{false, false, true, ReasonDeferred}
	)
	tests := []struct {
		s      Strategy
		defer_ bool
		name   string
		in     in
		want   out
	}{
		// BFS: everything unseen, one priority.
		{BFS, false, "relevant page", in{true, relevant, unvisited, false}, low},
		{BFS, false, "irrelevant dest", in{false, irrelevant, irrelevant, false}, low},
		{BFS, false, "seen", in{true, relevant, relevant, true}, seen},
		// Hard focused: only links of relevant pages.
		{HardFocused, false, "relevant page", in{true, undecided, irrelevant, false}, high},
		{HardFocused, false, "irrelevant page", in{false, relevant, relevant, false}, hard},
		{HardFocused, false, "seen", in{true, relevant, relevant, true}, seen},
		// Soft focused: all links, priority by page.
		{SoftFocused, false, "relevant page", in{true, undecided, irrelevant, false}, high},
		{SoftFocused, false, "irrelevant page", in{false, irrelevant, irrelevant, false}, low},
		{SoftFocused, false, "seen", in{false, irrelevant, irrelevant, true}, seen},
		// Aggressive: step 5 only.
		{AggressiveServer, false, "relevant page to new server", in{true, relevant, unvisited, false}, high},
		{AggressiveServer, false, "undecided server to new server", in{false, undecided, unvisited, false}, low},
		{AggressiveServer, false, "irrelevant server to new server", in{false, irrelevant, unvisited, false}, low},
		{AggressiveServer, false, "to undecided at T", in{false, undecided, atLimit, false}, low},
		{AggressiveServer, false, "step 5: to irrelevant", in{true, relevant, irrelevant, false}, irr},
		{AggressiveServer, false, "to relevant", in{false, relevant, relevant, false}, low},
		{AggressiveServer, false, "seen", in{true, relevant, relevant, true}, seen},
		{AggressiveServer, true, "defer has no effect", in{false, undecided, unvisited, false}, low},
		// Conservative: step 4.5 then step 5.
		{ConservativeServer, false, "relevant page to new server", in{true, relevant, unvisited, false}, high},
		{ConservativeServer, false, "irrelevant page of relevant server to new server", in{false, relevant, unvisited, false}, low},
		{ConservativeServer, false, "step 4.5: undecided server to new server", in{false, undecided, unvisited, false}, unvis},
		{ConservativeServer, false, "step 4.5: irrelevant server to new server", in{false, irrelevant, unvisited, false}, unvis},
		{ConservativeServer, false, "undecided server to undecided server", in{false, undecided, undecided, false}, low},
		{ConservativeServer, false, "undecided server to itself", in{false, undecided, undecided, false}, low},
		{ConservativeServer, false, "undecided server to relevant server", in{false, undecided, relevant, false}, low},
		{ConservativeServer, false, "step 5: to irrelevant", in{true, relevant, irrelevant, false}, irr},
		{ConservativeServer, false, "step 5: irrelevant server to itself", in{false, irrelevant, irrelevant, false}, irr},
		{ConservativeServer, false, "seen", in{false, undecided, unvisited, true}, seen},
		{ConservativeServer, true, "defer instead of step 4.5", in{false, undecided, unvisited, false}, def},
		{ConservativeServer, true, "defer: relevant source passes", in{false, relevant, unvisited, false}, low},
		{ConservativeServer, true, "defer: step 5 still rejects", in{false, undecided, irrelevant, false}, irr},
		// Directory: same logic, counters keyed by directory.
		{ConservativeDirectory, false, "relevant dir to new dir", in{true, relevant, unvisited, false}, high},
		{ConservativeDirectory, false, "step 4.5: undecided dir to new dir", in{false, undecided, unvisited, false}, unvis},
		{ConservativeDirectory, false, "step 5", in{false, relevant, irrelevant, false}, irr},
		{ConservativeDirectory, true, "defer", in{false, undecided, unvisited, false}, def},
	}
	for _, tt := range tests {
		t.Run(string(tt.s)+"/"+tt.name, func(t *testing.T) {
			p := mustNew(t, Config{Strategy: tt.s, Defer: tt.defer_})
			v := p.Decide(tt.in.rel, tt.in.src, tt.in.dest, tt.in.visited)
			got := out{v.Enqueue, v.High, v.Defer, v.Reason}
			if got != tt.want {
				t.Errorf("Decide(%+v) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

// TestDeferredReprocessing follows one deferred link: rejected by step 4.5
// while its source is undecided, accepted once the source turns relevant.
func TestDeferredReprocessing(t *testing.T) {
	p := mustNew(t, Config{Strategy: ConservativeDirectory, Defer: true})
	src := Counts{Downloaded: 2}
	if v := p.Decide(false, src, unvisited, false); !v.Defer || v.Enqueue {
		t.Fatalf("undecided source: %+v, want Defer", v)
	}
	src = Counts{Downloaded: 3, Relevant: 1} // a relevant page arrived
	if v := p.Decide(false, src, unvisited, false); !v.Enqueue || v.High || v.Defer {
		t.Fatalf("relevant source: %+v, want low-priority enqueue", v)
	}
}

func TestSkip(t *testing.T) {
	for _, s := range Strategies() {
		p := mustNew(t, Config{Strategy: s})
		for _, c := range []Counts{unvisited, undecided, atLimit, irrelevant, relevant} {
			for _, high := range []bool{false, true} {
				// A policy that reads links keeps a high-priority URL: its
				// own evidence let it into the irrelevant server.
				want := s.ServerBased() && c == irrelevant && !(p.ReadsLinks() && high)
				if got := p.Skip(c, high); got != want {
					t.Errorf("%s: Skip(%+v, high %v) = %v, want %v", s, c, high, got, want)
				}
			}
		}
	}
}

func TestRequisite(t *testing.T) {
	p := mustNew(t, Config{})
	if v := p.Requisite(true, relevant, irrelevant, false); !v.Enqueue || !v.High || v.Reason != ReasonRequisite {
		t.Errorf("requisite of relevant page on irrelevant server: %+v", v)
	}
	if v := p.Requisite(true, relevant, unvisited, true); v.Enqueue {
		t.Errorf("seen requisite enqueued: %+v", v)
	}
	if v := p.Requisite(false, undecided, unvisited, false); v.Enqueue || v.Reason != ReasonUnvisited {
		t.Errorf("requisite of irrelevant page follows step 4.5: %+v", v)
	}
}

func TestDecay(t *testing.T) {
	p := mustNew(t, Config{Strategy: AggressiveServer, Tolerance: 10, Decay: Decay{Every: 100, Min: 3}})
	tests := []struct {
		crawled int64
		want    int
	}{{0, 10}, {99, 10}, {100, 9}, {250, 8}, {700, 3}, {1 << 40, 3}}
	for _, tt := range tests {
		q := p.At(tt.crawled)
		if got := q.Tolerance(); got != tt.want {
			t.Errorf("At(%d).Tolerance() = %d, want %d", tt.crawled, got, tt.want)
		}
	}
	if p.Tolerance() != 10 {
		t.Errorf("At changed the receiver: T = %d", p.Tolerance())
	}
	c := Counts{Downloaded: 5}
	late := p.At(1000)
	if p.Skip(c, false) || !late.Skip(c, false) {
		t.Errorf("5 irrelevant pages: skip early=%v late=%v, want false, true", p.Skip(c, false), late.Skip(c, false))
	}
	if v := late.Decide(true, relevant, c, false); v.Enqueue {
		t.Errorf("late policy enqueued link to a server now irrelevant: %+v", v)
	}
	noDecay := mustNew(t, Config{Tolerance: 4})
	if q := noDecay.At(1 << 30); q.Tolerance() != 4 {
		t.Errorf("no decay: T = %d", q.Tolerance())
	}
}

func BenchmarkDecide(b *testing.B) {
	p := mustNew(b, Config{})
	srcs := []Counts{unvisited, undecided, irrelevant, relevant}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s := srcs[i&3]
		_ = p.Decide(i&1 == 0, s, srcs[(i>>2)&3], false)
		i++
	}
}

// TestRecommendedDecay checks that RecommendedDecay is a valid Config.Decay
// for the default tolerance and falls to its floor of 5, not below.
func TestRecommendedDecay(t *testing.T) {
	p, err := New(Config{Decay: RecommendedDecay})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		crawled int64
		want    int
	}{{0, 10}, {24_999, 10}, {25_000, 9}, {125_000, 5}, {10_000_000, 5}} {
		q := p.At(c.crawled)
		if got := q.Tolerance(); got != c.want {
			t.Errorf("At(%d).Tolerance() = %d, want %d", c.crawled, got, c.want)
		}
	}
}
