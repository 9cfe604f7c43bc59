package main

import (
	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/politeness"
)

// robotsStore keeps the gate's robots.txt outcomes in the frontier, so
// that they survive a restart until they expire (the leaves do not import
// each other; this adapter joins them).
type robotsStore struct{ s *frontier.RobotsStore }

func (r robotsStore) Load(u string) (politeness.Record, bool, error) {
	rec, ok, err := r.s.LoadRobots(u)
	return politeness.Record(rec), ok, err
}

func (r robotsStore) Save(u string, rec politeness.Record) error {
	return r.s.SaveRobots(u, frontier.RobotsRecord(rec))
}

// hostRules splits the profile's per-host overrides between the leaves
// that apply them: delays and robots policies for the politeness gate,
// site and domain page budgets for the engine.
func hostRules(hosts map[string]config.HostRules) (gate map[string]politeness.HostRules, sites, domains map[string]int) {
	gate, sites, domains = map[string]politeness.HostRules{}, map[string]int{}, map[string]int{}
	for h, r := range hosts {
		if r.Delay != nil || r.Robots != "" {
			gate[h] = politeness.HostRules{Delay: r.Delay, Policy: politeness.Policy(r.Robots)}
		}
		if r.MaxPagesPerSite != nil {
			sites[h] = *r.MaxPagesPerSite
		}
		if r.MaxPagesPerDomain != nil {
			domains[h] = *r.MaxPagesPerDomain
		}
	}
	return gate, sites, domains
}
