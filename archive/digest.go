package archive

import (
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"hash"
	"io"
)

// sha1Digest formats a SHA-1 sum the way WARC digest fields carry it.
func sha1Digest(h hash.Hash) string {
	var sum [sha1.Size]byte
	return "sha1:" + base32.StdEncoding.EncodeToString(h.Sum(sum[:0]))
}

// BlockDigest returns the WARC-Block-Digest value for a block: "sha1:" and
// the base32 SHA-1 of every byte (WARC 1.1, WARC-Block-Digest).
func BlockDigest(block []byte) string {
	h := sha1.New()
	h.Write(block)
	return sha1Digest(h)
}

// PayloadDigest returns the WARC-Payload-Digest value for a raw HTTP message
// (request or response, headers included) by the rule in the package
// documentation: the body from bodyOffset on, with chunked transfer-coding
// removed when chunked is true or the headers declare it. A negative
// bodyOffset means "find the end of the headers". If raw is true, the body
// is digested as stored.
func PayloadDigest(msg []byte, bodyOffset int, chunked, raw bool) string {
	body := httpBody(msg, bodyOffset)
	h := sha1.New()
	if raw || !(chunked || isChunked(msg[:len(msg)-len(body)])) {
		h.Write(body)
		return sha1Digest(h)
	}
	if !dechunk(h, body) {
		h.Reset()
		h.Write(body)
	}
	return sha1Digest(h)
}

// payloadDigestTail is PayloadDigest for a response whose last tailN bytes
// are in tail, not in msg, read in a stream. msg must hold the whole header
// section. Digesting with the chunked transfer-coding removed (raw false)
// reads the body into memory: the engine digests as stored.
func payloadDigestTail(msg []byte, bodyOffset int, chunked, raw bool, tail io.ReaderAt, tailN int64) (string, error) {
	body := httpBody(msg, bodyOffset)
	rest := io.NewSectionReader(tail, 0, tailN)
	if raw || !(chunked || isChunked(msg[:len(msg)-len(body)])) {
		h := sha1.New()
		h.Write(body)
		if _, err := io.Copy(h, rest); err != nil {
			return "", fmt.Errorf("digest the payload: %w", err)
		}
		return sha1Digest(h), nil
	}
	all, err := io.ReadAll(io.MultiReader(bytes.NewReader(body), rest))
	if err != nil {
		return "", fmt.Errorf("digest the payload: %w", err)
	}
	h := sha1.New()
	if !dechunk(h, all) {
		h.Reset()
		h.Write(all)
	}
	return sha1Digest(h), nil
}

// httpBody returns the body of a raw HTTP message. A bodyOffset outside
// (0, len(msg)] is ignored and the end of the header section is searched
// for; a message whose header section does not end has an empty body.
func httpBody(msg []byte, bodyOffset int) []byte {
	if bodyOffset > 0 && bodyOffset <= len(msg) {
		return msg[bodyOffset:]
	}
	return msg[headerEnd(msg):]
}

// headerEnd returns the offset just past the empty line that ends the
// header section of msg, accepting bare LF line ends as RFC 9112 section 2.2
// allows. It returns len(msg) if there is no such line.
func headerEnd(msg []byte) int {
	start := 0
	for first := true; start < len(msg); first = false {
		j := bytes.IndexByte(msg[start:], '\n')
		if j < 0 {
			return len(msg)
		}
		line := msg[start : start+j]
		start += j + 1
		if !first && (len(line) == 0 || (len(line) == 1 && line[0] == '\r')) {
			return start
		}
	}
	return len(msg)
}

// isChunked reports whether the header section declares chunked as the
// final transfer coding (RFC 9112 section 6.3). Several Transfer-Encoding
// fields are one comma-separated list.
func isChunked(header []byte) bool {
	last := ""
	lines := bytes.Split(header, []byte("\n"))
	for _, line := range lines[min(1, len(lines)):] { // skip the start line
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || !asciiEqualFold(bytes.TrimSpace(name), "transfer-encoding") {
			continue
		}
		for _, c := range bytes.Split(value, []byte(",")) {
			if c = bytes.TrimSpace(c); len(c) > 0 {
				last = string(bytes.ToLower(c))
			}
		}
	}
	return last == "chunked"
}

func asciiEqualFold(b []byte, s string) bool {
	return len(b) == len(s) && bytes.EqualFold(b, []byte(s))
}

// dechunk writes the chunk data of a chunked body to w (RFC 9112 section
// 7.1). Chunk extensions and the trailer section are skipped. A body that
// ends early (a truncated download) is written up to where it ends and still
// counts as valid. It returns false if the framing is not chunked encoding.
func dechunk(w io.Writer, body []byte) bool {
	for len(body) > 0 {
		nl := bytes.IndexByte(body, '\n')
		line := body
		if nl >= 0 {
			line = body[:nl]
		}
		size, digits := int64(0), 0
		for _, c := range line {
			var v byte
			switch {
			case '0' <= c && c <= '9':
				v = c - '0'
			case 'a' <= c && c <= 'f':
				v = c - 'a' + 10
			case 'A' <= c && c <= 'F':
				v = c - 'A' + 10
			default:
				v = 255
			}
			if v == 255 {
				break
			}
			if size > (1<<62)>>4 {
				return false // absurd size
			}
			size = size<<4 | int64(v)
			digits++
		}
		if digits == 0 {
			return false
		}
		switch rest := bytes.TrimLeft(line[digits:], " \t"); {
		case len(rest) == 0, rest[0] == ';', len(rest) == 1 && rest[0] == '\r':
		default:
			return false
		}
		if nl < 0 {
			return true // truncated inside the size line
		}
		body = body[nl+1:]
		if size == 0 {
			return true // last-chunk; trailers are not payload
		}
		if int64(len(body)) <= size {
			w.Write(body) // truncated inside the data
			return true
		}
		w.Write(body[:size])
		body = body[size:]
		switch {
		case bytes.HasPrefix(body, []byte("\r\n")):
			body = body[2:]
		case bytes.HasPrefix(body, []byte("\n")):
			body = body[1:]
		case len(body) == 1 && body[0] == '\r':
			return true // truncated inside the CRLF
		default:
			return false
		}
	}
	return true
}
