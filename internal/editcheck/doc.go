// Package editcheck runs the project's checks after an edit: commands from
// the configuration (context.checks), each for files matching its globs —
// a formatter's check, a linter, a type checker — run after the agent
// writes or edits a matching file, so that what they find reaches the
// model with the tool's result instead of a turn later.
//
// The checks run in the handler's Prepare, before the state lock is taken:
// a check may take seconds, and other sessions' hooks wait for that lock.
// They run one at a time in the project root, within a total budget that
// always ends before the hook's own deadline; each has its own timeout,
// at most what is left. The file is never pasted into the command line:
// {file} and {dir} (project-relative) become "$1" and "$2" of `sh -c`, so
// a name with quotes, blanks or a leading dash is one argument. A check
// whose command names no file runs once per event, one naming only {dir}
// once per directory.
//
// Each command is judged by the guard before it runs, as the agent's own
// shell command would be (Options.Judge, policy.JudgeRun), with the file
// and directory quoted in place: atreides does not run for the agent what
// the guard would refuse it. A check the guard denies or asks about (a
// hook has no one to ask) is skipped and logged once per event; it never
// reaches the model, which cannot change it.
//
// A clean run (exit status 0, and no output when fail_on_output) says
// nothing. A failure's first lines, masked for secrets and stripped of
// control characters (package sanitize), become one High-priority context
// entry per check and file; a timeout is said in one line and logged.
// Files outside the project, and events with no check configured, cost
// nothing beyond a length test.
package editcheck
