package plot

import (
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// ErrSeries is returned by WriteSVG for a series that cannot be drawn: X and
// Y or Labels of different lengths, or a value that is NaN or infinite.
var ErrSeries = errors.New("plot: bad series")

// Defaults of a Chart.
const (
	DefaultWidth     = 860 // canvas width in pixels
	DefaultHeight    = 480 // canvas height in pixels
	DefaultMaxPoints = 600 // points drawn per series
)

// Series is one line of a chart: the points (X[i], Y[i]) in the order given.
type Series struct {
	Name string
	X, Y []float64
	// Labels, when not nil, holds one text per point, drawn beside it
	// ("" draws none). Labelled points survive downsampling. A label that
	// would overlap a label already drawn (of any series) is left out, so
	// a cluster of points shows its first label only; a label is kept
	// inside the plot area, moved left of or below its point if need be.
	Labels []string
	// Markers draws a dot on every point drawn.
	Markers bool
}

// Chart is an SVG line chart. The zero Chart draws an empty frame; the
// fields below say what a zero value means.
type Chart struct {
	Title, XLabel, YLabel string
	// Percent: y values are fractions in [0, 1], labelled as percent.
	Percent bool
	// XPercent: x values are fractions in [0, 1], labelled as percent; the
	// x axis spans 0% to 100%.
	XPercent bool
	// LogY: base-10 y axis; values below 1 are drawn at 1. Ignored when
	// Percent is set.
	LogY bool
	// XInteger and YInteger: the values are counts (depth levels,
	// servers), so ticks fall on whole numbers only.
	XInteger, YInteger bool
	// Width and Height of the canvas; 0 means DefaultWidth, DefaultHeight.
	// The canvas grows, never shrinks, to hold the title, the legend and
	// a plot area of at least minPlotW by minPlotH pixels.
	Width, Height int
	// MaxPoints drawn per series; 0 means DefaultMaxPoints. Longer series
	// keep every k-th point, the last point and every labelled point.
	MaxPoints int
	Series    []Series
}

var palette = []string{
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
	"#393b79", "#637939", "#8c6d31", "#843c39",
}

// Margins around the plot area; the right one, padR, holds the legend and
// is as wide as its longest name needs (layout).
const (
	padL, padT, padB = 80, 40, 56
	legendRow        = 18
	legendGap        = 12 // between the plot area and the legend's line
	legendText       = 26 // from the legend's line to its text
	minPadR          = 24 // right margin with no legend
	minPlotW         = 360
	minPlotH         = 200
	fontSize         = 12
	titleSize        = 15
	labelSize        = 10
)

// textWidth estimates the width in pixels of s drawn at size in a sans-serif
// font: wide East Asian characters take a full em, the rest 0.62 of one
// (DejaVu Sans averages 0.55-0.6 on mixed text; capitals and digits are
// wider). It errs on the wide side, so a legend fits.
func textWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana) || r >= 0xFF00 && r <= 0xFFEF:
			w += size
		case unicode.In(r, unicode.Mn, unicode.Me):
			// combining marks (Thai vowels and tones) take no width
		default:
			w += 0.62 * size
		}
	}
	return w
}

// layout is where the parts of a chart go.
type layout struct {
	width, height int     // canvas
	padR          int     // right margin, legend included
	plotW, plotH  float64 // plot area
}

// layout sizes the canvas and the right margin so the legend and the title
// fit: the canvas keeps its Width and Height unless they are too small.
func (c *Chart) layout() layout {
	l := layout{width: c.Width, height: c.Height, padR: minPadR}
	if l.width <= 0 {
		l.width = DefaultWidth
	}
	if l.height <= 0 {
		l.height = DefaultHeight
	}
	longest := 0.0
	for _, s := range c.Series {
		longest = max(longest, textWidth(s.Name, fontSize))
	}
	if len(c.Series) > 0 {
		l.padR = legendGap + legendText + int(math.Ceil(longest)) + 12
	}
	l.width = max(l.width, padL+minPlotW+l.padR, padL+int(math.Ceil(textWidth(c.Title, titleSize)))+12)
	// The legend's rows run down from the top of the plot area.
	l.height = max(l.height, padT+minPlotH+padB, padT+8+len(c.Series)*legendRow+padB)
	l.plotW, l.plotH = float64(l.width-padL-l.padR), float64(l.height-padT-padB)
	return l
}

// NiceStep returns a round step (1, 2, 2.5 or 5 times a power of ten) that
// splits span into about n parts. It returns 1 for a span that is not
// positive and finite or an n below 1.
func NiceStep(span float64, n int) float64 {
	if !(span > 0) || math.IsInf(span, 0) || n < 1 {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// Ticks returns the ticks of an axis from lo to at least hi in about n nice
// steps: lo, lo+s, ..., up to the first tick at or above hi. Tick values are
// rounded to the step's precision, so 0.1+0.2 comes out as 0.3.
func Ticks(lo, hi float64, n int) []float64 {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	if hi <= lo {
		return []float64{lo}
	}
	st := NiceStep(hi-lo, n)
	var out []float64
	for i := 0; ; i++ {
		v := roundTo(lo+float64(i)*st, st)
		out = append(out, v)
		if v >= hi-st*1e-9 || i > 1000 {
			return out
		}
	}
}

// IntTicks is Ticks for an axis of counts: the step is a whole number (1,
// 2, 5 or 10 times a power of ten, 25 and up), and an axis that spans no
// more than 2n gets a tick at every whole number.
func IntTicks(lo, hi float64, n int) []float64 {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	if hi <= lo {
		hi = lo + 1
	}
	st := 1.0
	if hi-lo > float64(2*max(n, 1)) {
		st = NiceStep(hi-lo, n)
		if st < 10 && st != math.Trunc(st) {
			st = math.Floor(st) // 2.5 becomes 2
		}
	}
	var out []float64
	for i := 0; ; i++ {
		v := lo + float64(i)*st
		out = append(out, v)
		if v >= hi || i > 1000 {
			return out
		}
	}
}

// roundTo rounds v to a few digits below step, dropping float noise.
func roundTo(v, step float64) float64 {
	p := math.Pow(10, 3-math.Floor(math.Log10(step)))
	return math.Round(v*p) / p
}

// FormatNumber writes v compactly for an axis: 1500 as "1.5k", 2e6 as "2M",
// 0.25 as "0.25".
func FormatNumber(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return strconv.FormatFloat(math.Round(v/1e6*1e6)/1e6, 'f', -1, 64) + "M"
	case a >= 1e3:
		return strconv.FormatFloat(math.Round(v/1e3*1e6)/1e6, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}

func formatPercent(v float64) string {
	return strconv.FormatFloat(math.Round(100*v*1e6)/1e6, 'f', -1, 64) + "%"
}

// axis maps data values to pixels.
type axis struct {
	lo, hi float64
	ticks  []float64
	log    bool
}

func (a axis) frac(v float64) float64 {
	if a.log {
		v = math.Log10(max(v, 1))
	}
	return (v - a.lo) / (a.hi - a.lo)
}

func (c *Chart) check() error {
	for i, s := range c.Series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("%w: series %d (%q): %d x values, %d y values", ErrSeries, i, s.Name, len(s.X), len(s.Y))
		}
		if s.Labels != nil && len(s.Labels) != len(s.X) {
			return fmt.Errorf("%w: series %d (%q): %d labels for %d points", ErrSeries, i, s.Name, len(s.Labels), len(s.X))
		}
		for j := range s.X {
			if !finite(s.X[j]) || !finite(s.Y[j]) {
				return fmt.Errorf("%w: series %d (%q): point %d is (%v, %v)", ErrSeries, i, s.Name, j, s.X[j], s.Y[j])
			}
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// axes computes the x and y axes from the data.
func (c *Chart) axes() (x, y axis) {
	xmin, xmax, ymin, ymax := 0.0, 0.0, math.Inf(1), 0.0
	for _, s := range c.Series {
		for i := range s.X {
			xmin, xmax = min(xmin, s.X[i]), max(xmax, s.X[i])
			ymin, ymax = min(ymin, s.Y[i]), max(ymax, s.Y[i])
		}
	}
	if c.XPercent {
		x.ticks = Ticks(0, 1, 5)
	} else {
		if xmax <= xmin {
			xmax = xmin + 1
		}
		if c.XInteger {
			x.ticks = IntTicks(xmin, xmax, 6)
		} else {
			x.ticks = Ticks(xmin, xmax, 6)
		}
	}
	x.lo, x.hi = x.ticks[0], x.ticks[len(x.ticks)-1]

	switch {
	case c.Percent:
		lo, hi := 0.0, 1.0
		switch {
		case ymin > 0.5 && !math.IsInf(ymin, 1):
			lo = math.Floor(ymin*10) / 10
		case ymax < 0.3:
			hi = max(ymax, 0.005)
		}
		y.ticks = Ticks(lo, hi, 5)
	case c.LogY:
		y.log = true
		top := math.Ceil(math.Log10(max(ymax, 10)))
		for e := 0.0; e <= top; e++ {
			y.ticks = append(y.ticks, math.Pow(10, e))
		}
		y.lo, y.hi = 0, top
		return x, y
	default:
		lo := min(0, ymin)
		hi := ymax
		if hi <= lo {
			hi = lo + 1
		}
		if c.YInteger {
			y.ticks = IntTicks(lo, hi, 5)
		} else {
			y.ticks = Ticks(lo, hi, 5)
		}
	}
	y.lo, y.hi = y.ticks[0], y.ticks[len(y.ticks)-1]
	return x, y
}

// keep returns the indexes of the points of s to draw.
func keep(s Series, limit int) []int {
	n := len(s.X)
	step := 1
	if n > limit {
		step = (n + limit - 1) / limit
	}
	idx := make([]int, 0, min(n, limit+1))
	for i := 0; i < n; i++ {
		if i%step == 0 || i == n-1 || (s.Labels != nil && s.Labels[i] != "") {
			idx = append(idx, i)
		}
	}
	return idx
}

// WriteSVG draws the chart as an SVG document on w. It returns ErrSeries,
// wrapped, for a series it cannot draw, and any error from w.
func (c *Chart) WriteSVG(w io.Writer) error {
	if err := c.check(); err != nil {
		return err
	}
	lay := c.layout()
	width, height, plotW, plotH := lay.width, lay.height, lay.plotW, lay.plotH
	limit := c.MaxPoints
	if limit <= 0 {
		limit = DefaultMaxPoints
	}
	xa, ya := c.axes()
	px := func(v float64) float64 { return padL + clamp(xa.frac(v))*plotW }
	py := func(v float64) float64 { return padT + plotH - clamp(ya.frac(v))*plotH }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", padL, esc(c.Title))
	for _, t := range xa.ticks {
		label := FormatNumber(t)
		if c.XPercent {
			label = formatPercent(t)
		}
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, px(t), padT, px(t), padT+plotH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", px(t), padT+plotH+16, label)
	}
	for _, t := range ya.ticks {
		label := FormatNumber(t)
		if c.Percent {
			label = formatPercent(t)
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, padL, py(t), padL+plotW, py(t))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", padL-6, py(t)+4, label)
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#333"/>`+"\n", padL, padT, plotW, plotH)
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", padL+plotW/2, height-12, esc(c.XLabel))
	fmt.Fprintf(&b, `<text transform="translate(18 %.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", padT+plotH/2, esc(c.YLabel))

	plotArea := rect{padL, padT, padL + plotW, padT + plotH}
	var placed []rect // point labels drawn so far
	for i, s := range c.Series {
		col := palette[i%len(palette)]
		idx := keep(s, limit)
		var pts strings.Builder
		for k, j := range idx {
			if k > 0 {
				pts.WriteByte(' ')
			}
			fmt.Fprintf(&pts, "%.1f,%.1f", px(s.X[j]), py(s.Y[j]))
		}
		if len(idx) > 0 {
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.8" points="%s"/>`+"\n", col, pts.String())
		}
		for k, j := range idx {
			// A dot on every point with Markers, else on the last one.
			if s.Markers || k == len(idx)-1 {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(s.X[j]), py(s.Y[j]), col)
			}
			if s.Labels != nil && s.Labels[j] != "" {
				if r, ok := placeLabel(s.Labels[j], px(s.X[j]), py(s.Y[j]), plotArea, placed); ok {
					placed = append(placed, r)
					fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="%d" fill="%s">%s</text>`+"\n", r.x0, r.y1-2, labelSize, col, esc(s.Labels[j]))
				}
			}
		}
		ly := padT + 8 + i*legendRow
		lx := padL + int(plotW) + legendGap
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>`, lx, ly, lx+20, ly, col)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", lx+legendText, ly+4, esc(s.Name))
	}
	b.WriteString("</svg>\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("plot: write svg: %w", err)
	}
	return nil
}

// rect is a box in pixels: x0 <= x1, y0 <= y1 (y grows downward).
type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) overlaps(o rect) bool {
	return r.x0 < o.x1 && o.x0 < r.x1 && r.y0 < o.y1 && o.y0 < r.y1
}

func (r rect) inside(o rect) bool {
	return r.x0 >= o.x0 && r.x1 <= o.x1 && r.y0 >= o.y0 && r.y1 <= o.y1
}

// placeLabel finds where the label of the point (x, y) goes: above right of
// it, else above left, below right, below left, the first that lies inside
// area and overlaps no box of placed. It returns false when none does.
func placeLabel(label string, x, y float64, area rect, placed []rect) (rect, bool) {
	w, h := textWidth(label, labelSize), float64(labelSize)+2
	for _, r := range []rect{
		{x + 5, y - 5 - h, x + 5 + w, y - 5},
		{x - 5 - w, y - 5 - h, x - 5, y - 5},
		{x + 5, y + 5, x + 5 + w, y + 5 + h},
		{x - 5 - w, y + 5, x - 5, y + 5 + h},
	} {
		if !r.inside(area) {
			continue
		}
		free := true
		for _, p := range placed {
			if r.overlaps(p) {
				free = false
				break
			}
		}
		if free {
			return r, true
		}
	}
	return rect{}, false
}

func clamp(f float64) float64 { return min(max(f, 0), 1) }

// esc escapes text for XML; html.EscapeString's entities (&lt; &gt; &amp;
// &#39; &#34;) are all valid XML. Bytes that XML forbids are dropped.
func esc(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r != 0xFFFE && r != 0xFFFF) {
			return r
		}
		return -1
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return html.EscapeString(s)
}
