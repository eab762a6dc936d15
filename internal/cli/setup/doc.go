// Package setup holds the commands that put atreides in place and check
// it: init, install and uninstall, doctor, config and trust.
package setup
