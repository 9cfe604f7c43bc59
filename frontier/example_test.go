package frontier_test

import (
	"fmt"
	"time"

	"github.com/langcrawl/langcrawl/frontier"
	"github.com/syndtr/goleveldb/leveldb/storage"
)

func Example() {
	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage()})
	if err != nil {
		panic(err)
	}
	defer q.Close()

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	q.PushMany([]frontier.Entry{
		{URL: "http://a.example/", Site: "a.example"},
		{URL: "http://b.example/", Site: "b.example"},
		{URL: "http://b.example/x", Site: "b.example", Depth: 1},
	})
	for {
		l, wait, err := q.Next(now)
		if err == frontier.ErrEmpty {
			break
		}
		if l == nil {
			now = now.Add(wait) // a real worker sleeps here
			continue
		}
		fmt.Println(now.Format("15:04:05"), l.Entry.URL)
		q.Complete(l, frontier.Completion{
			NotBefore: now.Add(15 * time.Second), // w = 15 s, as in Castillo et al.
			Tally:     []frontier.Tally{{Key: l.Entry.Site, Relevant: true}},
		})
	}
	c, _ := q.Counts("b.example")
	fmt.Println("b.example:", c.Downloaded, "downloaded,", c.Relevant, "relevant")
	// Output:
	// 00:00:00 http://b.example/
	// 00:00:00 http://a.example/
	// 00:00:15 http://b.example/x
	// b.example: 2 downloaded, 2 relevant
}
