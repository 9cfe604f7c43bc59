package frontier

import (
	"testing"
	"time"
)

func TestRobotsStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	want := RobotsRecord{Fetched: t0, Expires: t0.Add(time.Hour), Status: 200, Failures: 0, Body: []byte("User-agent: *\nDisallow: /x\n")}
	if err := q.Robots().SaveRobots("http://a.test/robots.txt", want); err != nil {
		t.Fatal(err)
	}
	q.Close()
	q = openDir(t, dir)
	defer q.Close()
	got, ok, err := q.Robots().LoadRobots("http://a.test/robots.txt")
	if err != nil || !ok || !got.Fetched.Equal(want.Fetched) || !got.Expires.Equal(want.Expires) ||
		got.Status != 200 || string(got.Body) != string(want.Body) {
		t.Fatalf("after a restart: %+v, %v, %v; want %+v", got, ok, err, want)
	}
	if _, ok, err := q.Robots().LoadRobots("http://b.test/robots.txt"); ok || err != nil {
		t.Fatalf("unknown robots.txt: %v, %v", ok, err)
	}
}
