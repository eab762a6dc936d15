// Package delegation is the engine's delegation handler: limits on every
// delegation to a subagent, whatever the governance setting, and the
// session's registry of delegations.
//
// On the delegating tool call (event.Delegate: Claude Code's Agent/Task,
// OpenCode's task, Gemini CLI's invoke_agent, Codex's spawn_agent) it
// rewrites the target agent type by the configured redirect, refuses a
// delegation that would nest deeper than the limit or put an agent type
// on its own path twice (a cycle), and, when configured, one made while the
// session has no open todo. [Check] is the pure part, shared with the
// background tasks' launches.
//
// The registry (subagents.State) records each subagent when it
// starts: its parent, depth, path of agent types and deadline. On every
// later event of the session, of any agent, a running subagent past its
// deadline is reported once to its parent (through the context
// collector: an event of another agent leaves the report waiting for the
// parent's next event that can carry it), logged as an error, and its
// partial result kept. When it stops, its final message is checked against
// the return object ([ValidateReturn]) if its type must return one, and
// the outcome recorded; problems go to the parent the same way.
package delegation
