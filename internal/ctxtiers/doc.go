// Package ctxtiers loads the project's context files by tier (004 §7,
// three-tier loading): what /at-meta writes under .atreides/context/core/
// (reusable: standards, workflows, the system's routing rules) and
// .atreides/context/project/ (this project's domain), each tier within a
// budget of its own (context.tiers):
//
//   - the lead agent's minimal set at session start: the .md files at the
//     top of core/ and project/;
//   - a command's targeted set when the user runs a slash command
//     (/at-NAME, seen at UserPromptSubmit): commands/NAME.md and the .md
//     files of commands/NAME/, under core/ then project/;
//   - an agent's domain set when a roster agent starts: agents/ID.md and
//     agents/ID/, at SubagentStart where the host has the event, else at
//     the first tool call of the agent (an event that carries its agent's
//     id), and at the start of a background task's own session.
//
// Why a layout by path and no front matter: the agent that writes the
// files (/at-meta) and the user who reads them see at once which tier a
// file belongs to, and a folder is loaded whole or named; topic folders
// (core/standards/, project/lean4/) are loaded by none and read on demand.
//
// Whole files only, core before project, in name order; a file that does
// not fit in what is left of the tier's budget is named in one short line
// so the agent can read it itself ([ctxbudget.Fit]). Each set goes once
// per session (per agent run for an agent's set) and content: a file
// edited since comes again; a compaction forgets what was delivered.
//
// The files are written by an agent, so they are context, never
// authority: nothing in them configures atreides or changes a policy;
// they are framed as facts for the agent; secrets in them are masked;
// each file is bounded (maxFile) and so is the number read (maxFiles); a
// link or anything but a regular file is refused through package
// confined and logged once, never followed. A tier that cannot be read
// fails open: the agent gets what could be read, the log says why.
package ctxtiers
