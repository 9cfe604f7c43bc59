package scope

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestTrap(t *testing.T) {
	long := "http://example.com/" + strings.Repeat("a", 2048)
	deep := "http://example.com" + distinctSegments(33)
	params := "http://example.com/s?" + strings.TrimSuffix(strings.Repeat("p=1&", 33), "&")
	tests := []struct {
		name  string
		rules Rules
		in    string
		want  string // substring of the reason; "" when the URL is fine
	}{
		{"plain", Rules{}, "http://example.com/a/b/c.html?x=1", ""},
		{"long", Rules{}, long, "bytes, limit 2048"},
		{"long allowed when off", Rules{MaxURLLength: -1}, long, ""},
		{"long under custom limit", Rules{MaxURLLength: 4096}, long, ""},
		{"exactly 2048", Rules{}, "http://example.com/" + strings.Repeat("a", 2048-len("http://example.com/")), ""},
		{"deep", Rules{}, deep, "33 segments, limit 32"},
		{"32 segments", Rules{}, "http://example.com" + distinctSegments(32), ""},
		{"deep with custom limit", Rules{MaxPathSegments: 2}, "http://example.com/a/b/c", "3 segments, limit 2"},
		{"deep off", Rules{MaxPathSegments: -1, MaxRepeatedSegment: -1}, deep, ""},
		{"same segment 4 times", Rules{}, "http://example.com/x/x/x/x", `"x" occurs more than 3`},
		{"same segment 4 times apart", Rules{}, "http://example.com/x/a/x/b/x/c/x/", `"x" occurs more than 3`},
		{"same segment 3 times", Rules{}, "http://example.com/x/x/x/", ""},
		{"pair 3 times", Rules{}, "http://example.com/a/b/a/b/a/b/", `"a/b" repeat 3`},
		{"pair 3 times deeper", Rules{}, "http://example.com/top/a/b/c/a/b/c/a/b/c/end.html", `"a/b/c" repeat 3`},
		{"pair twice", Rules{}, "http://example.com/a/b/a/b/", ""},
		{"pair 3 times not back to back", Rules{}, "http://example.com/a/b/x/a/b/y/a/b/", ""},
		{"repeat limit 1", Rules{MaxRepeatedSegment: 1}, "http://example.com/a/b/a", `"a" occurs more than 1`},
		{"repeat off", Rules{MaxRepeatedSegment: -1}, "http://example.com/x/x/x/x/x", ""},
		{"empty segments are not repeats", Rules{}, "http://example.com/a//////b", ""},
		{"params", Rules{}, params, "33 parameters, limit 32"},
		{"32 params", Rules{}, "http://example.com/s?" + strings.TrimSuffix(strings.Repeat("p=1&", 32), "&"), ""},
		{"empty params not counted", Rules{}, "http://example.com/s?" + strings.Repeat("&", 100) + "a=1", ""},
		{"params off", Rules{MaxQueryParams: -1}, params, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := url.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got := tt.rules.Trap(u)
			if tt.want == "" {
				if got != "" {
					t.Errorf("Trap(%q) = %q, want no trap", tt.in, got)
				}
				return
			}
			if got == "" || !strings.Contains(got, tt.want) {
				t.Errorf("Trap(%q) = %q, want a reason containing %q", tt.in, got, tt.want)
			}
		})
	}
}

// distinctSegments returns a path of n different segments.
func distinctSegments(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "/d%d", i)
	}
	return b.String()
}

func TestDefaultRules(t *testing.T) {
	want := Rules{MaxURLLength: 2048, MaxPathSegments: 32, MaxRepeatedSegment: 3, MaxQueryParams: 32}
	if got := DefaultRules(); got != want {
		t.Errorf("DefaultRules() = %+v, want %+v", got, want)
	}
	if got := (Rules{}).withDefaults(); got != want {
		t.Errorf("Rules{}.withDefaults() = %+v, want %+v", got, want)
	}
}
