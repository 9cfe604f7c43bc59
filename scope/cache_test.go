package scope

import (
	"fmt"
	"sync"
	"testing"
)

func TestCacheAgreesWithCanonicalize(t *testing.T) {
	inputs := []string{
		"http://Example.COM/a/../b?x=1#frag",
		"https://example.com:443/",
		"http://例え.jp/パス",
		"ftp://example.com/",   // scheme error
		"http://exa mple.com/", // host error
		"not a url",
	}
	c := NewCache(16)
	for round := 0; round < 3; round++ { // misses, then hits and evictions
		for _, in := range inputs {
			want, wantErr := Canonicalize(in)
			got, gotErr := c.Canonicalize(in)
			if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
				t.Fatalf("round %d %q: error %v, want %v", round, in, gotErr, wantErr)
			}
			if wantErr == nil && got.String() != want.String() {
				t.Fatalf("round %d %q: %s, want %s", round, in, got, want)
			}
		}
	}
	if hits, misses := c.Stats(); hits == 0 || misses < int64(len(inputs)) {
		t.Errorf("hits %d misses %d: the cache answered nothing, or everything", hits, misses)
	}
}

func TestCacheIsBounded(t *testing.T) {
	c := NewCache(8)
	for i := 0; i < 100; i++ {
		if _, err := c.Canonicalize(fmt.Sprintf("http://example.com/%d", i)); err != nil {
			t.Fatal(err)
		}
		if n := c.m.Len(); n > 8 {
			t.Fatalf("after %d links the cache holds %d entries, size 8", i+1, n)
		}
	}
	// The most recent links are still there.
	c.Canonicalize("http://example.com/99")
	if h, _ := c.Stats(); h != 1 {
		t.Errorf("the last link was evicted (hits %d)", h)
	}
}

func TestCacheReturnsCopies(t *testing.T) {
	c := NewCache(0)
	u, err := c.Canonicalize("http://example.com/a")
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/changed"
	again, _ := c.Canonicalize("http://example.com/a")
	if again.Path != "/a" {
		t.Fatalf("a caller's change reached the cache: %s", again)
	}
	if h, _ := c.Stats(); h != 1 {
		t.Fatalf("second lookup was not a hit (hits %d)", h)
	}
}

func TestCacheConcurrent(t *testing.T) {
	c := NewCache(64)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				raw := fmt.Sprintf("http://h%d.example/p%d", i%40, i%97)
				u, err := c.Canonicalize(raw)
				if err != nil || u.String() != raw {
					t.Errorf("%s: %v %v", raw, u, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestNilCache(t *testing.T) {
	var c *Cache
	u, err := c.Canonicalize("HTTP://EXAMPLE.com")
	if err != nil || u.String() != "http://example.com/" {
		t.Fatalf("nil cache: %v %v", u, err)
	}
}
