// Package ptytest gives a test a pseudo-terminal (/dev/ptmx, Linux only):
// the terminal side for the command under test, the master side for the
// test, which reads what the command draws with bounded reads and waits,
// within a bound, for text to appear. For the commands that behave
// differently at a terminal: init's questions, atreides top.
package ptytest
