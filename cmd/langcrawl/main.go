// Command langcrawl is an archival web crawler that collects the web of one
// language into WARC files. Run `langcrawl help` for its commands.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:]))
}
