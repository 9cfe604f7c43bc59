package scope

import (
	"fmt"
	"net/url"
	"strings"
)

// Defaults of Rules, used for fields left at zero.
const (
	DefaultMaxURLLength       = 2048
	DefaultMaxPathSegments    = 32
	DefaultMaxRepeatedSegment = 3
	DefaultMaxQueryParams     = 32
)

// Rules are the trap guards. A zero field takes its default (the Default constants);
// a negative field turns its check off. The zero Rules is ready to use and equals
// DefaultRules. Rules is a value: safe for concurrent use.
type Rules struct {
	// MaxURLLength is the longest URL, in bytes of u.String(). Default 2048.
	MaxURLLength int
	// MaxPathSegments is the most path segments ("/a/b/" has two). Default 32.
	MaxPathSegments int
	// MaxRepeatedSegment is N in the repetition guard: a path is a trap when one
	// non-empty segment occurs more than N times anywhere in it (/x/x/x/x for N=3), or
	// when a run of two or more segments occurs N times back to back (/a/b/a/b/a/b/),
	// the shape a relative link that points to its own directory produces. Default 3.
	MaxRepeatedSegment int
	// MaxQueryParams is the most '&'-separated parameters in the query. Default 32.
	MaxQueryParams int
}

// DefaultRules returns the Rules with every default filled in.
func DefaultRules() Rules {
	return Rules{
		MaxURLLength:       DefaultMaxURLLength,
		MaxPathSegments:    DefaultMaxPathSegments,
		MaxRepeatedSegment: DefaultMaxRepeatedSegment,
		MaxQueryParams:     DefaultMaxQueryParams,
	}
}

// withDefaults fills zero fields.
func (r Rules) withDefaults() Rules {
	d := DefaultRules()
	if r.MaxURLLength == 0 {
		r.MaxURLLength = d.MaxURLLength
	}
	if r.MaxPathSegments == 0 {
		r.MaxPathSegments = d.MaxPathSegments
	}
	if r.MaxRepeatedSegment == 0 {
		r.MaxRepeatedSegment = d.MaxRepeatedSegment
	}
	if r.MaxQueryParams == 0 {
		r.MaxQueryParams = d.MaxQueryParams
	}
	return r
}

// Trap returns "" when u passes every guard, and otherwise a short reason naming the
// limit it breaks, e.g. "path has 40 segments, limit 32". Reasons are meant for logs and
// WARC metadata; match on the empty string only.
func (r Rules) Trap(u *url.URL) string {
	r = r.withDefaults()
	if r.MaxURLLength > 0 {
		if n := len(u.String()); n > r.MaxURLLength {
			return fmt.Sprintf("url is %d bytes, limit %d", n, r.MaxURLLength)
		}
	}
	segs := segments(u.EscapedPath())
	if r.MaxPathSegments > 0 && len(segs) > r.MaxPathSegments {
		return fmt.Sprintf("path has %d segments, limit %d", len(segs), r.MaxPathSegments)
	}
	if r.MaxRepeatedSegment > 0 {
		if why := repeated(segs, r.MaxRepeatedSegment); why != "" {
			return why
		}
	}
	if r.MaxQueryParams > 0 && u.RawQuery != "" {
		n := 0
		for p := range strings.SplitSeq(u.RawQuery, "&") {
			if p != "" {
				n++
			}
		}
		if n > r.MaxQueryParams {
			return fmt.Sprintf("query has %d parameters, limit %d", n, r.MaxQueryParams)
		}
	}
	return ""
}

// segments splits an escaped path into its segments: "/a/b/" -> [a b], "/a//b" -> [a "" b].
func segments(p string) []string {
	p = strings.TrimPrefix(p, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// repeated applies the repetition guard of Rules.MaxRepeatedSegment with limit n.
func repeated(segs []string, n int) string {
	if len(segs) <= n {
		return ""
	}
	counts := make(map[string]int, len(segs))
	for _, s := range segs {
		if s == "" {
			continue
		}
		counts[s]++
		if counts[s] > n {
			return fmt.Sprintf("path segment %q occurs more than %d times", s, n)
		}
	}
	// Runs of k >= 2 segments repeated n times back to back.
	for k := 2; k*n <= len(segs); k++ {
		for start := 0; start+k*n <= len(segs); start++ {
			if allEmpty(segs[start : start+k]) {
				continue
			}
			reps := 1
			for next := start + k; next+k <= len(segs) && equalRun(segs, start, next, k); next += k {
				reps++
				if reps >= n {
					return fmt.Sprintf("path segments %q repeat %d times", strings.Join(segs[start:start+k], "/"), n)
				}
			}
		}
	}
	return ""
}

func equalRun(segs []string, a, b, k int) bool {
	for i := range k {
		if segs[a+i] != segs[b+i] {
			return false
		}
	}
	return true
}

func allEmpty(segs []string) bool {
	for _, s := range segs {
		if s != "" {
			return false
		}
	}
	return true
}
