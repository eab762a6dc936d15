// Package setup holds the commands that put atreides in place and check
// it: install and uninstall, doctor, config, trust, and check (the
// guard's verdict on one command).
package setup
