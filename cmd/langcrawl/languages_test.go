package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestLanguagesCommand(t *testing.T) {
	cmd := languagesCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs(nil)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 1 {
			lines[f[0]] = l
		}
	}
	for code, want := range map[string]string{"th": "windows-874", "lo": "utf-8", "ms": "Malay", "id": "Indonesian", "ja": "shift_jis"} {
		if !strings.Contains(lines[code], want) {
			t.Errorf("languages: the %s line %q lacks %q", code, lines[code], want)
		}
	}
}
