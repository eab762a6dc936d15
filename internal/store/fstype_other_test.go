//go:build !linux

package store

func linuxFSType(string) string { return "unknown" }
