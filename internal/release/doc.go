// Package release builds atreides's release: every program of cmd/ for
// each target, stamped with the version, commit and commit date
// (internal/buildinfo); one archive per target holding all programs
// together with the LICENSE and README; the npm packages; and
// checksums.txt over everything a user downloads. tools/release is its
// command line and scripts/release the script people run.
//
// The output directory is laid out as follows (version without its "v"):
//
//	dist/.atreides-release                 marker: the directory may be wiped
//	dist/bin/<os>-<arch>/<program>[.exe]   the builds, read by the plugin packager
//	dist/atreides_<version>_<os>_<arch>.tar.gz (.zip for windows)
//	dist/npm/*.tgz                         main and platform npm packages
//	dist/checksums.txt                     sha256sum format, sorted
//
// Why a script of our own rather than GoReleaser: GoReleaser's npm
// support publishes a package that downloads the binaries in a
// postinstall, which we refuse (an install must fetch nothing beyond
// the npm tarballs, and must work offline from a cache), and it cannot
// lay out the Claude Code plugin and Gemini CLI extension directories,
// so a program of ours would exist anyway. What remains (cross builds,
// tar/zip, sha256) is a few hundred lines of the standard library, with
// no tool to pin and download.
//
// Builds are reproducible: -trimpath, CGO_ENABLED=0, the date stamped is
// the commit's (not the clock's), and archive entries carry that date as
// their mtime with fixed modes (0755 programs, 0644 the rest) and no
// owner.
package release
