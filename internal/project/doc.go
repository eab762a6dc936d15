// Package project finds the repository a hook or command works on and owns
// the files atreides keeps there: the `.atreides/` directory and its log.
package project
