// Package reviews holds the 'review' commands: a multi-model review run on
// every configured reviewer through the background runner, and its merged
// report (package review does the work). A group of its own: the work
// group is at its ceiling of imported packages.
package reviews
