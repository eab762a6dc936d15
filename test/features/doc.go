// Package features holds the feature table: which feature works on which
// host, and the tests that prove it. The table is Go (table_test.go), one
// line per feature and host, naming test functions; its tests check that
// every named test exists and that docs/features.md and the README's
// "Hosts" summary are what the table generates, so neither can claim what
// no test proves. TestFeatureResults holds the table against a run's
// results (go test -json, the file $ATREIDES_TEST_RESULTS names, which
// scripts/test sets after its tests stage): every test a ✓, ○ or ✗ cell
// names must have passed there.
//
// After changing the table (or when a check says the files drifted):
//
//	go test ./test/features/ -run TestFeatureTable -update
//
// It is test support only, linked into no binary, and runs no host: it
// reads the test files with go/parser, so it is fast and needs nothing
// installed.
package features
