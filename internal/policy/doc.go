// Package policy is the critical engine handler that puts every shell
// command and file access of a tool call through the guard, with the policy
// built from the project's configuration.
package policy
