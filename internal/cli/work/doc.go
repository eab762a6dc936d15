// Package work holds the commands over a project's work items and the
// view of them: todo, task, plan, errors, anchor, bg, and status, which
// shows a session's todos, anchors and background tasks with the same
// printers.
package work
