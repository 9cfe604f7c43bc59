package status

import (
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed assets
var assets embed.FS

// Sample is the crawl at one moment, as the charts plot it. Counters are
// cumulative since the crawl started; the page turns them into rates.
type Sample struct {
	Time     int64 `json:"t"` // Unix milliseconds
	Pages    int64 `json:"pages"`
	Bytes    int64 `json:"bytes"`
	HTML     int64 `json:"html"`
	Relevant int64 `json:"relevant"`
	Failed   int64 `json:"failed"`
	Queued   int64 `json:"queued"`
	InFlight int64 `json:"inflight"`
	// Sites: answered this run, with URLs queued, ready now, waiting out
	// their delay; by focusing status (zero when the crawl does not
	// focus); and the tries deferred for a retry.
	Sites      int64   `json:"sites"`
	Queuing    int64   `json:"queuing"`
	Ready      int64   `json:"ready"`
	Waiting    int64   `json:"waiting"`
	SitesRel   int64   `json:"sites_relevant"`
	SitesUnd   int64   `json:"sites_undecided"`
	SitesIrr   int64   `json:"sites_irrelevant"`
	Retrying   int64   `json:"retrying"`
	BWLimit    float64 `json:"bw_limit"`     // bytes/s; 0: no bandwidth limit
	BWExpected float64 `json:"bw_predicted"` // the bandwidth manager's CB
}

// Details are the parts of the status that are not plotted over time.
type Details struct {
	Started     time.Time         `json:"started"`
	Target      string            `json:"target"` // target language; "" for none
	Paused      bool              `json:"paused"`
	PauseReason string            `json:"pause_reason,omitempty"`
	Stopping    bool              `json:"stopping"`
	Languages   map[string]int64  `json:"languages"`
	TopHosts    []HostCount       `json:"top_hosts"`
	Errors      []Failure         `json:"errors"`
	Delays      map[string]string `json:"delays"`   // delays changed while running, by host key
	Excludes    []string          `json:"excludes"` // the exclusion rules in force
	Changes     []Change          `json:"changes"`  // the latest applied commands, newest last
}

// HostCount is one of the top hosts.
type HostCount struct {
	Host      string `json:"host"`
	Responses int64  `json:"responses"`
	Pages     int64  `json:"pages"`
	Relevant  int64  `json:"relevant"`
}

// Failure is one recent error.
type Failure struct {
	Time   time.Time `json:"time"`
	URL    string    `json:"url"`
	Status int       `json:"status"`
	Note   string    `json:"note,omitempty"`
}

// Change is one applied command.
type Change struct {
	Time    time.Time `json:"time"`
	From    string    `json:"from"` // "page ADDRESS" (the client's) or the action file's name
	Command string    `json:"command"`
	Err     string    `json:"err,omitempty"`
	Note    string    `json:"note,omitempty"` // done, with something to say (a Notice)
}

// Notice is an error of Controller.Apply that reports a command done as
// far as it could be, where nothing went wrong: a seed queued before is
// not queued again. The page answers 200 with it, and an action file
// gets it in done/NAME.note, not done/NAME.err.
type Notice struct{ Msg string }

func (n *Notice) Error() string { return n.Msg }

// OnlyNotices reports whether err is not nil and holds Notices and
// nothing else (errors.Join and %w wrapping looked through).
func OnlyNotices(err error) bool {
	if err == nil {
		return false
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !OnlyNotices(e) {
				return false
			}
		}
		return true
	}
	if _, ok := err.(*Notice); ok {
		return true
	}
	if e := errors.Unwrap(err); e != nil {
		return OnlyNotices(e)
	}
	return false
}

// Source reports the crawl. Its methods are called from the Server's
// goroutines and must be safe for concurrent use.
type Source interface {
	Sample(now time.Time) Sample
	Details() Details
}

// Controller applies commands, in order. from names where they came
// from, for the log ("page", or an action file's name). It returns one
// error per command that failed, joined; the others are applied.
type Controller interface {
	Apply(ctx context.Context, from string, cmds []Command) error
}

// Config configures a Server.
type Config struct {
	Source Source // required
	// Control applies commands POSTed to /control; nil makes the page
	// read-only.
	Control Controller
	// Token must accompany every POST; required with Control. Compared
	// in constant time.
	Token string
	// Metrics, when not nil, is served at /metrics.
	Metrics http.Handler
	// Every is the time between samples; default 1s.
	Every time.Duration
	// Keep is how many samples are kept; default 3600.
	Keep int
	// Now is the clock; default time.Now.
	Now func() time.Time
	// AnyHost answers a request whatever its Host header names. Off, the
	// server answers only a Host that is an IP address or localhost
	// (with any port), and 421 otherwise: a page the archivist opens
	// whose name its owner then points at 127.0.0.1 (DNS rebinding) is
	// of the same origin as a loopback server and could read
	// /status.json and /metrics, which need no token (a security
	// review). Set it for a server listening on a network address, which
	// its users reach by the machine's names.
	AnyHost bool
	// Log, when not nil, gets a line for each command refused before it
	// reached Control (a bad token, a line that does not parse), which
	// the operator log missed (an archivist's trial).
	Log *slog.Logger
}

// Server serves the status page. Create it with New; Run takes the
// samples. Safe for concurrent use.
type Server struct {
	cfg Config
	mux *http.ServeMux

	mu      sync.Mutex
	samples []Sample // ring of cfg.Keep
	next    int
	full    bool
}

// New returns a Server for cfg, with defaults filled in. It starts no
// goroutines.
func New(cfg Config) (*Server, error) {
	if cfg.Source == nil {
		return nil, errors.New("status: Config.Source is required")
	}
	if cfg.Control != nil && cfg.Token == "" {
		return nil, errors.New("status: Config.Token is required with Control")
	}
	if cfg.Every <= 0 {
		cfg.Every = time.Second
	}
	if cfg.Keep <= 0 {
		cfg.Keep = 3600
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), samples: make([]Sample, cfg.Keep)}
	static, _ := fs.Sub(assets, "assets")
	files := http.FileServerFS(static)
	s.mux.Handle("GET /{$}", files)
	s.mux.Handle("GET /static/", http.StripPrefix("/static", files))
	s.mux.HandleFunc("GET /status.json", s.serveJSON)
	s.mux.HandleFunc("POST /control", s.serveControl)
	if cfg.Metrics != nil {
		s.mux.Handle("GET /metrics", cfg.Metrics)
	}
	return s, nil
}

// Handler returns the page, /status.json, /control and /metrics.
func (s *Server) Handler() http.Handler {
	if s.cfg.AnyHost {
		return s.mux
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !localHost(r.Host) {
			http.Error(w, "this status server listens on a loopback address and answers only an IP address or localhost as the Host "+
				"(a name could be a DNS rebinding); to reach it by a name, set metrics.listen to a network address", http.StatusMisdirectedRequest)
			return
		}
		s.mux.ServeHTTP(w, r)
	})
}

// localHost reports whether host (a Host header, with or without a port)
// is an IP address or localhost, names no other party can point at the
// loopback address, or is empty (an HTTP/1.0 client; a browser always
// sends one).
func localHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	return host == "" || strings.EqualFold(host, "localhost") || net.ParseIP(host) != nil
}

// Run takes a sample every Config.Every until ctx is done; the first at
// once.
func (s *Server) Run(ctx context.Context) {
	t := time.NewTicker(s.cfg.Every)
	defer t.Stop()
	for {
		s.Take()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Take takes one sample now.
func (s *Server) Take() {
	smp := s.cfg.Source.Sample(s.cfg.Now())
	s.mu.Lock()
	s.samples[s.next] = smp
	s.next = (s.next + 1) % len(s.samples)
	s.full = s.full || s.next == 0
	s.mu.Unlock()
}

// history returns the samples taken after since (Unix ms), oldest first.
func (s *Server) history(since int64) []Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []Sample
	if s.full {
		all = append(all, s.samples[s.next:]...)
	}
	all = append(all, s.samples[:s.next]...)
	i := 0
	for i < len(all) && all[i].Time <= since {
		i++
	}
	return all[i:]
}

// Report is the body of /status.json.
type Report struct {
	Now     int64    `json:"now"`
	Every   int64    `json:"every_ms"`
	Control bool     `json:"control"` // whether commands are taken
	Samples []Sample `json:"samples"` // after ?since=, oldest first
	Current Sample   `json:"current"` // taken for this answer
	Details Details  `json:"details"`
}

func (s *Server) serveJSON(w http.ResponseWriter, r *http.Request) {
	since, _ := strconv.ParseInt(r.URL.Query().Get("since"), 10, 64)
	now := s.cfg.Now()
	rep := Report{Now: now.UnixMilli(), Every: s.cfg.Every.Milliseconds(), Control: s.cfg.Control != nil,
		Samples: s.history(since), Current: s.cfg.Source.Sample(now), Details: s.cfg.Source.Details()}
	if rep.Samples == nil {
		rep.Samples = []Sample{}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(rep)
}

// maxCommands bounds the body of a POST to /control.
const maxCommands = 1 << 20

// refuse answers a POST to /control with msg and code, and logs it.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, msg string, code int) {
	if s.cfg.Log != nil {
		s.cfg.Log.Warn("control refused", "from", r.RemoteAddr, "status", code, "err", msg)
	}
	http.Error(w, msg, code)
}

// isCommandForm reports whether form holds a commands field and no field
// but commands and token. A line of commands always has a verb and a
// space before any '=', so it never parses as one.
func isCommandForm(form url.Values) bool {
	for k := range form {
		if k != "commands" && k != "token" {
			return false
		}
	}
	return form.Has("commands")
}

func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Control == nil {
		http.Error(w, "status: this crawl takes no commands", http.StatusForbidden)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxCommands))
	if err != nil {
		http.Error(w, "status: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	token := r.Header.Get("X-Langcrawl-Token")
	text := string(body)
	if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); ct == "application/x-www-form-urlencoded" {
		// The page's form sends commands and token as fields. curl -d
		// sends plain text under this type too: a body that is not
		// such a form, with no other field, is the commands as written
		// (a seed URL's "&commands=" must not read as a field).
		if form, err := url.ParseQuery(string(body)); err == nil && isCommandForm(form) {
			if token == "" {
				token = form.Get("token")
			}
			text = form.Get("commands")
		}
	}
	if subtle.ConstantTimeCompare([]byte(token), []byte(s.cfg.Token)) != 1 {
		s.refuse(w, r, "status: wrong or missing token (it is printed on stderr and in logs/langcrawl.log at start)", http.StatusForbidden)
		return
	}
	cmds, err := ParseCommands(text)
	if err != nil {
		s.refuse(w, r, err.Error(), http.StatusBadRequest)
		return
	}
	if len(cmds) == 0 {
		s.refuse(w, r, "status: no command in the body (one per line: pause, resume, seed, delay, exclude, unexclude or stop)", http.StatusBadRequest)
		return
	}
	// The client's address beside "page", as a refused command's line
	// has it (a steering trial found applied ones without it).
	err = s.cfg.Control.Apply(r.Context(), "page "+r.RemoteAddr, cmds)
	if err != nil && !OnlyNotices(err) {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "ok\n")
	if err != nil {
		io.WriteString(w, err.Error()+"\n")
	}
}
