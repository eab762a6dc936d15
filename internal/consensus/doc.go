// Package consensus merges the findings of several reviewers of the same
// change into one ranked list (seed 003 §13, multi-model review): two
// reviewers found the same thing when they name the same file, line
// ranges that overlap and titles that say nearly the same words. What
// more reviewers agree on comes first, then what is more severe.
//
// It is pure: parsing a reviewer's answer and merging are functions of
// their input, so the review workflow (package review) does the I/O and
// this package is table-tested and fuzzed.
package consensus
