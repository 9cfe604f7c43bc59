package main

import (
	"runtime/debug"
	"strings"
)

// buildVersion returns the version of this build: the version set with
// -ldflags "-X main.version=..." if it was, else the VCS stamp Go put in
// the binary (revision, commit time, "+dirty" for uncommitted changes),
// else the module version ("v1.2.3" when installed with go install), else
// version as it is.
func buildVersion() string {
	if version != devVersion {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	return versionOf(info)
}

// devVersion is version's value when -ldflags did not set it.
const devVersion = "0.1.0-dev"

func versionOf(info *debug.BuildInfo) string {
	var rev, when string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		v := devVersion + " (" + rev[:min(12, len(rev))]
		if when != "" {
			v += " " + when
		}
		if dirty {
			v += " +dirty"
		}
		return v + ")"
	}
	if m := info.Main.Version; m != "" && m != "(devel)" {
		return strings.TrimPrefix(m, "v")
	}
	return version
}
