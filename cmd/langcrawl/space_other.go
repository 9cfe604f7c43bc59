//go:build !linux && !darwin

package main

import "errors"

// freeSpace is not known on this system: the free-space watch is off.
func freeSpace(string) (int64, error) { return 0, errors.ErrUnsupported }
