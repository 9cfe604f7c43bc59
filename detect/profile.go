package detect

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sort"
)

// Profile file format (gzip-compressed, little-endian):
//
//	magic   "LCDP2\n"
//	count   uint16
//	per profile:
//	  tag      uint8 length + bytes  (BCP 47 tag, e.g. "th", "zh-Hant")
//	  charset  uint8 length + bytes  (WHATWG name)
//	  floor    float32               (log-probability of an unseen trigram)
//	  k        uint16                (number of trigrams)
//	  k × [3]byte trigram, ascending
//	  k × uint8  quantised -log-probability (value/qScale)
//	word models of the close groups (see writeWordModels)
const (
	profileMagic = "LCDP2\n"
	qScale       = 10.0
	maxProfileK  = 2500
	// maxProfileKCJK is the profile size for Chinese, Japanese and Korean,
	// whose thousands of characters take three UTF-8 bytes each: with
	// 2,500 trigrams, text with other vocabulary than the training text
	// fits no profile.
	maxProfileKCJK = 8000
	// floorTrigrams sets the log-probability of a trigram a profile does
	// not hold, the same for every profile: half that of a trigram seen
	// once in floorTrigrams (about the trigrams of one language's
	// training text).
	floorTrigrams = 150000
)

// profile is the byte-trigram model of one (language, charset) pair.
type profile struct {
	Tag     string
	Charset string
	Floor   float32
	Grams   []uint32 // trigram packed as b0<<16|b1<<8|b2, ascending
	Q       []uint8  // -lp*qScale
}

func (p *profile) lp(i int) float32 { return -float32(p.Q[i]) / qScale }

// writeProfiles serialises profiles and the close groups' word models
// deterministically.
func writeProfiles(w io.Writer, ps []*profile, ms []*wordModel, cal *calibration) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	bw.WriteString(profileMagic)
	binary.Write(bw, binary.LittleEndian, uint16(len(ps)))
	for _, p := range ps {
		bw.WriteByte(byte(len(p.Tag)))
		bw.WriteString(p.Tag)
		bw.WriteByte(byte(len(p.Charset)))
		bw.WriteString(p.Charset)
		binary.Write(bw, binary.LittleEndian, p.Floor)
		binary.Write(bw, binary.LittleEndian, uint16(len(p.Grams)))
		for _, g := range p.Grams {
			bw.Write([]byte{byte(g >> 16), byte(g >> 8), byte(g)})
		}
		bw.Write(p.Q)
	}
	if err := writeWordModels(bw, ms); err != nil {
		return err
	}
	if err := writeCalibration(bw, cal); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// readProfiles parses the format written by writeProfiles.
func readProfiles(data []byte) ([]*profile, []*wordModel, *calibration, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %v", ErrBadProfiles, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %v", ErrBadProfiles, err)
	}
	r := bytes.NewReader(raw)
	magic := make([]byte, len(profileMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != profileMagic {
		return nil, nil, nil, fmt.Errorf("%w: bad magic", ErrBadProfiles)
	}
	var n uint16
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %v", ErrBadProfiles, err)
	}
	str := func() (string, error) { return readShortString(r) }
	ps := make([]*profile, 0, n)
	for i := 0; i < int(n); i++ {
		p := &profile{}
		var err error
		if p.Tag, err = str(); err != nil {
			return nil, nil, nil, fmt.Errorf("%w: profile %d: %v", ErrBadProfiles, i, err)
		}
		if p.Charset, err = str(); err != nil {
			return nil, nil, nil, fmt.Errorf("%w: profile %d: %v", ErrBadProfiles, i, err)
		}
		var k uint16
		if err := binary.Read(r, binary.LittleEndian, &p.Floor); err != nil {
			return nil, nil, nil, fmt.Errorf("%w: profile %s/%s: %v", ErrBadProfiles, p.Tag, p.Charset, err)
		}
		if err := binary.Read(r, binary.LittleEndian, &k); err != nil {
			return nil, nil, nil, fmt.Errorf("%w: profile %s/%s: %v", ErrBadProfiles, p.Tag, p.Charset, err)
		}
		gb := make([]byte, 3*int(k))
		p.Q = make([]uint8, k)
		if _, err := io.ReadFull(r, gb); err != nil {
			return nil, nil, nil, fmt.Errorf("%w: profile %s/%s: %v", ErrBadProfiles, p.Tag, p.Charset, err)
		}
		if _, err := io.ReadFull(r, p.Q); err != nil {
			return nil, nil, nil, fmt.Errorf("%w: profile %s/%s: %v", ErrBadProfiles, p.Tag, p.Charset, err)
		}
		p.Grams = make([]uint32, k)
		for j := range p.Grams {
			p.Grams[j] = uint32(gb[3*j])<<16 | uint32(gb[3*j+1])<<8 | uint32(gb[3*j+2])
		}
		ps = append(ps, p)
	}
	ms, err := readWordModels(r)
	if err != nil {
		return nil, nil, nil, err
	}
	cal, err := readCalibration(r)
	if err != nil {
		return nil, nil, nil, err
	}
	if r.Len() != 0 {
		return nil, nil, nil, fmt.Errorf("%w: %d bytes of trailing data", ErrBadProfiles, r.Len())
	}
	return ps, ms, cal, nil
}

// normalize maps text bytes to the alphabet the profiles are built on:
// ASCII letters lower-cased, every other ASCII byte (digits, punctuation,
// white space, controls) folded into one space, and bytes >= 0x80 kept
// as they are. The result starts and ends with a space.
func normalize(dst, src []byte) []byte {
	dst = append(dst[:0], ' ')
	for _, b := range src {
		switch {
		case b >= 0x80 || (b >= 'a' && b <= 'z'):
			dst = append(dst, b)
		case b >= 'A' && b <= 'Z':
			dst = append(dst, b+('a'-'A'))
		default:
			if dst[len(dst)-1] != ' ' {
				dst = append(dst, ' ')
			}
		}
	}
	if dst[len(dst)-1] != ' ' {
		dst = append(dst, ' ')
	}
	return dst
}

// buildProfile counts the byte trigrams of normalised text and keeps the
// maxProfileK (maxProfileKCJK) most frequent ones with their
// log-probabilities.
func buildProfile(tag, charset string, text []byte) *profile {
	norm := normalize(nil, text)
	counts := map[uint32]int{}
	total := 0
	for i := 0; i+3 <= len(norm); i++ {
		g := uint32(norm[i])<<16 | uint32(norm[i+1])<<8 | uint32(norm[i+2])
		if g == ' '<<16|' '<<8|' ' {
			continue
		}
		counts[g]++
		total++
	}
	type gc struct {
		g uint32
		c int
	}
	all := make([]gc, 0, len(counts))
	for g, c := range counts {
		all = append(all, gc{g, c})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].c != all[j].c {
			return all[i].c > all[j].c
		}
		return all[i].g < all[j].g
	})
	k := maxProfileK
	switch iso(tag) {
	case "zh", "ja", "ko":
		k = maxProfileKCJK
	}
	if len(all) > k {
		all = all[:k]
	}
	sort.Slice(all, func(i, j int) bool { return all[i].g < all[j].g })
	p := &profile{Tag: tag, Charset: charset}
	if total == 0 {
		total = 1
	}
	// Every profile gets the same floor. A floor from the profile's own
	// text (half a count in it) made an unseen trigram cheapest for the
	// languages with the least training text (Javanese, Sundanese: a
	// third of the others'), which then took the out-of-vocabulary text
	// of their neighbours: 64 of 69 Tagalog pages went to Javanese.
	p.Floor = float32(math.Log(0.5 / floorTrigrams))
	for _, x := range all {
		lp := math.Log(float64(x.c) / float64(total))
		q := math.Round(-lp * qScale)
		if q > 255 {
			q = 255
		}
		p.Grams = append(p.Grams, x.g)
		p.Q = append(p.Q, uint8(q))
	}
	return p
}

// table scores text against every profile of one charset. Trigrams are
// kept in an open-addressing hash table whose values index posting lists
// of (profile, log-probability minus floor).
type table struct {
	charset string
	profs   []*profile
	floors  []float32
	keys    []uint32 // 0 marks an empty slot (trigram 0 never occurs)
	starts  []uint32 // posting range per slot
	ends    []uint32
	pProf   []uint16
	pDelta  []float32
	shift   uint
	lang    []int          // language index per profile (same ISO code or variant family, same index)
	index   map[string]int // profile index by tag
	// variants holds the profile indexes of each base and variant
	// (variant.go) that both have a profile in the table.
	variants [][2]int
	high     [][]float32 // per profile: log-probability of each byte >= 0x80 starting a trigram
}

// base returns the index of the profile of i's family base (variant.go):
// i itself unless i is a variant whose base has a profile in t.
func (t *table) base(i int) int {
	if b, ok := t.index[variantBase(t.profs[i].Tag)]; ok {
		return b
	}
	return i
}

// earlyMargin is the lead (in nats) after which scoring stops early.
const earlyMargin = 60

// decided reports whether, after n trigrams, one language leads by
// earlyMargin. Floors are added at the end of score, so they are
// accounted for here.
func (t *table) decided(scores []float32, n int) bool {
	best, bi := float32(-1e30), -1
	for i, s := range scores {
		if v := s + float32(n)*t.floors[i]; v > best {
			best, bi = v, i
		}
	}
	for i, s := range scores {
		if t.lang[i] != t.lang[bi] && s+float32(n)*t.floors[i] > best-earlyMargin {
			return false
		}
	}
	return true
}

// highScore is the best log-likelihood, over the table's profiles, of a
// histogram of bytes >= 0x80: a cheap first look at which charsets fit.
func (t *table) highScore(hist *[128]int) float32 {
	best := float32(-1e30)
	for _, h := range t.high {
		var s float32
		for b, c := range hist {
			if c > 0 {
				s += float32(c) * h[b]
			}
		}
		if s > best {
			best = s
		}
	}
	return best
}

func newTable(charset string, profs []*profile) *table {
	t := &table{charset: charset, profs: profs}
	type post struct {
		prof  uint16
		delta float32
	}
	postings := map[uint32][]post{}
	var grams []uint32
	for i, p := range profs {
		t.floors = append(t.floors, p.Floor)
		for j, g := range p.Grams {
			if _, ok := postings[g]; !ok {
				grams = append(grams, g)
			}
			postings[g] = append(postings[g], post{uint16(i), p.lp(j) - p.Floor})
		}
	}
	langs := map[string]int{}
	t.index = make(map[string]int, len(profs))
	for i, p := range profs {
		t.index[p.Tag] = i
		// A variant and its base are one family (variant.go): scoring
		// does not go on to tell them apart.
		fam := iso(variantBase(p.Tag))
		l, ok := langs[fam]
		if !ok {
			l = len(langs)
			langs[fam] = l
		}
		t.lang = append(t.lang, l)
		var mass [128]float64
		total := 0.0
		for j, g := range p.Grams {
			if b := g >> 16; b >= 0x80 {
				pr := math.Exp(float64(p.lp(j)))
				mass[b-0x80] += pr
				total += pr
			}
		}
		h := make([]float32, 128)
		for b := range h {
			h[b] = float32(math.Log((mass[b] + 1e-4) / (total + 128e-4)))
		}
		t.high = append(t.high, h)
	}
	for i := range profs {
		if b := t.base(i); b != i {
			t.variants = append(t.variants, [2]int{b, i})
		}
	}
	sort.Slice(grams, func(i, j int) bool { return grams[i] < grams[j] })
	size := 1
	bits := uint(0)
	for size < 2*len(grams)+1 {
		size <<= 1
		bits++
	}
	t.shift = 32 - bits
	t.keys = make([]uint32, size)
	t.starts = make([]uint32, size)
	t.ends = make([]uint32, size)
	for _, g := range grams {
		h := t.slot(g)
		t.keys[h] = g
		t.starts[h] = uint32(len(t.pProf))
		for _, p := range postings[g] {
			t.pProf = append(t.pProf, p.prof)
			t.pDelta = append(t.pDelta, p.delta)
		}
		t.ends[h] = uint32(len(t.pProf))
	}
	return t
}

// slot returns the slot of g: where it is stored, or the empty slot where
// it would be.
func (t *table) slot(g uint32) uint32 {
	mask := uint32(len(t.keys) - 1)
	h := (g * 2654435761) >> t.shift
	for t.keys[h] != 0 && t.keys[h] != g {
		h = (h + 1) & mask
	}
	return h
}

// score adds the log-likelihood of the first limit trigrams of norm
// (normalised text) under every profile to scores, and returns the number
// of trigrams scored. With early set, it stops once one language leads
// every other by earlyMargin.
func (t *table) score(norm []byte, scores []float32, limit int, early bool) int {
	n := 0
	mask := uint32(len(t.keys) - 1)
	end := len(norm) - 2
	if end > limit {
		end = limit
	}
	for i := 0; i < end; i++ {
		if early && i > 0 && i%256 == 0 && t.decided(scores, i) {
			break
		}
		g := uint32(norm[i])<<16 | uint32(norm[i+1])<<8 | uint32(norm[i+2])
		n++
		h := (g * 2654435761) >> t.shift
		for {
			k := t.keys[h]
			if k == g {
				s, e := t.starts[h], t.ends[h]
				pp := t.pProf[s:e]
				pd := t.pDelta[s:e]
				for j, p := range pp {
					scores[p] += pd[j]
				}
				break
			}
			if k == 0 {
				break
			}
			h = (h + 1) & mask
		}
	}
	for i, f := range t.floors {
		scores[i] += float32(n) * f
	}
	return n
}

// readShortString reads a string written as one length byte and the bytes.
func readShortString(r *bytes.Reader) (string, error) {
	l, err := r.ReadByte()
	if err != nil {
		return "", err
	}
	b := make([]byte, l)
	_, err = io.ReadFull(r, b)
	return string(b), err
}
