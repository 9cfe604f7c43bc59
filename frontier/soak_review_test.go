package frontier

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syndtr/goleveldb/leveldb/util"
)

// TestSoakReviewRobotsRecordsPruned (from a soak review): the robots.txt
// outcomes kept in the frontier (RobotsStore) are there so that a restart
// does not fetch a robots.txt again before it expires (24 h); once expired,
// a success is never read again (politeness.Gate.restore fetches anew).
// Nothing deletes them: the table holds every robots.txt of every origin
// the crawl ever met, body and all (up to 500 KiB each), while the site
// records of the same hosts go once their queues are empty. On a crawl of
// many hosts with few pages each the table outweighs the rest of the
// frontier, and grows for as long as the crawl meets new hosts.
//
// Four days of a crawl meeting 1,500 new hosts a day, a 4 KiB robots.txt
// each, a restart between days: on the fourth, 1,500 records are live; a
// store that keeps the expired ones for a day more (a run of failures, a
// host met again) holds 3,000 at most. It held all 6,000 (24 MB of bodies)
// before.
func TestSoakReviewRobotsRecordsPruned(t *testing.T) {
	dir := t.TempDir()
	const perDay, days = 1500, 4
	body := []byte("User-agent: *\n" + strings.Repeat("Disallow: /private/section/\n", 4096/28))
	for day := range days {
		q := openDir(t, dir)
		at := t0.Add(time.Duration(day) * 24 * time.Hour)
		st := q.Robots()
		for i := range perDay {
			u := fmt.Sprintf("https://h%d-%d.example.test/robots.txt", day, i)
			rec := RobotsRecord{Fetched: at, Expires: at.Add(24 * time.Hour), Status: 200, Body: body}
			if err := st.SaveRobots(u, rec); err != nil {
				t.Fatal(err)
			}
		}
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
	}
	q := openDir(t, dir)
	defer q.Close()
	n, bytes := 0, 0
	it := q.db.NewIterator(util.BytesPrefix([]byte{tRobots}), nil)
	for it.Next() {
		n++
		bytes += len(it.Value())
	}
	it.Release()
	t.Logf("after %d days of %d new hosts: %d robots records, %d KB", days, perDay, n, bytes/1000)
	if n > 2*perDay {
		t.Errorf("%d robots.txt records kept (%d KB), %d of them expired a day or more ago: the table grows with every host the crawl ever met",
			n, bytes/1000, n-2*perDay)
	}
}
