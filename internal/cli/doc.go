// Package cli is the atreides command line: it parses arguments, wires the
// packages together and maps errors to the documented exit codes. The hook
// path is kept short because it runs on every agent event.
package cli
