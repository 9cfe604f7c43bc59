package detect

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// writeMO encodes pairs (msgid, msgstr) as a .mo file in byte order bo,
// the way msgfmt lays it out: header, two tables, then the strings.
func writeMO(bo binary.ByteOrder, pairs [][2]string) []byte {
	n := len(pairs)
	orig, trans := 28, 28+8*n
	strs := 28 + 16*n
	out := make([]byte, strs)
	bo.PutUint32(out[0:], moMagic)
	bo.PutUint32(out[8:], uint32(n))
	bo.PutUint32(out[12:], uint32(orig))
	bo.PutUint32(out[16:], uint32(trans))
	for k, table := range []int{orig, trans} {
		for i, p := range pairs {
			s := p[k]
			bo.PutUint32(out[table+8*i:], uint32(len(s)))
			bo.PutUint32(out[table+8*i+4:], uint32(len(out)))
			out = append(out, s...)
			out = append(out, 0)
		}
	}
	return out
}

func TestParseMO(t *testing.T) {
	pairs := [][2]string{
		{"", "Content-Type: text/plain; charset=UTF-8\n"},
		{"Open", "เปิด"},
		{"menu\x04Quit", "ออก"},
		{"%d file\x00%d files", "%d ไฟล์\x00%d ไฟล์ (plural)"},
	}
	want := []moMessage{{"Open", "เปิด"}, {"Quit", "ออก"}, {"%d file", "%d ไฟล์"}}
	for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		got, err := parseMO(writeMO(bo, pairs))
		if err != nil {
			t.Fatalf("%v: %v", bo, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v: got %q, want %q", bo, got, want)
		}
	}
}

func TestParseMOErrors(t *testing.T) {
	good := writeMO(binary.LittleEndian, [][2]string{{"a", "b"}})
	outOfRange := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(outOfRange[28+4:], 1<<30) // offset of msgid 0
	tooMany := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(tooMany[8:], 1<<28)
	badRev := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(badRev[4:], 2<<16)
	for name, data := range map[string][]byte{
		"empty":        nil,
		"short":        good[:12],
		"magic":        append([]byte("GNU!"), good[4:]...),
		"revision":     badRev,
		"string range": outOfRange,
		"entry count":  tooMany,
	} {
		if _, err := parseMO(data); !errors.Is(err, errBadMO) {
			t.Errorf("%s: err = %v, want errBadMO", name, err)
		}
	}
}

func TestCleanMessage(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"_Open File", "Open File"},
		{"ファイル(_F)", "ファイル"},
		{"Cannot open “%s”: %s", "Cannot open “ ”:"},
		{"%1$d of %2$'d items, 100%% done", "of items, 100 done"},
		{"<b>Bold</b> and <span weight=\"x\">text</span>", "Bold and text"},
		{"a < b & c\tend\n", "a b c end"},
		{"xx > yy", "xx yy"},
		{"%s: %s", ""},      // no letters
		{"OK", ""},          // fewer than three letters
		{"\xff\xfebad", ""}, // not UTF-8
		{"ไม่สามารถเปิด %s ได้", "ไม่สามารถเปิด ได้"},
		{"100% sure", "100 sure"},
	} {
		if got := cleanMessage(c.in); got != c.want {
			t.Errorf("cleanMessage(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestScripts(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Everyone has the right to life", "Latin"},
		{"ทุกคนมีสิทธิในชีวิต Article 3", "Thai"},
		{"すべての人は、生命、自由及び身体の安全に対する権利を有する。", "CJK"},
		{"Каждый человек имеет право на жизнь", "Cyrillic"},
	} {
		if got := mainScript(c.text); got != c.want {
			t.Errorf("mainScript(%q) = %q, want %q", c.text, got, c.want)
		}
		if !inScript(c.text, c.want) {
			t.Errorf("inScript(%q, %q) = false", c.text, c.want)
		}
	}
	// Tatar catalogues in Latin script must not train the Cyrillic profile.
	if inScript("Sürät böyeklegen sizep bulmadı", "Cyrillic") {
		t.Error("Latin Tatar taken for Cyrillic")
	}
	if inScript("GIF BMP PNG ไฟล์", "Thai") {
		t.Error("mostly Latin message taken for Thai")
	}
}

func TestPackLines(t *testing.T) {
	msgs := []string{"aaaa", "bbbb", "cccc", "dddd", "ee", "f"}
	got := packLines(msgs, 10)
	want := []string{"aaaa bbbb", "cccc dddd", "ee f"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("packLines = %q, want %q", got, want)
	}
	if got := packLines([]string{"x"}, 40); len(got) != 0 {
		t.Errorf("a last line under a quarter of minRunes is kept: %q", got)
	}
	if got := interleave([][]string{{"a1", "a2", "a3"}, {"b1"}, nil}, 4); !reflect.DeepEqual(got, []string{"a1", "b1", "a2", "a3"}) {
		t.Errorf("interleave = %q", got)
	}
}

// TestCatalogueText reads a catalogue laid out as fetch.sh leaves it and
// checks the filters: untranslated copies and other scripts are dropped,
// "C" gives the msgids of every locale, a missing file gives nothing.
func TestCatalogueText(t *testing.T) {
	dir := t.TempDir()
	c := catalogue{Package: "pkg", Domain: "dom"}
	put := func(locale string, pairs [][2]string) {
		p := filepath.Join(dir, DebDir, c.Package, "usr/share/locale", locale, "LC_MESSAGES", c.Domain+".mo")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, writeMO(binary.LittleEndian, pairs), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("th", [][2]string{{"", "header"}, {"Open the file", "เปิดแฟ้ม"}, {"Save the file", "Save the file"}, {"Print", "Print ข"}})
	put("de", [][2]string{{"Close the window", "Fenster schließen"}, {"Open the file", "Datei öffnen"}})
	got, err := catalogueText(dir, c, "th", textFilter{class: "Thai"})
	if err != nil || !reflect.DeepEqual(got, []string{"เปิดแฟ้ม"}) {
		t.Errorf("th: %q, %v", got, err)
	}
	got, err = catalogueText(dir, c, "C", textFilter{class: "Latin"})
	if err != nil || !reflect.DeepEqual(got, []string{"Close the window", "Open the file", "Print", "Save the file"}) {
		t.Errorf("C: %q, %v", got, err)
	}
	// A message whose msgid an evaluation catalogue has is dropped,
	// whatever its case and mnemonics.
	got, err = catalogueText(dir, c, "de", textFilter{class: "Latin", skip: map[string]bool{idKey("_Open the File"): true}})
	if err != nil || !reflect.DeepEqual(got, []string{"Fenster schließen"}) {
		t.Errorf("de with skip: %q, %v", got, err)
	}
	got, err = catalogueText(dir, c, "C", textFilter{skip: map[string]bool{"print": true}})
	if err != nil || !reflect.DeepEqual(got, []string{"Close the window", "Open the file", "Save the file"}) {
		t.Errorf("C with skip: %q, %v", got, err)
	}
	// Two locales read as one source, the first one's messages first.
	src, err := openCatalogue(dir, c, []string{"th", "missing", "de"}, textFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for m, ok := src.next(); ok; m, ok = src.next() {
		all = append(all, m)
	}
	if want := []string{"เปิดแฟ้ม", "Print ข", "Fenster schließen", "Datei öffnen"}; !reflect.DeepEqual(all, want) {
		t.Errorf("th+de source: %q, want %q", all, want)
	}
	if got, err := catalogueText(dir, c, "lo", textFilter{}); err != nil || got != nil {
		t.Errorf("missing locale: %q, %v", got, err)
	}
	put("bad", [][2]string{{"a", "b"}})
	p := filepath.Join(dir, DebDir, c.Package, "usr/share/locale/bad/LC_MESSAGES", c.Domain+".mo")
	if err := os.WriteFile(p, []byte("not a catalogue at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := catalogueText(dir, c, "bad", textFilter{}); !errors.Is(err, errBadMO) || !strings.Contains(err.Error(), p) {
		t.Errorf("bad file: err = %v, want errBadMO naming %s", err, p)
	}
}

// TestCatalogueSplit guards the train/evaluation split: the held-out
// catalogues are the four the evaluation is built from, no catalogue is
// listed twice, and none of the catalogues that repeat the evaluation
// text (country names, places, GTK 4's copy of gdk-pixbuf's messages)
// trains.
func TestCatalogueSplit(t *testing.T) {
	var eval []string
	seen := map[catalogue]bool{}
	for _, c := range catalogues {
		key := catalogue{Package: c.Package, Domain: c.Domain}
		if seen[key] {
			t.Errorf("catalogue %s/%s listed twice", c.Package, c.Domain)
		}
		seen[key] = true
		if c.Eval {
			eval = append(eval, c.Domain)
		}
		switch c.Domain {
		case "iso_3166-2", "iso_3166-3", "gnome-control-center-2.0-timezones", "xkeyboard-config", "libgweather-4.0", "gtk40":
			t.Errorf("%s/%s repeats evaluation text and must not be listed", c.Package, c.Domain)
		}
	}
	if want := []string{"gdk-pixbuf", "at-spi2-core", "shared-mime-info", "iso_3166-1"}; !reflect.DeepEqual(eval, want) {
		t.Errorf("held-out catalogues %q, want %q", eval, want)
	}
}

func FuzzParseMO(f *testing.F) {
	f.Add(writeMO(binary.LittleEndian, [][2]string{{"", "h"}, {"a\x04b", "c"}, {"x\x00y", "z\x00w"}}))
	f.Add(writeMO(binary.BigEndian, [][2]string{{"Open", "เปิด"}}))
	f.Add([]byte{0xde, 0x12, 0x04, 0x95, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs, err := parseMO(data)
		if err != nil {
			if !errors.Is(err, errBadMO) {
				t.Fatalf("error %v is not errBadMO", err)
			}
			return
		}
		for _, m := range msgs {
			if len(m.ID)+len(m.Str) > len(data) {
				t.Fatalf("message %q longer than the file", m)
			}
			c := cleanMessage(m.Str)
			if !utf8.ValidString(c) || strings.ContainsAny(c, "<>&%_\n") {
				t.Fatalf("cleanMessage(%q) = %q", m.Str, c)
			}
		}
	})
}
