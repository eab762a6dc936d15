// Package tmpfstest gives a test a small tmpfs of its own, for testing what
// atreides does when the disk is full. Mounting needs root; anyone else
// gets the test run again in a user and mount namespace of their own,
// where an unprivileged user may mount a tmpfs. Linux only.
package tmpfstest
