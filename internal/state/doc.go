// Package state is the model atreides keeps between hook calls: one
// [Session] per agent session (host, ids, counters, tool-call history) and
// the [Project] record shared by all sessions of a repository (todos).
//
// It only defines the values and their encoding; package store persists
// them and package engine loads and saves them once per event.
package state
