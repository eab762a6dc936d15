//go:build !unix

package project

import "io/fs"

// ownedBy is true where files carry no owner atreides can compare
// (os.Getuid is -1 there).
func ownedBy(fs.FileInfo, int) bool { return true }
