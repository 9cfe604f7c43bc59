package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/langcrawl/langcrawl/fetch"
)

func ExampleClient_Do() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Date", "Mon, 02 Jan 2006 15:04:05 GMT")
		fmt.Fprint(w, "<p>สวัสดี</p>")
	}))
	defer srv.Close()

	cfg := fetch.DefaultConfig()
	// Send every host name to the test server, like curl --connect-to.
	cfg.ConnectTo = map[string]string{"*": srv.Listener.Addr().String()}
	c, err := fetch.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	res, err := c.Do(context.Background(), "GET", "http://www.example.th/", http.Header{"Accept-Encoding": {"gzip"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	payload, err := res.Payload(1 << 20)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.IP, res.Truncated == "")
	// The header block exactly as received, CRLFs included.
	for _, line := range strings.SplitAfter(string(res.RawResponse[:res.BodyOffset]), "\r\n") {
		if line != "" {
			fmt.Printf("%q\n", line)
		}
	}
	fmt.Println(string(payload))
	// Output:
	// 200 127.0.0.1 true
	// "HTTP/1.1 200 OK\r\n"
	// "Content-Type: text/html; charset=utf-8\r\n"
	// "Date: Mon, 02 Jan 2006 15:04:05 GMT\r\n"
	// "Content-Length: 25\r\n"
	// "\r\n"
	// <p>สวัสดี</p>
}

// The address guard refuses a link to an internal address before
// connecting; Config.AllowAddresses opens named classes or prefixes.
func ExampleConfig_allowAddresses() {
	c, err := fetch.New(fetch.DefaultConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	for _, u := range []string{"http://0x7f.1:6379/", "http://169.254.169.254/latest/meta-data/", "http://[::ffff:10.0.0.1]/"} {
		_, err := c.Do(context.Background(), "GET", u, nil)
		var ae *fetch.AddressError
		fmt.Println(errors.Is(err, fetch.ErrAddressRefused), errors.As(err, &ae) && ae.Class != "")
		fmt.Println(err)
	}

	// An intranet crawl may open the private ranges, or some of them.
	cfg := fetch.DefaultConfig()
	cfg.AllowAddresses = []string{"private", "100.64.0.0/16"}
	if _, err := fetch.New(cfg); err != nil {
		fmt.Println(err)
	}
	// Output:
	// true true
	// fetch http://0x7f.1:6379/: fetch: address refused: 0x7f.1 is a loopback address
	// true true
	// fetch http://169.254.169.254/latest/meta-data/: fetch: address refused: 169.254.169.254 is a link-local address
	// true true
	// fetch http://[::ffff:10.0.0.1]/: fetch: address refused: ::ffff:10.0.0.1 is a private address
}
