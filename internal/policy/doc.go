// Package policy is the critical engine handler that puts every shell
// command and file access of a tool call through the guard, with the policy
// built from the project's configuration. The same policy judges the shell
// commands atreides runs on its own account (JudgeRun): a plan phase's
// verification and the checks after an edit.
package policy
