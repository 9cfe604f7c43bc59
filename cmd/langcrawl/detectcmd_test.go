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
