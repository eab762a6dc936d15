// Package session holds the engine handlers that orchestrate an agent
// session. Each works on the session and project state the engine loads
// once per event; none touches the store, and the only file I/O is the
// rules file (opened per SessionStart, read when it changed; the host's own
// instruction file is looked for when it is missing), the tail of the
// transcript when a stop block is due, and the transcript's usage figures
// (package usage) for the context monitor.
//
//   - [Recorder] keeps counters and tool-call history (runs last).
//   - [PhaseTracker] infers the workflow phase from the tool stream: a user
//     prompt is intent; the first three read-only calls after it are
//     assessment, later ones exploration; a call that changes files is
//     implementation; a test, build or lint run after a change is
//     verification (before any change it counts as a read). Reads never
//     leave implementation or verification, to avoid flapping. Unknown,
//     MCP and todo tools say nothing. Shell commands are read through the
//     guard's one shell model (shellcall.Effects): a command changes files
//     when it certainly writes one (redirections, tee, sed -i, rm, cp, git
//     commit/apply/checkout/..., formatters with -w/--write/--fix, ...) and
//     verifies when it runs go test/vet/build, npm|yarn|pnpm test/lint/build
//     (and run scripts named so), pytest, cargo test/build/check/clippy,
//     make, tsc, eslint, golangci-lint and similar. Every wrapper the guard
//     unwraps (sudo, env, timeout, npx, bash -c, ...) is looked through.
//     Every transition is recorded;
//     context is offered on every prompt and after a call only when the
//     phase changed. A prompt is classified (package prompt: question, bug
//     fix, feature, refactor, review, research, chore) and its class, kept
//     in the work group, adds its own guidance to the phase line. The
//     tracker also counts, for every agent, the calls that changed source
//     files of the project since the last verification.
//   - [VerifyGate] holds back a stop once per batch of such changes, after
//     the stop gate (one block per stop; open todos come first), never in a
//     subagent, after an interrupt or when the agent asks the user.
//   - [Keywords] adds a keyword mode's block when the user's prompt names
//     one of its keywords in prose, and gives the first prompt of a
//     session the configured model variant (OpenCode).
//   - [Strikes] counts consecutive failures per tool and normalized target
//     (command without output filters, or path), recognised from
//     PostToolUseFailure, and from unambiguous markers in a shell call the
//     host counted as a success (`go test | tail`). The error catalogue in
//     errors.go (compiled on first use) names the class. Strike 2 adds fix
//     suggestions, strike 3 an escalation to the oracle with the error
//     history, after which the target's count starts again; a success on
//     the target clears it. An interrupt is not a strike.
//   - [TodoTracker] mirrors TodoWrite's list; [StopGate] blocks a stop while
//     todos are open (atreides's own, TodoWrite's, unchecked boxes in the
//     last message) and is loop-safe: see its documentation.
//   - [Memory] makes anchors from "remember:", "decision:" and
//     "constraint:" prompts, snapshots the session on PreCompact and
//     re-injects one budgeted state block on SessionStart(compact), led by
//     the intent the session holds (goal, scope, constraints, acceptance
//     criteria, read from .atreides/intents.yaml at that moment).
//   - [Monitor] reads how full the agent's context window is (package
//     usage: the host's own figures, the transcript's tail) on PostTool
//     and UserPrompt, and at each threshold tells the agent once (again
//     after a compaction) what to do: finish its step and record anchors,
//     and at the last one wrap up and have the context compacted, with
//     the held intent re-read into the note and the compaction snapshot
//     taken then too. Unknown figures say nothing.
//   - [StartContext] injects identity, open todos and AGENTS.md (cached by
//     mtime and size, checked, never read through a link out of the
//     project) within Claude Code's 10,000-character cap. Without AGENTS.md
//     a host that reads its own instruction file (CLAUDE.md) gets no rules
//     from atreides; otherwise the defaults, and the user is told once.
//     The identity names only agents the host has (the event's host facts,
//     event.HostFacts, which the host's adapter attaches).
//   - [Health] runs quick set-up checks when a session starts or resumes
//     (the state here; the configuration and the host's installation are
//     checks the caller passes in) and tells the user once, not at every
//     event.
//
// What is detectable about a user interrupt: Claude Code does not fire Stop
// when the user interrupts a turn; PostToolUseFailure carries is_interrupt,
// which the event does not expose yet, so the error text is matched
// ("interrupted by user"); and the transcript's last user entry is checked
// for "[Request interrupted by user" before a block. Notification events are
// not installed by default and are not used.
package session
