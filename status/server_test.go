package status

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestParseCommandsLongBadInput: a bad line is quoted short, and only the
// first bad lines are named: 30 MB of stray binary made one log line of
// 141 MB and took the crawler from 215 MB to 710 MB (a steering trial).
func TestParseCommandsLongBadInput(t *testing.T) {
	long := "frobnicate " + strings.Repeat("x", 500<<10)
	_, err := ParseCommands(long)
	if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "bytes)") {
		t.Errorf("a 500 KiB bad line: error of %d bytes, want it quoted short with its length", len(fmt.Sprint(err)))
	}
	_, err = ParseCommands(strings.Repeat("frobnicate\n", 1000))
	if err == nil || strings.Count(err.Error(), "line ") != maxBadLines || !strings.Contains(err.Error(), "and 980 more bad lines") {
		t.Errorf("1,000 bad lines: %.300v…; want %d named and the rest counted", err, maxBadLines)
	}
}

func TestParseCommands(t *testing.T) {
	for _, c := range []struct {
		in, want string // want: the commands one a line, or "error: TEXT"
	}{
		{"pause\n", "pause"},
		{"  pause  reading room busy  \n# c\n\nresume", "pause reading room busy\nresume"},
		{"seed http://a.test/ https://b.test/x", "seed http://a.test/ https://b.test/x"},
		{"http://a.test/\nhttp://b.test/", "seed http://a.test/\nseed http://b.test/"},
		{"delay a.test 2s\ndelay .b.test default", "delay a.test 2s\ndelay .b.test default"},
		{"exclude ^https?://c\\.test/ cal", "exclude ^https?://c\\.test/ cal"},
		{"STOP", "stop"},
		{"seed", "error: line 1"},
		{"seed ftp://a.test/", "error: not an http"},
		{"delay a.test soon", "error: want a duration"},
		{"delay a.test -1s", "error: want a duration"},
		{"pause\nfrobnicate", "error: line 2"},
		{"resume now", "error: takes nothing"},
		{"unexclude", "error: wants a rule"},
		// Comments after white space, as README's example writes them.
		{"https://a.test/            # a line that is just a URL", "seed https://a.test/"},
		{"delay a.test 10s\t# slow", "delay a.test 10s"},
		{"exclude ^https?://c\\.test/   # the calendar", "exclude ^https?://c\\.test/"},
		{"pause ticket 12 # legal", "pause ticket 12"},
		{"seed http://a.test/#top", "seed http://a.test/#top"},
		// A pause reason keeps a '#' inside a word, its ticket number
		// (it was cut to "ticket" before); everywhere else a '#' after
		// white space starts a comment, as it always has: a rule with a
		// note after it is the rule alone (a trial's file excluded
		// nothing while the note was read as part of the rule).
		{"pause ticket #123 # legal", "pause ticket #123"},
		{"PAUSE ticket #123", "pause ticket #123"},
		{"pause busy #", "pause busy"},
		{"   #indented comment\nresume", "resume"},
		{"exclude ^https?://c\\.test/ #keep-out", "exclude ^https?://c\\.test/"},
		{"delay a.test 2s #slow", "delay a.test 2s"},
		// A tab after the command word, as after any other.
		{"pause\tbusy hours", "pause busy hours"},
		{"delay\ta.test\t2s", "delay a.test 2s"},
		{"exclude ^https?://(c\\.test/", "error: missing closing )"},
		// A byte order mark (Notepad) is no part of the first command
		// (a steering trial: "unknown command \"\ufeffdelay\"").
		{"\ufeffdelay a.test 2s\r\nresume\r\n", "delay a.test 2s\nresume"},
		// A delay for "*" was accepted, kept, and changed nothing.
		{"delay * 3s", "error: for every host, set delay in the profile"},
		{"delay *.a.test 3s", "error: for every host"},
		{"delay a.test 876000h", "error: to stop crawling a host, exclude it"},
		{"delay a.test 24h", "delay a.test 24h"},
	} {
		cmds, err := ParseCommands(c.in)
		if want, ok := strings.CutPrefix(c.want, "error: "); ok {
			if err == nil || !errors.Is(err, ErrCommand) || !strings.Contains(err.Error(), want) {
				t.Errorf("ParseCommands(%q) = %v, %v; want an error with %q", c.in, cmds, err, want)
			}
			continue
		}
		var got []string
		for _, cmd := range cmds {
			got = append(got, cmd.String())
		}
		if err != nil || strings.Join(got, "\n") != c.want {
			t.Errorf("ParseCommands(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

type fakeSource struct{}

func (fakeSource) Sample(now time.Time) Sample { return Sample{Time: now.UnixMilli(), Pages: 7} }
func (fakeSource) Details() Details            { return Details{Target: "th"} }

type fakeControl struct{ got []string }

func (f *fakeControl) Apply(_ context.Context, from string, cmds []Command) error {
	var errs []error
	// The page's commands name the client's address (a steering trial
	// found them logged without it); recorded as "page".
	if a, ok := strings.CutPrefix(from, "page "); ok && strings.HasPrefix(a, "127.0.0.1:") {
		from = "page"
	}
	for _, c := range cmds {
		f.got = append(f.got, from+": "+c.String())
		switch c.Verb {
		case Seed: // as the crawl's: the seed was queued before
			errs = append(errs, fmt.Errorf("%s: %w", c, &Notice{Msg: "0 of 1 seeds queued"}))
		case Delay:
			errs = append(errs, errors.New("delay refused"))
		}
	}
	return errors.Join(errs...)
}

func TestServer(t *testing.T) {
	ctl := &fakeControl{}
	clock := time.Unix(1000, 0)
	var logged lockedBuffer
	s, err := New(Config{Source: fakeSource{}, Control: ctl, Token: "secret", Now: func() time.Time { return clock }, Keep: 2,
		Log: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		s.Take()
		clock = clock.Add(time.Second)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	for _, path := range []string{"/", "/static/app.js", "/static/style.css"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("GET %s: %v %v", path, resp.Status, err)
		}
		resp.Body.Close()
	}
	resp, err := http.Get(srv.URL + "/status.json?since=1001000")
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	json.NewDecoder(resp.Body).Decode(&rep)
	resp.Body.Close()
	if len(rep.Samples) != 1 || rep.Samples[0].Time != 1002000 || rep.Current.Pages != 7 || rep.Details.Target != "th" || !rep.Control {
		t.Errorf("status.json: %+v; want the one sample kept after since", rep)
	}

	post := func(token, body string) int {
		req, _ := http.NewRequest("POST", srv.URL+"/control", strings.NewReader(body))
		if token != "" {
			req.Header.Set("X-Langcrawl-Token", token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("", "pause"); code != http.StatusForbidden {
		t.Errorf("no token: %d, want 403", code)
	}
	if code := post("wrong", "pause"); code != http.StatusForbidden {
		t.Errorf("wrong token: %d, want 403", code)
	}
	if code := post("secret", "pause\nbogus"); code != http.StatusBadRequest {
		t.Errorf("bad command: %d, want 400", code)
	}
	// Each refusal is in the operator log (they were not).
	if n := strings.Count(logged.String(), "control refused"); n != 3 {
		t.Errorf("%d refusals logged, want the 3 so far:\n%s", n, logged.String())
	}
	if code := post("secret", "pause lunch\nresume"); code != http.StatusOK {
		t.Errorf("good commands: %d, want 200", code)
	}
	resp, err = http.PostForm(srv.URL+"/control", map[string][]string{"token": {"secret"}, "commands": {"stop"}})
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("form: %v %v", resp.Status, err)
	}
	if got := strings.Join(ctl.got, "|"); got != "page: pause lunch|page: resume|page: stop" {
		t.Errorf("applied %q", got)
	}
	// curl -d sends plain text as a form: the body is the commands
	// (it read "no command" before).
	req, _ := http.NewRequest("POST", srv.URL+"/control", strings.NewReader("resume"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Langcrawl-Token", "secret")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("curl -d resume: %v %v", resp.Status, err)
	} else {
		resp.Body.Close()
	}
	// Plain text as a form: a seed whose URL holds "&commands=" is a
	// seed, not a form's field (a review), and a token in the text is
	// no token.
	for _, c := range []struct {
		body, token string
		want        int
	}{
		{"seed http://x.test/?a=1&commands=stop", "secret", 200},
		{"pause&token=secret", "", http.StatusForbidden},
		{"token=secret&commands=pause", "", 200}, // the page's form
	} {
		req, _ := http.NewRequest("POST", srv.URL+"/control", strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if c.token != "" {
			req.Header.Set("X-Langcrawl-Token", c.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("form-typed %q: %d, want %d", c.body, resp.StatusCode, c.want)
		}
	}
	if last := ctl.got[len(ctl.got)-2:]; last[0] != "page: seed http://x.test/?a=1&commands=stop" || last[1] != "page: pause" {
		t.Errorf("applied %q, want the seed whole, then the form's pause", last)
	}
	// A command done with something to say is done: 200 and the note;
	// with a real error beside it, 422.
	reply := func(body string) (int, string) {
		req, _ := http.NewRequest("POST", srv.URL+"/control", strings.NewReader(body))
		req.Header.Set("X-Langcrawl-Token", "secret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := reply("seed http://a.test/"); code != 200 || !strings.Contains(body, "0 of 1 seeds queued") {
		t.Errorf("a seed queued before: %d %q, want 200 with the note", code, body)
	}
	if code, body := reply("seed http://a.test/\ndelay a.test 5s"); code != http.StatusUnprocessableEntity || !strings.Contains(body, "delay refused") {
		t.Errorf("a note and an error: %d %q, want 422 with the error", code, body)
	}
}

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestOnlyNotices(t *testing.T) {
	n := &Notice{Msg: "n"}
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{n, true},
		{fmt.Errorf("seed: %w", n), true},
		{errors.Join(fmt.Errorf("a: %w", n), n), true},
		{errors.Join(n, errors.New("bad")), false},
		{errors.New("bad"), false},
	} {
		if got := OnlyNotices(c.err); got != c.want {
			t.Errorf("OnlyNotices(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// TestReadmeActionExample: the action file README.md shows parses as it
// stands, comments and all, into its nine commands.
func TestReadmeActionExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "\n\n    # the reading room's busy hours\n")
	if !ok {
		t.Fatal("README.md has no action file example where this test looks")
	}
	block, _, _ := strings.Cut(after, "\n\n")
	cmds, err := ParseCommands(block)
	if err != nil || len(cmds) != 9 {
		t.Fatalf("README's example: %d commands, %v", len(cmds), err)
	}
	for _, c := range cmds {
		if strings.Contains(c.String(), "#") {
			t.Errorf("line %d kept its comment: %q", c.Line, c.String())
		}
	}
}
