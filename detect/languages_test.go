package detect

import (
	"slices"
	"testing"
)

func TestCharsets(t *testing.T) {
	d, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	th := d.Charsets("th")
	if len(th) < 2 || th[0] != "utf-8" || !slices.Contains(th, "windows-874") {
		t.Errorf("Charsets(th) = %v, want utf-8 first and windows-874", th)
	}
	if d.Charsets("xx") != nil {
		t.Error("an unknown language has charsets")
	}
	for _, l := range d.Languages() {
		if len(d.Charsets(l)) == 0 {
			t.Errorf("%s is listed but has no charset", l)
		}
	}
}
