package tasks_test

// The test binary's processes read and write records as the program's do,
// with every feature's state key (package statekeys), not only those of the
// groups a test has used before it loads.
import _ "github.com/atreides-dev/atreides/internal/statekeys"
