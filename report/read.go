package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nlnwa/gowarc"
	"go.yaml.in/yaml/v3"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/internal/logfiles"
)

// Field is one name: value line of a warc-fields block.
type Field struct{ Name, Value string }

// ParseFields parses a warc-fields block (WARC 1.1 section 6.3): lines of
// "Name: value" ended by CRLF (a bare LF is accepted too). A line without a
// colon is skipped; folded continuation lines (starting with a space or a
// tab) are joined to the field before them with one space.
func ParseFields(block []byte) []Field {
	var out []Field
	for len(block) > 0 {
		line := block
		if i := bytes.IndexByte(block, '\n'); i >= 0 {
			line, block = block[:i], block[i+1:]
		} else {
			block = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			continue
		}
		if (line[0] == ' ' || line[0] == '\t') && len(out) > 0 {
			if more := bytes.TrimSpace(line); len(more) > 0 {
				out[len(out)-1].Value = strings.TrimSpace(out[len(out)-1].Value + " " + string(more))
			}
			continue
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		out = append(out, Field{Name: string(bytes.TrimSpace(name)), Value: string(bytes.TrimSpace(value))})
	}
	return out
}

// Outlink is one "outlink" field of a metadata record.
type Outlink struct {
	URL string `json:"url"` // absolute URL as found
	// Hop is how the link leads from the page: "L" a link, "E" an embed
	// (page requisite), "R" a redirect, "I" inferred (the server's home
	// page, which the sequential verdict asks for: tag/@attr focus/@home-probe).
	Hop string `json:"hop"`
	// Context is where it was found, "a/@href", "img/@src", "http/@Location".
	Context string `json:"context"`
	// Rejected is why the crawler did not follow it, "" when it did.
	Rejected string `json:"rejected,omitempty"`
	// Admitted names the operator's scope rules that let a followed link
	// in ("include:<rule>", "seed:<kind>:<scope>", "requisite"), and
	// "focus:recheck-section" for the link a re-check followed past its
	// server's irrelevant verdict, joined by ';'; "" when none bore on
	// it, or the link was rejected.
	Admitted string `json:"admitted,omitempty"`
	// Anchor is the link's anchor text, "" when it had none or the
	// crawl wrote no anchors (before they were added).
	Anchor string `json:"anchor,omitempty"`
	// Around is the text around a link focusing rejected
	// (links.Link.Context), "" for others and for crawls made before
	// it was written (the twenty-fifth session).
	Around string `json:"around,omitempty"`
}

// anchorMark starts the anchor text, the last part of an outlink value,
// and aroundMark the text around the link, just before it.
const (
	anchorMark = ` anchor:"`
	aroundMark = ` around:"`
)

// cutQuoted finds in rest the first mark from which the rest of the value
// unquotes (strconv.Quote), and returns the text before the mark and the
// unquoted string; ok is false when none does.
func cutQuoted(rest, mark string) (before, quoted string, ok bool) {
	for from := 0; ; {
		i := strings.Index(rest[from:], mark)
		if i < 0 {
			return rest, "", false
		}
		i += from
		if a, err := strconv.Unquote(rest[i+len(mark)-1:]); err == nil {
			return rest[:i], a, true
		}
		from = i + 1
	}
}

// ParseOutlink parses the value of an outlink field:
//
//	<absolute URL> <hop L|E|R|I> <tag>/@<attr>[ rejected:<reason>|admitted:<rules>][ around:"<text>"][ anchor:"<text>"]
//
// The reason and the rules may hold spaces. The anchor text is a Go-quoted string
// (strconv.Quote) that runs to the end of the value; a value whose tail
// does not unquote has no anchor, and the tail stays in the reason. The
// text around a rejected link is one too, just before the anchor. It
// returns false for a value without a URL and a hop.
func ParseOutlink(v string) (Outlink, bool) {
	u, rest, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || u == "" {
		return Outlink{}, false
	}
	hop, rest, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
	if hop == "" {
		return Outlink{}, false
	}
	ctx, rest, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
	o := Outlink{URL: u, Hop: hop, Context: strings.TrimSpace(ctx)}
	// The anchor comes after the context: the first anchorMark from which
	// the rest of the value unquotes; the text around, before it, the
	// same way.
	rest = " " + rest
	rest, o.Anchor, _ = cutQuoted(rest, anchorMark)
	rest, o.Around, _ = cutQuoted(rest, aroundMark)
	if r, ok := strings.CutPrefix(strings.TrimSpace(rest), "rejected:"); ok {
		o.Rejected = r
	} else if a, ok := strings.CutPrefix(strings.TrimSpace(rest), "admitted:"); ok {
		o.Admitted = a
	}
	return o, true
}

// Profile is what the report reads of OUT/profile.yaml: the keys that say
// how pages were judged and how deep trees were crawled.
type Profile struct {
	Language  string // focus.language; "" when focusing was off
	Strategy  string // focus.strategy
	Tolerance int    // focus.tolerance, T
	// DecayEvery and Floor are focus.tolerance_decay_every and
	// focus.tolerance_floor, with config's defaults: T fell by one every
	// DecayEvery HTML pages down to Floor (DecayEvery 0: it stayed).
	DecayEvery, Floor int
	Depth             int // depth limit per site tree
	// Seeds are the seed URLs profile.yaml lists, as written.
	Seeds []string
	// SeedsFile is profile.yaml's seeds_file: Build reads its seeds as it
	// is now, so that those never fetched are listed too (a README trial
	// found seeds.csv silent on three of a seeds file's four seeds).
	SeedsFile string
	Found     bool // profile.yaml was read
}

// defaultTolerance is config's default for focus.tolerance, used when the
// profile does not say.
const defaultTolerance = 10

// defaultDecayEvery and defaultFloor are config's defaults for
// focus.tolerance_decay_every and focus.tolerance_floor.
const (
	defaultDecayEvery = 25000
	defaultFloor      = 5
)

// Falls reports whether the crawl's T fell as it ran (Profile.DecayEvery).
func (p Profile) Falls() bool { return p.DecayEvery > 0 && p.Floor < p.Tolerance }

// profileLanguage reads focus.language as the crawl does: one code, or a
// set given as a list or a comma-separated string, which it writes "nb,
// nn"; "" when there is none.
func profileLanguage(n yaml.Node) string {
	raw := n.Value // a scalar; a list's items joined as one
	for _, e := range n.Content {
		if n.Kind == yaml.SequenceNode {
			raw += "," + e.Value
		}
	}
	return strings.Join(config.SplitLanguages(raw), ", ")
}

func readProfile(path string) (Profile, error) {
	p := Profile{Tolerance: defaultTolerance, DecayEvery: defaultDecayEvery, Floor: defaultFloor}
	data, err := os.ReadFile(path)
	if err != nil {
		return p, err
	}
	var y struct {
		Depth     *int        `yaml:"depth"`
		Seeds     []yaml.Node `yaml:"seeds"`
		SeedsFile string      `yaml:"seeds_file"`
		Focus     struct {
			Language  yaml.Node `yaml:"language"` // "th", "nb, nn" or [nb, nn]
			Strategy  string    `yaml:"strategy"`
			Tolerance *int      `yaml:"tolerance"`
			Every     *int      `yaml:"tolerance_decay_every"`
			Floor     *int      `yaml:"tolerance_floor"`
		} `yaml:"focus"`
	}
	if err := yaml.Unmarshal(data, &y); err != nil {
		return p, fmt.Errorf("parse %s: %w", path, err)
	}
	p.Found = true
	p.Language, p.Strategy = profileLanguage(y.Focus.Language), y.Focus.Strategy
	if y.Focus.Tolerance != nil {
		p.Tolerance = *y.Focus.Tolerance
	}
	if y.Focus.Every != nil {
		p.DecayEvery = *y.Focus.Every
	}
	if y.Focus.Floor != nil {
		p.Floor = *y.Focus.Floor
	} else {
		p.Floor = min(p.Floor, p.Tolerance) // as config: the default floor never lifts a small T
	}
	if y.Depth != nil {
		p.Depth = *y.Depth
	}
	p.SeedsFile = strings.TrimSpace(y.SeedsFile)
	for _, n := range y.Seeds {
		// A URL, or {url: URL, scope: ..., depth: N}.
		var s string
		if n.Kind == yaml.MappingNode {
			var m struct {
				URL string `yaml:"url"`
			}
			if n.Decode(&m) == nil {
				s = m.URL
			}
		} else {
			n.Decode(&s)
		}
		if s = strings.TrimSpace(s); s != "" {
			p.Seeds = append(p.Seeds, s)
		}
	}
	return p, nil
}

// maxMetadataBlock bounds the metadata block read into memory; a page with
// more outlinks than fit is counted with the ones that do.
const maxMetadataBlock = 64 << 20

// metaRecord is one metadata record: its target URI, date and fields.
type metaRecord struct {
	URI    string
	Date   time.Time
	Fields []Field
	// Generation is the crawl generation of the record's file, from the
	// "generation" field of the warcinfo record that opens it; 0 for a
	// file that does not say (one written before the field existed).
	Generation int64
}

// has reports whether the record has a field named name.
func (m metaRecord) has(name string) bool {
	for _, f := range m.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

// fileGeneration is the crawl generation the warcinfo record opening the
// WARC file at path names, 0 when it names none or cannot be read (readWARC
// then says what is wrong with the file).
func fileGeneration(path string) int64 {
	rd, err := archive.NewReader(path, false)
	if err != nil {
		return 0
	}
	defer rd.Close()
	wr, _, _, err := archive.Next(rd, 0)
	if err != nil || wr == nil || wr.Type() != gowarc.Warcinfo {
		return 0
	}
	raw, err := wr.Block().RawBytes()
	if err != nil {
		return 0
	}
	block, err := io.ReadAll(io.LimitReader(raw, maxMetadataBlock))
	if err != nil {
		return 0
	}
	return warcinfoGeneration(block)
}

// warcinfoGeneration is the "generation" field of a warcinfo block, 0 when
// it has none.
func warcinfoGeneration(block []byte) int64 {
	for _, f := range ParseFields(block) {
		if n, err := strconv.ParseInt(f.Value, 10, 64); f.Name == "generation" && err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// readWARC streams the metadata records of one WARC file to visit, each
// with the generation its file's warcinfo record names, reading no other
// record's block. It stops at the first record it cannot read and
// returns the error with the offset; for a file being written, or left by a
// crash (.open), that is the cut record at its tail.
func readWARC(path string, visit func(metaRecord)) (records int, err error) {
	rd, err := archive.NewReader(path, false)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", path, err)
	}
	defer rd.Close()
	var last int64
	var gen int64 // the file's, from its warcinfo record
	for {
		wr, off, _, err := archive.Next(rd, last)
		last = off
		if errors.Is(err, io.EOF) && wr == nil {
			return records, nil
		}
		if err != nil {
			return records, fmt.Errorf("%s at offset %d: %w", path, off, err)
		}
		records++
		if t := wr.Type(); t != gowarc.Metadata && t != gowarc.Warcinfo {
			continue
		}
		h := wr.WarcHeader()
		raw, err := wr.Block().RawBytes()
		if err != nil {
			return records, fmt.Errorf("%s at offset %d: %w", path, off, err)
		}
		block, err := io.ReadAll(io.LimitReader(raw, maxMetadataBlock))
		if err != nil {
			return records, fmt.Errorf("%s at offset %d: %w", path, off, err)
		}
		if wr.Type() == gowarc.Warcinfo {
			gen = warcinfoGeneration(block)
			continue
		}
		date, _ := time.Parse(time.RFC3339Nano, h.Get(gowarc.WarcDate))
		visit(metaRecord{URI: h.Get(gowarc.WarcTargetURI), Date: date, Fields: ParseFields(block), Generation: gen})
	}
}

// LogLine is one line of crawl.log, in Heritrix's column order: time,
// status, size, URL, hop path, via, MIME type, worker, fetch start and
// duration, payload digest, source, annotations.
type LogLine struct {
	Time        time.Time
	Status      int
	Size        int64
	URL         string
	Hops, Via   string
	MIME        string
	Annotations []string
}

// ParseLogLine parses one crawl.log line. Columns hold "-" when empty.
// Annotations are split on commas; a piece that does not start like an
// annotation (a lowercase word) is part of the one before it, so an error
// text with commas stays whole.
func ParseLogLine(line string) (LogLine, error) {
	f := strings.Fields(line)
	if len(f) < 10 {
		return LogLine{}, fmt.Errorf("%w: %d columns", ErrLogLine, len(f))
	}
	var l LogLine
	var err error
	if l.Time, err = time.Parse(time.RFC3339Nano, f[0]); err != nil {
		return LogLine{}, fmt.Errorf("%w: time %q", ErrLogLine, f[0])
	}
	if l.Status, err = strconv.Atoi(f[1]); err != nil {
		return LogLine{}, fmt.Errorf("%w: status %q", ErrLogLine, f[1])
	}
	if f[2] != "-" {
		if l.Size, err = strconv.ParseInt(f[2], 10, 64); err != nil {
			return LogLine{}, fmt.Errorf("%w: size %q", ErrLogLine, f[2])
		}
	}
	undash := func(s string) string {
		if s == "-" {
			return ""
		}
		return s
	}
	l.URL, l.Hops, l.Via, l.MIME = f[3], undash(f[4]), undash(f[5]), undash(f[6])
	if len(f) > 11 {
		for _, a := range strings.Split(strings.Join(f[11:], " "), ",") {
			if n := len(l.Annotations); n > 0 && !startsAnnotation(a) {
				l.Annotations[n-1] += "," + a
				continue
			}
			if a != "" && a != "-" {
				l.Annotations = append(l.Annotations, a)
			}
		}
	}
	return l, nil
}

func startsAnnotation(s string) bool {
	return s != "" && s[0] >= 'a' && s[0] <= 'z'
}

// readLog calls visit for each line of crawl.log it can parse and returns
// how many it could not.
func readLog(path string, visit func(LogLine)) (bad int, err error) {
	f, err := logfiles.Open(path) // a rotated segment may be compressed
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		l, err := ParseLogLine(sc.Text())
		if err != nil {
			bad++
			continue
		}
		visit(l)
	}
	if err := sc.Err(); err != nil {
		return bad, fmt.Errorf("read %s: %w", path, err)
	}
	return bad, nil
}
