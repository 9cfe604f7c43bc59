package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/simulate"
	"github.com/langcrawl/langcrawl/webgen"
)

func main() {
	servers := flag.Int("servers", 5000, "")
	out := flag.String("out", "/tmp/simout", "")
	strats := flag.String("s", "", "")
	disk := flag.String("disk", "", "")
	imp := flag.Bool("imp", false, "")
	par := flag.Int("par", 0, "")
	pa := flag.Float64("pa", -1, "")
	home := flag.Float64("home", -1, "")
	foreign := flag.Float64("foreign", -1, "")
	order := flag.String("order", "", "explicit variant order")
	decayEvery := flag.Int("decay-every", 20000, "")
	statsOnly := flag.Bool("stats", false, "print the graph's figures and exit")
	wb := flag.Int("wb", 0, "")
	prof := flag.String("cpuprofile", "", "")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			panic(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	p := webgen.SimulatorDefaults()
	p.Servers = *servers
	if *pa >= 0 {
		p.PreferentialShare = *pa
	}
	if *home >= 0 {
		p.HomeLinkShare = *home
	}
	if *foreign >= 0 {
		p.TargetServerForeignShare = *foreign
	}
	if *statsOnly {
		g, err := webgen.Generate(p)
		if err != nil {
			panic(err)
		}
		res, err := simulate.Run(context.Background(), g, simulate.Options{MaxPages: 1, Strategies: []string{"perfect"}})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%+v\n", res.Graph)
		return
	}
	cfg := simulate.Config{Params: p, OutDir: *out, Options: simulate.Options{DiskDir: *disk, WriteBufferMB: *wb, Improvements: *imp, Parallel: *par}}
	var done []simulate.RunResult
	cfg.Options.Done = func(r *simulate.RunResult) {
		done = append(done, *r)
		if *out != "" {
			part := &simulate.Results{Runs: done}
			if err := part.WriteFiles(*out + "/partial"); err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
		}
	}
	if *order != "" {
		for _, s := range strings.Split(*order, ",") {
			cfg.Options.Variants = append(cfg.Options.Variants, simulate.Variant{Strategy: s})
		}
		if *imp {
			cfg.Options.Variants = append(cfg.Options.Variants,
				simulate.Variant{Strategy: "conservative-server", Defer: true},
				simulate.Variant{Strategy: "conservative-directory", Defer: true},
				simulate.Variant{Strategy: "conservative-server", Decay: focus.Decay{Every: int64(*decayEvery), Min: 2}},
			)
		}
	}
	if *strats != "" {
		cfg.Options.Strategies = strings.Split(*strats, ",")
	}
	if err := simulate.Main(context.Background(), os.Stdout, os.Stderr, cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}
