// Package review is atreides's multi-model review (seed 003 §13): the
// same review prompt runs on several reviewers (a host's headless CLI,
// optionally with its model) as background tasks (package background),
// each answers with its findings as JSON, and the findings are merged by
// consensus (package consensus) into one report, markdown and JSON,
// under the task's directory. A reviewer that fails, answers without
// findings JSON or is still running at the review's deadline is named in
// the report, never silently dropped.
//
// A review is a record (.atreides/reviews/runs/<id>.json) of which background
// task each reviewer runs as, so that starting it and collecting it can be
// two calls (an MCP tool call is bounded; the CLI waits in one go). The
// `atreides review` commands, the review_models tool (package agenttools)
// and the /at-review-models command all go through Start and Collect.
package review
