package focus

import "testing"

// TestTargetDomainIDN: the internationalised country domains (.ไทย
// xn--o3cw4h, .укр xn--j1amh, .ایران xn--mgba3a4f16a, .срб xn--90a3ac,
// .бг xn--90ae) are a target's country domain for the report's ranking and
// the URL cues; the first version knew the ASCII ones only (a review).
func TestTargetDomainIDN(t *testing.T) {
	for _, c := range []struct{ lang, host string }{
		{"th", "xn--12cfi8ixb8l.xn--o3cw4h"},
		{"uk", "xn--80aaxitdbjk.xn--j1amh"},
		{"fa", "example.xn--mgba3a4f16a"},
		{"sr", "example.xn--90a3ac"},
		{"bg", "example.xn--90ae"},
	} {
		p := mustNew(t, Config{Strategy: ConservativeServer, Langs: []string{c.lang}})
		if !p.TargetDomain(c.host) {
			t.Errorf("%s %s: not a target country domain", c.lang, c.host)
		}
	}
}
