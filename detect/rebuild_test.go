package detect

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestRebuildProfiles rebuilds the profiles and the held-out text from
// the corpora and checks that they match the shipped files byte for byte.
// The corpora come from corpora/fetch.sh: in $LANGCRAWL_CORPORA if set,
// else in corpora/cache. Without them the test fails: run fetch.sh.
func TestRebuildProfiles(t *testing.T) {
	dir := corporaDir()
	for _, f := range []string{filepath.Join(UDHRDir, "tha.html"), filepath.Join(DebDir, catalogues[0].Package)} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("corpora missing in %s (%v): run detect/corpora/fetch.sh [DIR] and set LANGCRAWL_CORPORA=DIR", dir, err)
		}
	}
	b, err := Build(dir, BuildOptions{})
	if err != nil {
		t.Fatalf("Build(%s): %v", dir, err)
	}
	for _, c := range []struct {
		file string
		got  []byte
	}{{ProfilesFile, b.Profiles}, {HeldOutFile, b.HeldOut}, {CatalogueEvalFile, b.CatalogueEval}} {
		want, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c.got, want) {
			t.Errorf("rebuilt %s (%d bytes) differs from the shipped one (%d bytes): run go run ./tools/buildprofiles", c.file, len(c.got), len(want))
		}
	}
	if !bytes.Equal(b.Profiles, embeddedProfiles) {
		t.Error("embedded profiles differ from the rebuilt ones")
	}
}
