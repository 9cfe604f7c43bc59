//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockOut takes an exclusive lock on dir/.lock (flock), without waiting,
// before anything in dir is written: a second crawl on the same directory
// fails at once, naming it, and changes nothing there. The lock goes with
// the process, so a killed crawl leaves none behind. unlock releases it.
func lockOut(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("output directory %s: lock: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("output directory %s is in use by another crawl (it holds %s); stop that crawl or choose another --out: %w", dir, path, errOutBusy)
		}
		return nil, fmt.Errorf("output directory %s: lock %s: %w", dir, path, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
