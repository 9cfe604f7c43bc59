package config

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnspecifiedListenSpellingsRefused (from a review): metrics.listen refuses
// every interface without metrics.all_interfaces, but compared the host
// as text ("0.0.0.0", "::", "*"); other spellings of the unspecified
// address bind every interface too, and passed. The status page answers
// /status.json and /metrics to anyone who can reach it, token or not.
func TestUnspecifiedListenSpellingsRefused(t *testing.T) {
	for _, listen := range []string{"[::0]:9100", "[0::0]:9100", "[0:0:0:0:0:0:0:0]:9100", "[::ffff:0.0.0.0]:9100"} {
		host, _, _ := net.SplitHostPort(listen)
		if ip := net.ParseIP(host); ip != nil && !ip.IsUnspecified() {
			t.Fatalf("%s is not the unspecified address", host)
		}
		dir := t.TempDir()
		prof := filepath.Join(dir, "p.yaml")
		os.WriteFile(prof, []byte(fmt.Sprintf("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\nmetrics: {listen: %q}\n", listen)), 0o644)
		_, err := Load(prof, nil)
		if err == nil || !strings.Contains(err.Error(), "metrics.listen") {
			t.Errorf("listen %q (every interface) accepted without metrics.all_interfaces: err %v", listen, err)
		}
	}
}
