package detect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os"
)

// cliResult is one line of `langcrawl detect` output.
type cliResult struct {
	File       string  `json:"file"`
	Lang       string  `json:"lang"`
	Tag        string  `json:"tag,omitempty"` // the profile's tag where it says more than lang: zh-Hant
	Charset    string  `json:"charset"`
	Confidence float64 `json:"confidence"`
	Relevant   bool    `json:"relevant"`
	Evidence   string  `json:"evidence"`
	Rival      string  `json:"rival,omitempty"` // the close neighbour a word model decided against
	RivalConf  float64 `json:"rivalConfidence,omitempty"`
	Error      string  `json:"error,omitempty"`
}

// RunCLI implements `langcrawl detect [--target LANG[,LANG...]] FILE...`: it prints
// one JSON object per file to w. If FILE.headers exists, it holds the
// HTTP response headers as received (an optional status line, then CRLF
// header lines), and its Content-Type charset is used as a live fetch's
// would be. A file that cannot be read gets an object with "error" set and
// lang "und"; RunCLI then returns an error after printing all files.
func RunCLI(w io.Writer, targets []string, files []string) error {
	d, err := New(Options{Targets: targets})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var errs []error
	for _, f := range files {
		out := cliResult{File: f, Lang: "und"}
		body, err := os.ReadFile(f)
		var ct string
		if err == nil {
			ct, err = headerContentType(f + ".headers")
		}
		if err != nil {
			out.Error = err.Error()
			errs = append(errs, fmt.Errorf("detect %s: %w", f, err))
		} else {
			r := d.Detect(body, ct)
			out.Lang, out.Charset, out.Confidence, out.Relevant, out.Evidence = r.Lang, r.Charset, r.Confidence, r.Relevant, r.Evidence
			out.Rival, out.RivalConf = r.Rival, r.RivalConfidence
			if r.Tag != r.Lang {
				out.Tag = r.Tag
			}
		}
		if err := enc.Encode(out); err != nil {
			return fmt.Errorf("detect: write result: %w", err)
		}
	}
	return errors.Join(errs...)
}

// headerContentType reads the Content-Type of a headers file; a missing
// file means no header.
func headerContentType(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	// Skip an HTTP status line if present.
	if bytes.HasPrefix(data, []byte("HTTP/")) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		} else {
			data = nil
		}
	}
	if !bytes.HasSuffix(data, []byte("\r\n\r\n")) && !bytes.HasSuffix(data, []byte("\n\n")) {
		data = append(append([]byte(nil), data...), "\r\n\r\n"...)
	}
	h, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(data))).ReadMIMEHeader()
	if err != nil && len(h) == 0 {
		return "", fmt.Errorf("parse %s: %w", path, err)
	}
	return h.Get("Content-Type"), nil
}
