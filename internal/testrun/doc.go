// Package testrun reads the event stream of `go test -json`: Filter
// keeps the stream in a file while printing what a plain `go test`
// would (a line per package, a failing test's output), and Read gives
// each test's outcome, which the feature table's checker
// (test/features, TestFeatureResults) holds against the tests its cells
// name. It is test tooling: tools/testjson runs it for scripts/test, and
// no program of atreides links it.
package testrun
