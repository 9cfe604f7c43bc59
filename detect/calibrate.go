package detect

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// Calibration: the confidence is a probability.
//
// The margin of the best language over the second, divided by the square
// root of the evidence (z), grows with the text and says how sure the
// scores are, but it is not a probability: 1 - 0.5·e^-z gave 1.0 to ten
// characters. Following Platt ("Probabilistic outputs for support vector
// machines", 1999), the builder fits a logistic curve
//
//	P(right) = 1 / (1 + exp(-(a + b·z + c·ln(1+n))))
//
// per stage (the trigram profiles; the close groups' word models), where
// n is the trigrams or words scored, on a calibration set of text that no
// profile, word model or evaluation set holds: catalogue messages of the
// training catalogues past the training cap (maxCatalogueTrain), cut into
// snippets of 15 to 400 characters (calibrationLengths), a few of each
// length per language. The coefficients are stored with the profiles and
// rounded to 1/1024, so a rebuild reproduces them.

// calibration holds the logistic coefficients of each stage; nil: the
// confidence is the uncalibrated 1 - 0.5·e^-z.
type calibration struct {
	Ngram, Words [calFeatures]float32 // a, b, c
}

// calStage is the index of a stage's coefficients.
const (
	stageNgram = 0
	stageWords = 1
)

// calFeatures is the number of coefficients per stage.
//
// Measured and left out: the fit (mean gain per trigram over the floor)
// as a fourth feature. Its scale differs between the UTF-8 and the thinner
// legacy profiles, and with character-shuffled snippets as wrong examples
// (to teach it that text no profile knows is not to be trusted) it put
// 700 right pages of the evaluation sets at confidence 0 and the expected
// calibration error at 0.27; without them it changed the error by 0.0004.
const calFeatures = 3

func calX(z float64, n int) [calFeatures]float64 {
	return [calFeatures]float64{1, z, math.Log1p(float64(n))}
}

func (c *calibration) coef(stage int) [calFeatures]float32 {
	if stage == stageWords {
		return c.Words
	}
	return c.Ngram
}

// prob returns the calibrated probability that the answer is right.
func (c *calibration) prob(stage int, z float64, n int) float64 {
	w, x := c.coef(stage), calX(z, n)
	t := 0.0
	for i := range w {
		t += float64(w[i]) * x[i]
	}
	return 1 / (1 + math.Exp(-t))
}

// calibrationLengths are the snippet lengths (characters) of the
// calibration set, and calibrationPerLength how many of each a language
// gives, text allowing.
var calibrationLengths = []int{15, 30, 60, 120, 250, 400}

const (
	calibrationPerLength = 8
	// calibrationBytes caps the catalogue text read per language for it.
	calibrationBytes = 12000
)

// calibrationSnippets cuts msgs (messages in file order) into snippets
// of each of calibrationLengths, calibrationPerLength of each at most.
func calibrationSnippets(msgs []string) []string {
	var out []string
	k := 0
	for _, want := range calibrationLengths {
		for j := 0; j < calibrationPerLength && k < len(msgs); j++ {
			var sb strings.Builder
			for k < len(msgs) && utf8.RuneCountInString(sb.String()) < want {
				if sb.Len() > 0 {
					sb.WriteByte(' ')
				}
				sb.WriteString(msgs[k])
				k++
			}
			out = append(out, cutRunes(sb.String(), want))
		}
	}
	return out
}

// cutRunes returns the first n characters of s.
func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// calSample is one calibration observation.
type calSample struct {
	stage int
	z     float64
	n     int
	right bool
}

// fitCalibration fits the coefficients of each stage to the samples by
// Newton's method on the log-likelihood (with a small ridge, so that a
// stage with few or separable samples stays finite).
func fitCalibration(samples []calSample) *calibration {
	c := &calibration{}
	for stage, dst := range []*[calFeatures]float32{&c.Ngram, &c.Words} {
		var xs [][calFeatures]float64
		var ys []float64
		for _, s := range samples {
			if s.stage != stage {
				continue
			}
			xs = append(xs, calX(s.z, s.n))
			y := 0.0
			if s.right {
				y = 1
			}
			ys = append(ys, y)
		}
		w := [calFeatures]float64{2} // no samples: about 0.88
		if len(xs) > 0 {
			w = newtonLogistic(xs, ys)
		}
		for i := range w {
			dst[i] = float32(math.Round(w[i]*1024) / 1024)
		}
	}
	return c
}

const calRidge = 1e-3

func newtonLogistic(xs [][calFeatures]float64, ys []float64) [calFeatures]float64 {
	const k = calFeatures
	var w [k]float64
	for it := 0; it < 50; it++ {
		var g [k]float64
		var h [k][k]float64
		for i, x := range xs {
			t := 0.0
			for a := range x {
				t += w[a] * x[a]
			}
			p := 1 / (1 + math.Exp(-t))
			for a := 0; a < k; a++ {
				g[a] += (ys[i] - p) * x[a]
				for b := 0; b < k; b++ {
					h[a][b] += p * (1 - p) * x[a] * x[b]
				}
			}
		}
		for a := 0; a < k; a++ {
			g[a] -= calRidge * w[a]
			h[a][a] += calRidge
		}
		d, ok := solve(h, g)
		if !ok {
			break
		}
		for a := range w {
			w[a] += d[a]
		}
		step := 0.0
		for _, v := range d {
			step += math.Abs(v)
		}
		if step < 1e-9 {
			break
		}
	}
	return w
}

// solve solves h·x = g by Gaussian elimination with partial pivoting.
func solve(h [calFeatures][calFeatures]float64, g [calFeatures]float64) ([calFeatures]float64, bool) {
	const k = calFeatures
	for c := 0; c < k; c++ {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(h[r][c]) > math.Abs(h[p][c]) {
				p = r
			}
		}
		if math.Abs(h[p][c]) < 1e-12 {
			return g, false
		}
		h[c], h[p] = h[p], h[c]
		g[c], g[p] = g[p], g[c]
		for r := c + 1; r < k; r++ {
			f := h[r][c] / h[c][c]
			for j := c; j < k; j++ {
				h[r][j] -= f * h[c][j]
			}
			g[r] -= f * g[c]
		}
	}
	var x [k]float64
	for c := k - 1; c >= 0; c-- {
		s := g[c]
		for j := c + 1; j < k; j++ {
			s -= h[c][j] * x[j]
		}
		x[c] = s / h[c][c]
	}
	return x, true
}

// writeCalibration appends the coefficients to the profile stream (none
// for a nil c):
//
//	stages uint8 (2), per stage calFeatures × float32 (a, b, c)
func writeCalibration(w io.Writer, c *calibration) error {
	if c == nil {
		return nil
	}
	var b bytes.Buffer
	b.WriteByte(2)
	binary.Write(&b, binary.LittleEndian, c.Ngram)
	binary.Write(&b, binary.LittleEndian, c.Words)
	_, err := w.Write(b.Bytes())
	return err
}

// readCalibration parses what writeCalibration wrote; nil at the end of
// the stream.
func readCalibration(r *bytes.Reader) (*calibration, error) {
	if r.Len() == 0 {
		return nil, nil
	}
	k, _ := r.ReadByte()
	if k != 2 {
		return nil, fmt.Errorf("%w: calibration: %d stages", ErrBadProfiles, k)
	}
	c := &calibration{}
	if err := binary.Read(r, binary.LittleEndian, &c.Ngram); err != nil {
		return nil, fmt.Errorf("%w: calibration: %v", ErrBadProfiles, err)
	}
	if err := binary.Read(r, binary.LittleEndian, &c.Words); err != nil {
		return nil, fmt.Errorf("%w: calibration: %v", ErrBadProfiles, err)
	}
	return c, nil
}

// calibrate runs the detector of the uncalibrated profiles over the
// calibration snippets (by tag, in the order of the language list) and
// fits the coefficients to what it gets right.
func calibrate(profiles []byte, snippets map[string][]string) (*calibration, error) {
	d, err := New(Options{profiles: profiles})
	if err != nil {
		return nil, err
	}
	var samples []calSample
	for _, l := range languages {
		for _, txt := range snippets[l.Tag] {
			if s, ok := d.decideText([]byte(txt)); ok {
				samples = append(samples, calSample{stage: s.stage, z: s.z, n: s.n, right: iso(s.tag) == iso(l.Tag)})
			}
		}
	}
	return fitCalibration(samples), nil
}

// decideText is what Detect decides for a UTF-8 text page without
// declarations.
func (d *Detector) decideText(body []byte) (decision, bool) {
	return d.decide(d.scoreUTF8(extract(body).raw, true))
}
