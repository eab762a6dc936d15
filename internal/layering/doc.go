// Package layering holds the rules of the house's shape, in the style of
// the Go tree's go/build/deps_test.go: which packages may depend on which
// (event is a leaf; the engine and the state never reach a feature; the
// features never reach the command line, the installer or the hosts; the
// companions' heavy dependencies never reach the hook binary), and the
// figures the architecture is held to (what the command line imports,
// how large a type and how complex a function may grow), and the command
// line's shape (one command a file, groups wired in by its root alone).
// Where host names may be written is held by internal/host/all's
// TestHostLiterals. It has no code of its own: its tests read the
// module with `go list` and go/parser and fail, naming the offender and
// the rule, when a change breaks the shape.
package layering
