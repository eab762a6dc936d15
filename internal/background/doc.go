// Package background owns atreides's background tasks: work an agent hands
// to another agent that runs beside it (background_task, delegate_task),
// queued per concurrency key, started by a runner for the host (a headless
// CLI child process, or an OpenCode child session), detected complete, and
// reported to the agent that launched it in one batched notification.
//
// The registry is project state (bgtasks.Background, updated inside the
// store's transactions); the functions here are the pure rules over it:
// which queued task starts next (FIFO per key within its limit), what a
// finish, cancel or lost runner does, and when the parent is told. The
// runners and the tools that call these rules do the I/O.
package background
