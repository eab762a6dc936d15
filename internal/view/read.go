package view

import (
	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/ctxbudget"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/subagents"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/todos"
)

// The feature groups of a session's and a project's records are read
// here and nowhere else in the package: the features own these groups,
// and when how a group is stored changes, this file is the one to follow.

func readHistory(s *state.Session) history.Calls              { return *history.Key.Read(s) }
func readPhase(s *state.Session) *phase.State                 { return phase.Key.Read(s) }
func readContextBudget(s *state.Session) *ctxbudget.State     { return ctxbudget.Key.Read(s) }
func readStrikes(s *state.Session) []strikes.Strike           { return strikes.Key.Read(s).Targets }
func readAgentTodos(s *state.Session) []agenttodos.Todo       { return agenttodos.Key.Read(s).Agent }
func readStop(s *state.Session) session.StopState             { return *session.StopKey.Read(s) }
func readCompaction(s *state.Session) *compaction.Snapshot    { return compaction.Key.Read(s).Snapshot }
func readDelegations(s *state.Session) []subagents.Delegation { return subagents.Key.Read(s).Agents }
func readTask(s *state.Session) *tasks.SessionTask            { return tasks.SessionTaskKey.Read(s) }
func readTodos(p *state.Project) []todos.Todo                 { return todos.Key.Read(p).List }
func readAnchors(p *state.Project) []anchors.Anchor           { return anchors.Key.Read(p).List }
func readBackground(p *state.Project) *bgtasks.Background     { return bgtasks.Key.Read(p) }
func readGovernance(p *state.Project) *govstate.Governance    { return govstate.Key.Read(p) }
func readTasks(p *state.Project) *taskboard.Tasks             { return taskboard.Key.Read(p) }
