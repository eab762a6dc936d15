// Package tasks owns the project's task system: tasks with a lifecycle,
// claims and dependencies, plans and research reports, and the error log,
// shared by people and agents.
//
// The board (taskboard.Tasks) lives in the project's state store, the one
// authoritative copy, changed in one store transaction per change. The
// files under the specs directory (TODO.md for people, state.json for
// machines, errors.json) are generated from it after every change and
// are never parsed back as truth: a hand edit of TODO.md is detected by
// its hash, kept aside and reported, never merged.
package tasks
