package plot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// svgText is one <text> element with where it starts and its size.
type svgText struct {
	s           string
	x, y, size  float64
	anchor      string
	transformed bool
}

// svgTexts reads the viewBox and every text element of an SVG.
func svgTexts(t *testing.T, data []byte) (vbW, vbH float64, texts []svgText) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var cur *svgText
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return vbW, vbH, texts
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch el.Name.Local {
			case "svg":
				f := strings.Fields(attr["viewBox"])
				if len(f) != 4 || f[0] != "0" || f[1] != "0" {
					t.Fatalf("viewBox %q", attr["viewBox"])
				}
				vbW, _ = strconv.ParseFloat(f[2], 64)
				vbH, _ = strconv.ParseFloat(f[3], 64)
			case "text":
				cur = &svgText{size: fontSize, anchor: attr["text-anchor"], transformed: attr["transform"] != ""}
				cur.x, _ = strconv.ParseFloat(attr["x"], 64)
				cur.y, _ = strconv.ParseFloat(attr["y"], 64)
				if v, ok := attr["font-size"]; ok {
					cur.size, _ = strconv.ParseFloat(v, 64)
				}
			}
		case xml.CharData:
			if cur != nil {
				cur.s += string(el)
			}
		case xml.EndElement:
			if el.Name.Local == "text" && cur != nil {
				texts = append(texts, *cur)
				cur = nil
			}
		}
	}
}

// extent is the horizontal span of a text, by its anchor.
func (x svgText) extent() (lo, hi float64) {
	w := textWidth(x.s, x.size)
	switch x.anchor {
	case "end":
		return x.x - w, x.x
	case "middle":
		return x.x - w/2, x.x + w/2
	}
	return x.x, x.x + w
}

// TestLegendInsideViewBox draws charts whose legends were cut off (the
// simulator's longest strategy names, many series, CJK and Thai names, a
// long title, a small canvas) and checks that every text lies inside the
// viewBox.
func TestLegendInsideViewBox(t *testing.T) {
	names := []string{"bfs", "hard-focused", "soft-focused", "aggressive-server T=10", "conservative-server T=10",
		"conservative-directory T=10", "perfect", "conservative-server T=10 +decay/362"}
	series := func(names ...string) []Series {
		var out []Series
		for i, n := range names {
			out = append(out, Series{Name: n, X: []float64{0, 1000, 40000}, Y: []float64{0, float64(i) / 10, 1}})
		}
		return out
	}
	var many []string
	for i := range 20 {
		many = append(many, fmt.Sprintf("strategy number %d with a long name", i))
	}
	for _, tc := range []struct {
		name  string
		chart Chart
	}{
		{"simulator strategies", Chart{Title: "Coverage of target pages (Tamura Fig. 5)", Percent: true, Series: series(names...)}},
		{"twenty series", Chart{Title: "many", Series: series(many...)}},
		{"wide scripts", Chart{Title: "scripts", Series: series("ภาษาไทย ภาษาไทย ภาษาไทย ภาษาไทย", "中文网页中文网页中文网页中文网页中文网页")}},
		{"small canvas", Chart{Width: 300, Height: 150, Title: "External-URL capture rate against load (Nakahira Fig. 3)",
			Series: series(names[7])}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tc.chart.WriteSVG(&buf); err != nil {
				t.Fatal(err)
			}
			vbW, vbH, texts := svgTexts(t, buf.Bytes())
			legend := 0
			for _, x := range texts {
				if x.transformed {
					continue // the rotated y label, placed by its translate
				}
				lo, hi := x.extent()
				if lo < 0 || hi > vbW || x.y > vbH || x.y-x.size < 0 {
					t.Errorf("text %q spans x %.0f-%.0f at y %.0f, outside the viewBox %.0fx%.0f", x.s, lo, hi, x.y, vbW, vbH)
				}
				for _, s := range tc.chart.Series {
					if x.s == s.Name {
						legend++
					}
				}
			}
			if legend != len(tc.chart.Series) {
				t.Errorf("%d legend entries for %d series", legend, len(tc.chart.Series))
			}
		})
	}
}

func TestIntTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{0, 8, 6, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{0, 3, 5, []float64{0, 1, 2, 3}},
		{0, 1, 5, []float64{0, 1}},
		{0, 0.4, 5, []float64{0, 1}},
		{0, 13, 5, []float64{0, 5, 10, 15}},
		{0, 37, 5, []float64{0, 10, 20, 30, 40}},
		{0, 12, 5, []float64{0, 2, 4, 6, 8, 10, 12}}, // NiceStep's 2.5 becomes 2
		{0, 420, 6, []float64{0, 100, 200, 300, 400, 500}},
	} {
		if got := IntTicks(tc.lo, tc.hi, tc.n); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("IntTicks(%v, %v, %d) = %v, want %v", tc.lo, tc.hi, tc.n, got, tc.want)
		}
	}
}

// TestIntegerAxes: a chart of counts has no fractional tick, where the
// same chart without XInteger and YInteger has.
func TestIntegerAxes(t *testing.T) {
	c := Chart{Series: []Series{{Name: "site trees", Markers: true, X: []float64{0, 1, 2, 3}, Y: []float64{2, 0, 1, 1}}}}
	fractional := func(c Chart) []string {
		var buf bytes.Buffer
		if err := c.WriteSVG(&buf); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range parseSVG(t, buf.Bytes()).texts {
			if _, err := strconv.Atoi(s); err != nil {
				if _, err := strconv.ParseFloat(s, 64); err == nil {
					out = append(out, s)
				}
			}
		}
		return out
	}
	if f := fractional(c); len(f) == 0 {
		t.Fatal("the plain chart has no fractional tick: the test shows nothing")
	}
	c.XInteger, c.YInteger = true, true
	if f := fractional(c); len(f) > 0 {
		t.Errorf("fractional ticks %q on integer axes", f)
	}
}

// TestLabelsDoNotOverlap draws a cluster of labelled points, as the
// depth-limit chart has near 100%, and checks that the labels drawn lie
// inside the plot area and overlap none other.
func TestLabelsDoNotOverlap(t *testing.T) {
	s := Series{Name: "depth limit", Markers: true}
	for d := range 12 {
		s.X = append(s.X, 0.4+0.6*float64(d)/float64(d+1))
		s.Y = append(s.Y, 0.6+0.4*float64(d)/float64(d+1))
		s.Labels = append(s.Labels, "L="+strconv.Itoa(d))
	}
	c := Chart{XPercent: true, Percent: true, Series: []Series{s, {Name: "again", X: s.X, Y: s.Y, Labels: s.Labels}}}
	var buf bytes.Buffer
	if err := c.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	l := c.layout()
	area := rect{padL, padT, padL + l.plotW, padT + l.plotH}
	_, _, texts := svgTexts(t, buf.Bytes())
	var boxes []rect
	for _, x := range texts {
		if !strings.HasPrefix(x.s, "L=") {
			continue
		}
		lo, hi := x.extent()
		b := rect{lo, x.y - x.size, hi, x.y}
		if !b.inside(area) {
			t.Errorf("label %q at %+v outside the plot area %+v", x.s, b, area)
		}
		for _, o := range boxes {
			if b.overlaps(o) {
				t.Errorf("label %q at %+v overlaps one at %+v", x.s, b, o)
			}
		}
		boxes = append(boxes, b)
	}
	if len(boxes) < 3 {
		t.Errorf("%d labels drawn; the first ones have room", len(boxes))
	}
}
