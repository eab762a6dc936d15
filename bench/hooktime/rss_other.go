//go:build !linux

package main

import (
	"errors"
	"os/exec"
)

// trueRSS reports whether peakRSS measures the process's own peak: not
// here (see rss_linux.go); the reports print "-".
const trueRSS = false

func peakRSS(*exec.Cmd) (memory, error) {
	return memory{}, errors.New("a process's own peak RSS is measured on Linux only")
}
