package webgen_test

import (
	"fmt"
	"io"
	"net/http"

	"github.com/langcrawl/langcrawl/webgen"
)

// Generate a small web and look at its ground truth.
func ExampleGenerate() {
	g, err := webgen.Generate(webgen.DemoDefaults())
	if err != nil {
		panic(err)
	}
	seeds := g.Seeds()
	dist := g.Distances(seeds)
	home, _ := g.Lookup("http://th-redirect.test/")
	fmt.Println("seed is Thai:", g.Page(seeds[0]).Target)
	fmt.Println("special host distance:", dist[home])
	tr, _ := g.Truth("http://th-robots.test/private/1.html")
	fmt.Println("private page disallowed:", tr.Disallowed)
	// Output:
	// seed is Thai: true
	// special host distance: 1
	// private page disallowed: true
}

// Serve the demo web on loopback and fetch a page through DialContext,
// which sends every .test host to the listener.
func ExampleServer_Listen() {
	g, err := webgen.Generate(webgen.DemoDefaults())
	if err != nil {
		panic(err)
	}
	s := webgen.NewServer(g, webgen.ServerOptions{})
	srv, ln, err := s.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go srv.Serve(ln)
	defer srv.Close()

	client := &http.Client{Transport: &http.Transport{DialContext: webgen.DialContext(ln.Addr().String())}}
	resp, err := client.Get("http://th-robots.test/robots.txt")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Print(resp.StatusCode, "\n", string(body))
	fmt.Println(len(s.Log()), "request logged")
	// Output:
	// 200
	// # webgen
	// User-agent: *
	// Disallow: /private/
	// 1 request logged
}
