package crawl

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/bandwidth"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/politeness"
)

// Leaves are the Stats of the leaves a crawl runs, for RegisterMetrics. A
// nil func leaves that leaf's metrics out (Bandwidth with no limit).
type Leaves struct {
	Fetch     func() fetch.Stats
	Gate      func() politeness.Stats
	Archive   func() archive.Stats
	Frontier  func() frontier.Stats
	Bandwidth func() bandwidth.Stats
}

// RegisterMetrics registers on reg the engine's collector (NewCollector)
// and one collector per leaf in l, each reading the leaf's Stats when
// scraped. Metric names start with langcrawl_ and the leaf's name; none
// is labelled by URL or host.
func RegisterMetrics(reg prometheus.Registerer, c *Crawler, l Leaves) error {
	cols := []prometheus.Collector{NewCollector(c)}
	add := func(sub string, read func() []stat) {
		cols = append(cols, newStatsCollector(sub, read))
	}
	if f := l.Fetch; f != nil {
		add("fetcher", func() []stat {
			s := f()
			return []stat{
				{"requests_total", "Requests written to a connection, retries included.", counter, float64(s.Requests)},
				{"responses_total", "Responses whose header was read in full.", counter, float64(s.Responses)},
				{"failures_total", "Requests that got no response.", counter, float64(s.Failures)},
				{"refused_total", "Requests refused by the address guard (counted in failures too).", counter, float64(s.Refused)},
				{"truncated_total", "Responses cut at max_body_size or by a timeout.", counter, float64(s.Truncated)},
				{"sent_bytes_total", "Raw request bytes written.", counter, float64(s.BytesSent)},
				{"received_bytes_total", "Raw response bytes kept.", counter, float64(s.BytesReceived)},
				{"connections_opened_total", "Connections dialed.", counter, float64(s.ConnsOpened)},
				{"connections_reused_total", "Requests sent over a kept-alive connection.", counter, float64(s.ConnsReused)},
				{"idle_connections", "Idle connections held now.", gauge, float64(s.IdleConns)},
			}
		})
	}
	if f := l.Gate; f != nil {
		add("politeness", func() []stat {
			s := f()
			return []stat{
				{"robots_fetches_total", "robots.txt fetches.", counter, float64(s.RobotsFetches)},
				{"robots_errors_total", "robots.txt fetches that failed (5xx, 429, network, unparseable).", counter, float64(s.RobotsErrors)},
				{"robots_cache_hits_total", "Checks answered from the robots cache.", counter, float64(s.CacheHits)},
				{"robots_restored_total", "robots.txt outcomes restored after a restart.", counter, float64(s.Restored)},
				{"allowed_total", "Checks that allowed a URL.", counter, float64(s.Allowed)},
				{"disallowed_total", "Checks that disallowed a URL.", counter, float64(s.Disallowed)},
				{"robots_cached", "robots.txt outcomes cached now.", gauge, float64(s.CachedRobots)},
				{"acquire_waits_total", "Fetches that waited for their site's delay or connection.", counter, float64(s.AcquireWaits)},
			}
		})
	}
	if f := l.Archive; f != nil {
		add("warc", func() []stat {
			s := f()
			return []stat{
				{"records_total", "WARC records written, warcinfo included.", counter, float64(s.Records)},
				{"exchanges_total", "Exchanges and revisits written.", counter, float64(s.Exchanges)},
				{"bytes_total", "Bytes written to WARC files (compressed).", counter, float64(s.Bytes)},
				{"files_total", "WARC files opened.", counter, float64(s.Files)},
				{"write_errors_total", "WARC writes that failed.", counter, float64(s.WriteErrors)},
				{"syncs_total", "WARC fsyncs.", counter, float64(s.Syncs)},
			}
		})
	}
	if f := l.Frontier; f != nil {
		add("frontier", func() []stat {
			s := f()
			return []stat{
				{"sites", "Sites with URLs waiting or leased.", gauge, float64(s.Sites)},
				{"ready_sites", "Sites that could be leased now.", gauge, float64(s.Ready)},
				{"known_sites", "Sites held in memory.", gauge, float64(s.Known)},
				{"pushed_total", "URLs added.", counter, float64(s.Pushed)},
				{"popped_total", "Leases handed out.", counter, float64(s.Popped)},
				{"completed_total", "Leases completed.", counter, float64(s.Completed)},
				{"returned_total", "Leases returned.", counter, float64(s.Returned)},
				{"requeued_total", "Leases put back for a retry.", counter, float64(s.Requeued)},
				{"dropped_total", "URLs dropped with their site.", counter, float64(s.Dropped)},
				{"generation", "Crawl generation.", gauge, float64(s.Generation)},
				{"job_requests", "Requests over all runs of this generation.", gauge, float64(s.Usage.Fetches)},
				{"job_bytes", "Response bytes over all runs of this generation.", gauge, float64(s.Usage.Bytes)},
			}
		})
	}
	if f := l.Bandwidth; f != nil {
		add("bandwidth", func() []stat {
			s := f()
			return []stat{
				{"admitted_total", "Downloads started.", counter, float64(s.Admitted)},
				{"refused_total", "Candidates that did not fit.", counter, float64(s.Refused)},
				{"idle_total", "Downloads admitted with nothing in flight.", counter, float64(s.Idle)},
				{"filled_total", "Downloads started in the free part of L, which was less than their expected rate.", counter, float64(s.Filled)},
				{"held_total", "Candidates refused for one held for.", counter, float64(s.Held)},
				{"measured_total", "Downloads whose rate updated the estimates.", counter, float64(s.Measured)},
				{"cancelled_total", "Downloads ended without a measurement.", counter, float64(s.Cancelled)},
				{"inflight", "Downloads in flight.", gauge, float64(s.InFlight)},
				{"predicted_bytes_per_second", "Expected rate of the downloads in flight (CB).", gauge, s.Predicted},
			}
		})
	}
	for _, col := range cols {
		if err := reg.Register(col); err != nil {
			return err
		}
	}
	return nil
}

const (
	counter = prometheus.CounterValue
	gauge   = prometheus.GaugeValue
)

// stat is one value of a leaf's Stats.
type stat struct {
	name, help string
	kind       prometheus.ValueType
	v          float64
}

// statsCollector turns one leaf's Stats into metrics when scraped.
type statsCollector struct {
	sub   string
	read  func() []stat
	descs []*prometheus.Desc // in the order read returns
}

func newStatsCollector(sub string, read func() []stat) *statsCollector {
	c := &statsCollector{sub: sub, read: read}
	for _, s := range read() {
		c.descs = append(c.descs, prometheus.NewDesc(prometheus.BuildFQName("langcrawl", sub, s.name), s.help, nil, nil))
	}
	return c
}

// Describe implements prometheus.Collector.
func (c *statsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *statsCollector) Collect(ch chan<- prometheus.Metric) {
	for i, s := range c.read() {
		ch <- prometheus.MustNewConstMetric(c.descs[i], s.kind, s.v)
	}
}
