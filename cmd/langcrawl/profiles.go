package main

import (
	"fmt"
	"os"
	"path/filepath"
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
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if os.IsExist(err) {
			name = fmt.Sprintf("%s-%d.yaml", base, i)
			continue
		}
		if err != nil {
			return err
		}
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
}
