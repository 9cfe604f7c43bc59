package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestNiceStep(t *testing.T) {
	for _, tc := range []struct {
		span float64
		n    int
		want float64
	}{
		{10, 5, 2},
		{1, 5, 0.2},
		{100, 4, 25},
		{7, 6, 2},
		{12, 6, 2},
		{1000, 6, 200},
		{0.03, 5, 0.01},
		{3, 6, 0.5},
		{0, 5, 1},
		{-4, 5, 1},
		{math.Inf(1), 5, 1},
		{10, 0, 1},
	} {
		if got := NiceStep(tc.span, tc.n); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("NiceStep(%v, %d) = %v, want %v", tc.span, tc.n, got, tc.want)
		}
	}
}

func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{0, 1, 5, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{0, 9, 6, []float64{0, 2, 4, 6, 8, 10}},
		{0, 97, 5, []float64{0, 20, 40, 60, 80, 100}},
		{0.5, 1, 5, []float64{0.5, 0.6, 0.7, 0.8, 0.9, 1}},
		{0, 0.3, 3, []float64{0, 0.1, 0.2, 0.3}},
		{0, 12345, 5, []float64{0, 2500, 5000, 7500, 10000, 12500}},
		{3, 3, 5, []float64{3}},
		{0, math.NaN(), 5, nil},
	} {
		if got := Ticks(tc.lo, tc.hi, tc.n); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Ticks(%v, %v, %d) = %v, want %v", tc.lo, tc.hi, tc.n, got, tc.want)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 0.25: "0.25", 1500: "1.5k", 2e6: "2M", 999: "999", -3000: "-3k"} {
		if got := FormatNumber(v); got != want {
			t.Errorf("FormatNumber(%v) = %q, want %q", v, got, want)
		}
	}
}

// svgDoc is what the tests read back from an SVG.
type svgDoc struct {
	texts     []string
	polylines []string
	circles   int
}

// parseSVG checks that data is well-formed XML with an svg root and
// collects its texts, polylines and circles.
func parseSVG(t *testing.T, data []byte) svgDoc {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var doc svgDoc
	var inText bool
	var text strings.Builder
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, data)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = el.Name.Local
				if el.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("root namespace %q", el.Name.Space)
				}
			}
			switch el.Name.Local {
			case "text":
				inText = true
				text.Reset()
			case "polyline":
				for _, a := range el.Attr {
					if a.Name.Local == "points" {
						doc.polylines = append(doc.polylines, a.Value)
					}
				}
			case "circle":
				doc.circles++
			}
		case xml.CharData:
			if inText {
				text.Write(el)
			}
		case xml.EndElement:
			if el.Name.Local == "text" {
				inText = false
				doc.texts = append(doc.texts, text.String())
			}
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return doc
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestWriteSVG(t *testing.T) {
	for _, tc := range []struct {
		name      string
		chart     Chart
		wantTexts []string // must appear as texts
		notTexts  []string // must not
		lines     int
		circles   int
	}{
		{
			name: "plain with escaping",
			chart: Chart{Title: `a <b> & "c"`, XLabel: "pages", YLabel: "count",
				Series: []Series{{Name: "x<y", X: []float64{0, 1, 2, 3}, Y: []float64{0, 10, 20, 37}}}},
			wantTexts: []string{`a <b> & "c"`, "x<y", "0", "10", "40", "pages", "count"},
			notTexts:  []string{"50"},
			lines:     1, circles: 1,
		},
		{
			name: "percent axis",
			chart: Chart{Percent: true, Series: []Series{
				{Name: "a", X: []float64{1, 2}, Y: []float64{0.1, 0.9}},
				{Name: "b", X: []float64{1, 2}, Y: []float64{0.2, 0.3}}}},
			wantTexts: []string{"0%", "20%", "100%", "a", "b"},
			lines:     2, circles: 2,
		},
		{
			name:      "percent axis zoomed on high values",
			chart:     Chart{Percent: true, Series: []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{0.72, 0.95}}}},
			wantTexts: []string{"70%", "100%"},
			notTexts:  []string{"0%", "60%"},
			lines:     1, circles: 1,
		},
		{
			name:      "percent axis zoomed on low values",
			chart:     Chart{Percent: true, Series: []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{0.01, 0.04}}}},
			wantTexts: []string{"0%", "4%"},
			notTexts:  []string{"100%"},
			lines:     1, circles: 1,
		},
		{
			name:      "log axis",
			chart:     Chart{LogY: true, Series: []Series{{Name: "q", X: []float64{1, 2, 3}, Y: []float64{0, 50, 4000}}}},
			wantTexts: []string{"1", "10", "100", "1k", "10k"},
			notTexts:  []string{"100k"},
			lines:     1, circles: 1,
		},
		{
			name: "x percent with labelled markers",
			chart: Chart{XPercent: true, Percent: true, Series: []Series{{Name: "capture", Markers: true,
				X: []float64{0.2, 0.6, 1}, Y: []float64{0.5, 0.95, 1}, Labels: []string{"depth 0", "", "depth 2"}}}},
			wantTexts: []string{"depth 0", "depth 2", "0%", "40%", "100%"},
			lines:     1, circles: 3,
		},
		{
			name:      "empty",
			chart:     Chart{Title: "nothing"},
			wantTexts: []string{"nothing", "0", "1"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tc.chart.WriteSVG(&buf); err != nil {
				t.Fatal(err)
			}
			doc := parseSVG(t, buf.Bytes())
			for _, s := range tc.wantTexts {
				if !contains(doc.texts, s) {
					t.Errorf("no text %q in %q", s, doc.texts)
				}
			}
			for _, s := range tc.notTexts {
				if contains(doc.texts, s) {
					t.Errorf("unexpected text %q in %q", s, doc.texts)
				}
			}
			if len(doc.polylines) != tc.lines {
				t.Errorf("%d polylines, want %d", len(doc.polylines), tc.lines)
			}
			if doc.circles != tc.circles {
				t.Errorf("%d circles, want %d", doc.circles, tc.circles)
			}
		})
	}
}

// Points must land inside the plot area, the y axis growing upward.
func TestWriteSVGGeometry(t *testing.T) {
	c := Chart{Series: []Series{{Name: "s", X: []float64{0, 10}, Y: []float64{0, 10}}}}
	var buf bytes.Buffer
	if err := c.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	doc := parseSVG(t, buf.Bytes())
	l := c.layout()
	plotW, plotH := l.plotW, l.plotH
	want := []string{fmtPt(padL, padT+plotH), fmtPt(padL+plotW, padT)}
	if got := strings.Fields(doc.polylines[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("points %v, want %v", got, want)
	}
}

func fmtPt(x, y float64) string { return fmt.Sprintf("%.1f,%.1f", x, y) }

func TestDownsample(t *testing.T) {
	const n = 10_000
	s := Series{Name: "long", X: make([]float64, n), Y: make([]float64, n), Labels: make([]string, n)}
	for i := range s.X {
		s.X[i], s.Y[i] = float64(i), float64(i%7)
	}
	s.Labels[4321] = "kept"
	c := Chart{MaxPoints: 100, Series: []Series{s}}
	var buf bytes.Buffer
	if err := c.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	doc := parseSVG(t, buf.Bytes())
	pts := strings.Fields(doc.polylines[0])
	if len(pts) < 100 || len(pts) > 102 {
		t.Errorf("%d points drawn, want about 100", len(pts))
	}
	last := pts[len(pts)-1]
	// The x axis ends at the tick 10000, above the last x, 9999.
	if wantX := fmt.Sprintf("%.1f,", padL+c.layout().plotW*(n-1)/10000); !strings.HasPrefix(last, wantX) {
		t.Errorf("last point %s is not the series' last", last)
	}
	if !contains(doc.texts, "kept") {
		t.Error("labelled point dropped by downsampling")
	}
}

func TestWriteSVGErrors(t *testing.T) {
	for name, s := range map[string]Series{
		"lengths": {X: []float64{1, 2}, Y: []float64{1}},
		"labels":  {X: []float64{1, 2}, Y: []float64{1, 2}, Labels: []string{"a"}},
		"nan":     {X: []float64{1, math.NaN()}, Y: []float64{1, 2}},
		"inf":     {X: []float64{1, 2}, Y: []float64{1, math.Inf(-1)}},
	} {
		c := Chart{Series: []Series{s}}
		if err := c.WriteSVG(io.Discard); !errors.Is(err, ErrSeries) {
			t.Errorf("%s: error %v, want ErrSeries", name, err)
		}
	}
	c := Chart{Series: []Series{{X: []float64{1}, Y: []float64{1}}}}
	if err := c.WriteSVG(failWriter{}); err == nil || !strings.Contains(err.Error(), "plot: write svg") {
		t.Errorf("write error not reported: %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func BenchmarkWriteSVG(b *testing.B) {
	const n = 100_000
	s := Series{Name: "harvest", X: make([]float64, n), Y: make([]float64, n)}
	for i := range s.X {
		s.X[i], s.Y[i] = float64(i), 0.5+0.4*math.Sin(float64(i)/1000)
	}
	c := Chart{Percent: true, Series: []Series{s, s}}
	b.ReportAllocs()
	for b.Loop() {
		if err := c.WriteSVG(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
