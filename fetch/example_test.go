package fetch_test

import (
	"context"
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
