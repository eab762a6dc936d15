// Package initplan is what 'atreides init' does, apart from its questions:
// the preset's install (what it leaves out, Skip), writing the preset into
// the project's configuration and trusting it, and the preview of it all:
// the same work run first on a scratch copy of the files it touches, whose
// changes are what init shows before it applies them for real.
package initplan
