// Package opencode ships the atreides OpenCode plugin (atreides.ts) inside
// the atreides binary, for `atreides install opencode` and `atreides
// install kilo` (Kilo Code runs the same file).
package opencode

import _ "embed"

// Source is the plugin's TypeScript source as committed.
//
//go:embed atreides.ts
var Source string

// BinLine is the line of Source that install replaces to name the binary.
const BinLine = `const DEFAULT_BIN = ""`
