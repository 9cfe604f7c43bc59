package fetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http/httputil"
	"strings"
)

// Payload returns the entity body with the transfer coding (chunked) and the
// content codings (gzip, x-gzip, deflate; identity) removed, for link
// extraction and language detection. It returns at most limit bytes: a
// longer payload is cut at limit without error, which also defuses
// compression bombs. limit <= 0 means DefaultMaxBodySize.
//
// A body that ends early because the response was truncated yields the
// bytes decoded so far and no error. An unknown content coding (br, zstd)
// returns ErrUnsupportedEncoding. Payload does not change r and is safe to
// call from several goroutines.
func (r *Result) Payload(limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxBodySize
	}
	if r.BodyOffset < 0 || r.BodyOffset > len(r.RawResponse) {
		return nil, fmt.Errorf("fetch %s: payload: body offset %d outside response of %d bytes", r.URL, r.BodyOffset, len(r.RawResponse))
	}
	body := r.RawResponse[r.BodyOffset:]
	var rd io.Reader = bytes.NewReader(body)
	if r.spill != nil {
		// A spilled body is read from its file, never loaded whole: at
		// most limit bytes are decoded.
		rd = io.MultiReader(rd, io.NewSectionReader(r.spill, 0, r.spillN))
	}
	// The codings in the order they were applied: the content codings,
	// then the transfer codings ("gzip, chunked", RFC 9112 section 6.1);
	// undone last first. With Chunked, chunked is undone once, first (a
	// chunked named twice, on two lines, is one framing: reframe).
	codings := contentCodings(r.Header.Values("Content-Encoding"))
	for _, c := range contentCodings(r.Header.Values("Transfer-Encoding")) {
		if c != "chunked" || !r.Chunked {
			codings = append(codings, c)
		}
	}
	if r.Chunked {
		rd = httputil.NewChunkedReader(rd)
	}
	if len(body) == 0 && r.spill == nil {
		return []byte{}, nil
	}
	// Codings are listed in the order they were applied; undo the last first.
	for i := len(codings) - 1; i >= 0; i-- {
		var err error
		switch codings[i] {
		case "chunked": // not last ("chunked, gzip", read to the close)
			rd = httputil.NewChunkedReader(rd)
		case "gzip", "x-gzip":
			rd, err = gzip.NewReader(rd)
		case "deflate":
			rd, err = deflateReader(rd)
		default:
			return nil, fmt.Errorf("fetch %s: payload: %w %q", r.URL, ErrUnsupportedEncoding, codings[i])
		}
		if err != nil {
			if r.Truncated != "" && isEOF(err) {
				return []byte{}, nil
			}
			return nil, fmt.Errorf("fetch %s: payload: %s: %w", r.URL, codings[i], err)
		}
	}
	data, err := io.ReadAll(io.LimitReader(rd, limit))
	if err != nil {
		if r.Truncated != "" && isEOF(err) {
			return data, nil
		}
		return data, fmt.Errorf("fetch %s: payload: %w", r.URL, err)
	}
	return data, nil
}

// contentCodings splits Content-Encoding values into lower-case codings,
// dropping identity and empty entries.
func contentCodings(values []string) []string {
	var out []string
	for _, v := range values {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			if c != "" && c != "identity" {
				out = append(out, c)
			}
		}
	}
	return out
}

// deflateReader reads "deflate", which RFC 9110 defines as zlib but which
// some servers send as a raw DEFLATE stream.
func deflateReader(rd io.Reader) (io.Reader, error) {
	br := bufio.NewReader(rd)
	hdr, err := br.Peek(2)
	if err == nil && hdr[0]&0x0f == 8 && (uint16(hdr[0])<<8|uint16(hdr[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	if err != nil && len(hdr) == 0 {
		return nil, err
	}
	return flate.NewReader(br), nil
}

func isEOF(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}
