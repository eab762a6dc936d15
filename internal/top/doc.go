// Package top is `atreides top`: a terminal view of a project's live
// sessions (their phase, counters, open todos and background tasks), the
// newest decisions of the audit trail and the background tasks not yet
// ended, updating as hooks run, driven from the keyboard (j/k or the
// arrows to move, enter to open a session's recent calls and decisions,
// / to filter, esc or q to go back or quit, ? for help).
//
// It is a Bubble Tea program (charm.land/bubbletea/v2) linked only into
// the atreides-ui companion, never into the hook binary. It reads the
// dashboard's read model (package view, through dashboard.Server's shared
// snapshots) and learns of changes from the dashboard's own watcher
// (dashboard.Server.Watch), so the terminal and the page show one model
// and a project has one watcher.
//
// The model ([Model]) is pure, as Bubble Tea models are: loads run as
// commands off the update loop and come back as messages, so tests feed
// it messages and read its view.
package top
