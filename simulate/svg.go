package simulate

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
)

// series is one line of a chart.
type series struct {
	name string
	x, y []float64
}

// chart is a hand-written SVG line chart: no plotting library.
type chart struct {
	title, xlabel, ylabel string
	percent               bool // y in [0,1], labelled as percent
	logY                  bool // log10 y axis (values < 1 drawn at 1)
	series                []series
}

var palette = []string{
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
	"#393b79", "#637939", "#8c6d31", "#843c39",
}

const (
	svgW, svgH                   = 860, 480
	padL, padR, padT, padB       = 80, 250, 40, 56
	plotW, plotH                 = svgW - padL - padR, svgH - padT - padB
	maxPointsPerSeries           = 600
	legendRowHeight, legendWidth = 18, 240
)

// niceStep returns a round tick step for a range split into about n parts.
func niceStep(span float64, n int) float64 {
	if span <= 0 {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			return m * mag
		}
	}
	return 10 * mag
}

func fmtNum(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return strconv.FormatFloat(math.Round(v/1e6*1e6)/1e6, 'f', -1, 64) + "M"
	case a >= 1e3:
		return strconv.FormatFloat(math.Round(v/1e3*1e6)/1e6, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}

func (c *chart) write(w io.Writer) error {
	var b strings.Builder
	xmax, ymax, ymin := 0.0, 0.0, math.Inf(1)
	for _, s := range c.series {
		for i := range s.x {
			xmax = max(xmax, s.x[i])
			ymax = max(ymax, s.y[i])
			ymin = min(ymin, s.y[i])
		}
	}
	if xmax == 0 {
		xmax = 1
	}
	var ylo, yhi float64
	switch {
	case c.percent:
		ylo, yhi = 0, 1
		switch {
		case ymin > 0.5 && !math.IsInf(ymin, 1):
			ylo = math.Floor(ymin*10) / 10
		case ymax < 0.3:
			st := niceStep(max(ymax, 0.005), 5)
			yhi = math.Ceil(max(ymax, 0.005)/st) * st
		}
	case c.logY:
		ylo, yhi = 0, math.Ceil(math.Log10(max(ymax, 10)))
	default:
		ylo, yhi = 0, ymax
		if yhi == 0 {
			yhi = 1
		}
		st := niceStep(yhi, 5)
		yhi = math.Ceil(yhi/st) * st
	}
	xs := niceStep(xmax, 6)
	xhi := math.Ceil(xmax/xs) * xs
	px := func(x float64) float64 { return padL + x/xhi*plotW }
	py := func(y float64) float64 {
		if c.logY {
			y = math.Log10(max(y, 1))
		}
		return padT + plotH - (y-ylo)/(yhi-ylo)*plotH
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", svgW, svgH, svgW, svgH)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", padL, html.EscapeString(c.title))
	// Grid and ticks.
	for x := 0.0; x <= xhi+xs/2; x += xs {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`, px(x), padT, px(x), padT+plotH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", px(x), padT+plotH+16, fmtNum(x))
	}
	var yticks []float64
	switch {
	case c.logY:
		for e := ylo; e <= yhi; e++ {
			yticks = append(yticks, math.Pow(10, e))
		}
	default:
		st := niceStep(yhi-ylo, 5)
		for y := ylo; y <= yhi+st/2; y += st {
			yticks = append(yticks, y)
		}
	}
	for _, y := range yticks {
		label := fmtNum(y)
		if c.percent {
			label = strconv.FormatFloat(math.Round(100*y*1e6)/1e6, 'f', -1, 64) + "%"
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`, padL, py(y), padL+plotW, py(y))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", padL-6, py(y)+4, label)
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>`+"\n", padL, padT, plotW, plotH)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", padL+plotW/2, svgH-12, html.EscapeString(c.xlabel))
	fmt.Fprintf(&b, `<text transform="translate(18 %d) rotate(-90)" text-anchor="middle">%s</text>`+"\n", padT+plotH/2, html.EscapeString(c.ylabel))
	// Lines.
	for i, s := range c.series {
		col := palette[i%len(palette)]
		step := max(1, len(s.x)/maxPointsPerSeries)
		var pts strings.Builder
		for j := 0; j < len(s.x); j += step {
			fmt.Fprintf(&pts, "%.1f,%.1f ", px(s.x[j]), py(max(min(s.y[j], yhiValue(c, yhi)), 0)))
		}
		if n := len(s.x); n > 0 && (n-1)%step != 0 {
			fmt.Fprintf(&pts, "%.1f,%.1f", px(s.x[n-1]), py(max(min(s.y[n-1], yhiValue(c, yhi)), 0)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.8" points="%s"/>`+"\n", col, strings.TrimSpace(pts.String()))
		if n := len(s.x); n > 0 { // end mark, as in the paper's Figs. 5 and 6
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(s.x[n-1]), py(max(min(s.y[n-1], yhiValue(c, yhi)), 0)), col)
		}
		ly := padT + 8 + i*legendRowHeight
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>`, padL+plotW+12, ly, padL+plotW+32, ly, col)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", padL+plotW+38, ly+4, html.EscapeString(s.name))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func yhiValue(c *chart, yhi float64) float64 {
	if c.logY {
		return math.Pow(10, yhi)
	}
	return yhi
}
