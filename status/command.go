package status

import (
	"bufio"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ErrCommand is wrapped by every error ParseCommands returns.
var ErrCommand = errors.New("status: bad command")

// The verbs of the command language.
const (
	Pause     = "pause"     // pause [REASON...]: stop taking new URLs
	Resume    = "resume"    // resume
	Seed      = "seed"      // seed URL...: add seeds
	Delay     = "delay"     // delay HOST|.DOMAIN DURATION|default: change a host's delay
	Stop      = "stop"      // stop: finish in-flight fetches and end the crawl
	Exclude   = "exclude"   // exclude REGEXP: add an exclusion rule
	Unexclude = "unexclude" // unexclude REGEXP: remove an exclusion rule
)

// Command is one parsed command.
type Command struct {
	Verb string
	// Args are the words after the verb: the URLs of seed, the host and
	// the duration of delay, the rule of exclude and unexclude (one
	// argument, the rest of the line), the reason of pause (one argument).
	Args []string
	Line int // line number in its text, from 1
}

// String gives the command back as a line.
func (c Command) String() string {
	return strings.TrimSpace(c.Verb + " " + strings.Join(c.Args, " "))
}

// ParseCommands parses text, one command a line:
//
//	# a comment; blank lines are ignored
//	pause reading room busy hours  # after white space, '#' starts a comment
//	resume
//	seed http://example.org/ https://example.net/news/
//	http://example.com/          (a line that is only a URL is a seed)
//	delay example.org 5s         (.example.org: it and every host under it)
//	delay example.org default    (back to the profile's delay)
//	exclude ^https?://[^/]*calendar\.example\.org/
//	unexclude ^https?://[^/]*calendar\.example\.org/
//	stop
//
// Every bad line is reported, with its number, each error wrapping
// ErrCommand; on any error no command is returned. A rule of exclude or
// unexclude that is no RE2 expression is a bad line.
func ParseCommands(text string) ([]Command, error) {
	var cmds []Command
	var errs []error
	bad := 0
	// A byte order mark, as Notepad writes one, is no part of a command.
	text = strings.TrimPrefix(text, "\ufeff")
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := uncomment(sc.Text())
		if line == "" {
			continue
		}
		c, err := parseLine(line)
		if err != nil {
			// Each bad line is named, up to maxBadLines, and quoted
			// short: a stray binary file of 30 MB gave one log line
			// of 141 MB (a steering trial).
			if bad++; bad <= maxBadLines {
				errs = append(errs, fmt.Errorf("%w: line %d: %s: %w", ErrCommand, n, quoteShort(line), err))
			}
			continue
		}
		c.Line = n
		cmds = append(cmds, c)
	}
	if bad > maxBadLines {
		errs = append(errs, fmt.Errorf("%w: and %d more bad lines", ErrCommand, bad-maxBadLines))
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%w: line %d: %w", ErrCommand, n+1, err))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return cmds, nil
}

// MaxDelay is the longest delay a delay command sets.
const MaxDelay = 24 * time.Hour

// maxBadLines is how many bad lines ParseCommands names one by one.
const maxBadLines = 20

// maxQuoted is how much of a bad line an error quotes.
const maxQuoted = 200

// quoteShort quotes line, cut to maxQuoted bytes with its length said.
func quoteShort(line string) string {
	if len(line) <= maxQuoted {
		return strconv.Quote(line)
	}
	return fmt.Sprintf("%q… (%d bytes)", strings.ToValidUTF8(line[:maxQuoted], ""), len(line))
}

// uncomment returns line without its comment, and trimmed: a '#' that
// starts the line (white space aside) or follows white space starts a
// comment, which runs to the end of the line. A '#' inside a word stays
// (a URL's fragment); a rule that needs one after a space writes it \x23.
// In a pause reason, free text, a '#' must also stand apart (white space
// or the end of the line after it), so that "ticket #123" keeps its
// number.
func uncomment(line string) string {
	blank := func(c byte) bool { return c == ' ' || c == '\t' }
	verb, _, _ := cutWord(strings.TrimLeft(line, " \t"))
	reason := strings.EqualFold(verb, Pause)
	for i := 0; i < len(line); i++ {
		if line[i] != '#' {
			continue
		}
		if strings.TrimLeft(line[:i], " \t") == "" ||
			blank(line[i-1]) && (!reason || i+1 == len(line) || blank(line[i+1])) {
			line = line[:i]
			break
		}
	}
	return strings.TrimSpace(line)
}

// cutWord splits line at its first white space (a space or a tab).
func cutWord(line string) (word, rest string, found bool) {
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		return line[:i], line[i+1:], true
	}
	return line, "", false
}

func parseLine(line string) (Command, error) {
	verb, rest, _ := cutWord(line)
	rest = strings.TrimSpace(rest)
	words := strings.Fields(rest)
	if strings.Contains(verb, "://") {
		return Command{Verb: Seed, Args: strings.Fields(line)}, checkURLs(strings.Fields(line))
	}
	c := Command{Verb: strings.ToLower(verb)}
	switch c.Verb {
	case Resume, Stop:
		if rest != "" {
			return c, fmt.Errorf("%s takes nothing after it", c.Verb)
		}
	case Pause:
		if rest != "" {
			c.Args = []string{rest}
		}
	case Seed:
		if len(words) == 0 {
			return c, errors.New("seed wants one URL or more")
		}
		c.Args = words
		return c, checkURLs(words)
	case Delay:
		if len(words) != 2 {
			return c, errors.New("delay wants a host and a duration (or default)")
		}
		c.Args = words
		if words[1] != "default" {
			d, err := time.ParseDuration(words[1])
			if err != nil || d < 0 {
				return c, fmt.Errorf("delay %q: want a duration such as 2s or 500ms, or default", words[1])
			}
			if d > MaxDelay {
				// 876000h was accepted and kept (a steering trial): a
				// host to leave alone wants an exclusion.
				return c, fmt.Errorf("delay %q: more than %s; to stop crawling a host, exclude it", words[1], MaxDelay)
			}
		}
		if strings.Contains(words[0], "/") {
			return c, fmt.Errorf("delay: %q is not a host name", words[0])
		}
		if strings.Contains(words[0], "*") {
			// Accepted before, kept, and it changed nothing (a
			// steering trial): the delay of every host is the
			// profile's.
			return c, fmt.Errorf("delay: %q: a delay is for a host (or .domain, it and every host under it); for every host, set delay in the profile", words[0])
		}
	case Exclude, Unexclude:
		if rest == "" {
			return c, fmt.Errorf("%s wants a rule", c.Verb)
		}
		// Checked here, so that a file with a bad rule is applied not at
		// all, rather than up to the rule.
		if _, err := regexp.Compile(rest); err != nil {
			return c, fmt.Errorf("%s: %w", c.Verb, err)
		}
		c.Args = []string{rest}
	default:
		return c, fmt.Errorf("unknown command %q (want pause, resume, seed, delay, exclude, unexclude or stop)", verb)
	}
	return c, nil
}

func checkURLs(us []string) error {
	var errs []error
	for _, s := range us {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("%q is not an http or https URL", s))
		}
	}
	return errors.Join(errs...)
}

// ParseDelay returns the duration of a delay command and false for
// "default".
func ParseDelay(c Command) (time.Duration, bool) {
	if len(c.Args) != 2 || c.Args[1] == "default" {
		return 0, false
	}
	d, err := time.ParseDuration(c.Args[1])
	return d, err == nil
}
