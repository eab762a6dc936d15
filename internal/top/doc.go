// Package top is `atreides top`: a terminal view of a project's live
// sessions (their phase, counters, open todos and background tasks), the
// newest decisions of the audit trail and the background tasks not yet
// ended, updating as hooks run, driven from the keyboard (j/k or the
// arrows to move, enter to open a session's recent calls and decisions,
// / to filter, esc or q to go back or quit, ? for help).
//
// It reads the dashboard's read model (package view, through
// dashboard.Server's shared snapshots) and learns of changes from the
// dashboard's own watcher (dashboard.Server.Watch), so the terminal and
// the page show one model and a project has one watcher.
//
// It is a Bubble Tea program (charm.land/bubbletea/v2) linked only into
// the atreides-ui companion, never into the hook binary. Bubble Tea
// rather than tview: its models are pure values (Update and View are
// table-tested without a terminal) and it renders only what changed; v2
// rather than v1: the maintained major version, with keys told apart
// (esc, alt+key) and the alternate screen set by the view, and no
// styling library needed beside it (the few styles are SGR codes here).
//
// Decided where the issue is silent: the working directory's project,
// or with --all every project atreides knows when top starts (as
// 'atreides ui --all'; a project first seen later needs a restart); no
// --once or --json snapshot (atreides status is the one-shot view, with
// --json); refused without a terminal on stdin and stdout (exit 2 from
// atreides top), since a key-driven screen written to a pipe helps no
// one; the agent may not run it (self.command, like atreides ui): it
// would hold the agent's shell until its timeout.
//
// The model ([Model]) is pure, as Bubble Tea models are: loads run as
// commands off the update loop and come back as messages, so tests feed
// it messages and read its view.
package top
