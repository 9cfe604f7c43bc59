package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// profilesDir, under --out, keeps the resolved profile of every run:
// profile.yaml is the latest, and each generation's stays here.
const profilesDir = "profiles"

// saveProfile writes the resolved profile of a run that starts at now as
// out/profiles/profile-<UTC yyyyMMddHHmmssSSS>.yaml, the time as in WARC
// file names (with a suffix if two runs start within one millisecond).
func saveProfile(out, text string, now time.Time) error {
	dir := filepath.Join(out, profilesDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	now = now.UTC()
	base := fmt.Sprintf("profile-%s%03d", now.Format("20060102150405"), now.Nanosecond()/1e6)
	name := base + ".yaml"
	for i := 2; ; i++ {
		_, err := os.Lstat(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) {
			break
		}
		if err != nil {
			return err
		}
		name = fmt.Sprintf("%s-%d.yaml", base, i)
	}
	// The crawl's lock is held (where the system has flock), so no other
	// run takes the name meanwhile. Through a temporary file: a kill or a
	// full disk never leaves a run's profile cut short under its name.
	return writeTextAtomic(filepath.Join(dir, name), text)
}

// removeProfileTemps removes from dir the temporary files writeOutAtomic
// leaves when a kill stops it while it writes a profile: names of the
// form profile*.yaml.tmp-*, which nothing else writes there. (Listed, not
// globbed: dir is the operator's --out, which may hold glob characters.)
func removeProfileTemps(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, "profile") && strings.Contains(n, ".yaml.tmp-") && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, n))
		}
	}
}
