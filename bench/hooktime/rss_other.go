//go:build !unix

package main

import "os"

// maxRSS is not measured where the OS does not report it through rusage.
func maxRSS(*os.ProcessState) int64 { return 0 }

func selfRSS() int64 { return 0 }
