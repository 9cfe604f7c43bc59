package plot

import (
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
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
	// ("" draws none). Labelled points survive downsampling. A label whose
	// point lies within 14 pixels of the last label drawn is left out, so
	// a cluster of points shows its first label only.
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
	// Width and Height of the canvas; 0 means DefaultWidth, DefaultHeight.
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

// Margins around the plot area; the right one holds the legend.
const (
	padL, padR, padT, padB = 80, 250, 40, 56
	legendRow              = 18
	labelGap               = 14 // pixels between the points of two labels
)

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
		x.ticks = Ticks(xmin, xmax, 6)
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
		y.ticks = Ticks(lo, hi, 5)
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
	width, height := c.Width, c.Height
	if width <= 0 {
		width = DefaultWidth
	}
	if height <= 0 {
		height = DefaultHeight
	}
	limit := c.MaxPoints
	if limit <= 0 {
		limit = DefaultMaxPoints
	}
	plotW, plotH := float64(max(width-padL-padR, 50)), float64(max(height-padT-padB, 50))
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
		lastLX, lastLY := math.Inf(-1), math.Inf(-1) // where the last label went
		for k, j := range idx {
			// A dot on every point with Markers, else on the last one.
			if s.Markers || k == len(idx)-1 {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(s.X[j]), py(s.Y[j]), col)
			}
			if s.Labels != nil && s.Labels[j] != "" && math.Hypot(px(s.X[j])-lastLX, py(s.Y[j])-lastLY) >= labelGap {
				lastLX, lastLY = px(s.X[j]), py(s.Y[j])
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="10" fill="%s">%s</text>`+"\n", px(s.X[j])+5, py(s.Y[j])-5, col, esc(s.Labels[j]))
			}
		}
		ly := padT + 8 + i*legendRow
		lx := padL + int(plotW)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>`, lx+12, ly, lx+32, ly, col)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", lx+38, ly+4, esc(s.Name))
	}
	b.WriteString("</svg>\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("plot: write svg: %w", err)
	}
	return nil
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
