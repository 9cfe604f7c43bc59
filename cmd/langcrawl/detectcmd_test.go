package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDetectCommandTargetSet: `langcrawl detect --target th,en` marks pages
// in either language relevant, and names a target it does not know.
func TestDetectCommandTargetSet(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"th.html": "<html><body><p>โดยที่การยอมรับนับถือเกียรติศักดิ์ประจำตัว และสิทธิเท่าเทียมกันและโอนมิได้ของบรรดาสมาชิกทั้งหลายแห่งครอบครัวมนุษย์</p></body></html>",
		"en.html": "<html><body><p>All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience.</p></body></html>",
		"de.html": "<html><body><p>Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt.</p></body></html>",
	}
	var paths []string
	for _, name := range []string{"th.html", "en.html", "de.html"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	cmd := detectCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs(append([]string{"--target", "th, en"}, paths...))
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"th": true, "en": true, "de": false}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), out.String())
	}
	for _, l := range lines {
		var r struct {
			Lang     string `json:"lang"`
			Relevant bool   `json:"relevant"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if rel, ok := want[r.Lang]; !ok || rel != r.Relevant {
			t.Errorf("%s", l)
		}
	}
	cmd = detectCmd()
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(append([]string{"--target", "th,qq"}, paths...))
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), `"qq"`) {
		t.Errorf("unknown target: err = %v, want one naming qq", err)
	}
}

// TestDetectCommandVariantNote: --target nb warns that Nynorsk pages are
// not relevant; --target no (both standards) does not, and a Nynorsk
// paragraph is then relevant.
func TestDetectCommandVariantNote(t *testing.T) {
	p := filepath.Join(t.TempDir(), "nn.html")
	page := "<html><body><p>Eg veit ikkje kva som skjedde, men dei fortalde at bussen ikkje kom før seint på kvelden. Difor måtte mange vente ute i kulda i over ein time.</p></body></html>"
	if err := os.WriteFile(p, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		target   string
		warn     bool
		relevant bool
	}{{"nb", true, false}, {"no", false, true}, {"nb,nn", false, true}} {
		cmd := detectCmd()
		var out, errOut bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&errOut)
		cmd.SetArgs([]string{"--target", c.target, p})
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(errOut.String(), "warning:") && strings.Contains(errOut.String(), "nn"); got != c.warn {
			t.Errorf("--target %s: stderr %q, want a warning naming nn: %v", c.target, errOut.String(), c.warn)
		}
		var r struct {
			Lang     string `json:"lang"`
			Relevant bool   `json:"relevant"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("--target %s: %v: %s", c.target, err, out.String())
		}
		if r.Lang != "nn" || r.Relevant != c.relevant {
			t.Errorf("--target %s: %+v, want nn relevant %v", c.target, r, c.relevant)
		}
	}
}
