// Package release tests what scripts/release made, as a user gets it:
// the linux-amd64 archive's programs, and the npm packages installed
// offline into an empty prefix. Run it after a snapshot:
//
//	scripts/release --snapshot --targets linux/amd64 --out /tmp/dist
//	ATREIDES_RELEASE_DIST=/tmp/dist go test ./test/release/
//
// Without ATREIDES_RELEASE_DIST the tests skip, saying why, or fail
// under ATREIDES_E2E_REQUIRE=1 (scripts/test sets both). They need node
// and npm on PATH and no network: npm is pointed at a registry that
// cannot answer.
package release
