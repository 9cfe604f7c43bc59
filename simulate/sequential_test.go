package simulate

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/webgen"
)

// sequentialVariants are the variants of the sequential strategy's family
// table: the paper's conservative-server (T = 10) and hard-focused, the
// sequential strategy at its default error bound, the oracle, and the
// sequential strategy across the range of bounds and with foreign
// sections cut (directory status).
func sequentialVariants() []Variant {
	return []Variant{
		{Strategy: string(focus.ConservativeServer)},
		{Strategy: string(focus.HardFocused)},
		{Strategy: string(focus.Sequential)},
		{Strategy: Perfect},
		{Strategy: string(focus.Sequential), ErrorBound: 0.05},
		{Strategy: string(focus.Sequential), ErrorBound: 0.001},
		{Strategy: string(focus.Sequential), CutForeignDirs: true},
	}
}

// TestSequentialFamilyReport writes the sequential strategy's family table
// at the size LANGCRAWL_FAMILY gives (servers per web), for RESULTS.md, to
// LANGCRAWL_FAMILY_OUT. Skipped unless set.
func TestSequentialFamilyReport(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("LANGCRAWL_FAMILY"))
	if n == 0 {
		t.Skip("set LANGCRAWL_FAMILY=<servers> to write the sequential family table")
	}
	base := webgen.SimulatorDefaults()
	base.Servers = n
	fr, err := RunFamily(context.Background(), base, Family(), sequentialVariants(), Options{Parallel: 2}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(os.Getenv("LANGCRAWL_FAMILY_OUT"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := WriteFamilyMarkdown(f, fr); err != nil {
		t.Fatal(err)
	}
}
