// Package readme runs the install lines of the repository's README.md the
// way a user would, so that the README cannot promise an install that does
// not work.
//
// Every fenced block whose info string is `sh install-test` runs with
// bash -e (each line traced) in a scratch HOME, XDG directories and npm
// cache and prefix, from a scratch git project. The published sources the
// lines name (the npm registry, GitHub's releases, the Claude Code
// marketplace and the Gemini CLI extension repositories) are not reachable
// from a test, so the test maps each one explicitly to what
// `scripts/release --snapshot` wrote into $ATREIDES_RELEASE_DIST: a fake
// npm registry and release server on 127.0.0.1, and the dist's plugin
// folders. Then it checks the effect of each block: atreides on PATH
// answers `version`, the project has the hooks, the host lists the plugin.
//
// Without ATREIDES_RELEASE_DIST the test skips and says why; under CI or
// ATREIDES_E2E_REQUIRE=1 it fails instead. The README's `go install` line
// is not marked: test/goinstall builds it from a module proxy made of the
// checkout, and this package checks only that the line names this module.
package readme
