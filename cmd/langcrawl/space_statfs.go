//go:build linux || darwin

package main

import (
	"fmt"
	"syscall"
)

// freeSpace returns the bytes available to an unprivileged user on the
// file system that holds dir.
func freeSpace(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", dir, err)
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}
