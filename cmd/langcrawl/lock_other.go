//go:build !unix

package main

// lockOut does nothing where flock is missing; LevelDB's own lock on the
// frontier still stops a second crawl, but only after it has written
// profile.yaml.
func lockOut(dir string) (unlock func(), err error) { return func() {}, nil }
