// Package claude translates Claude Code's hook protocol: it decodes the JSON
// Claude Code writes to a hook's stdin into an [event.Event] and encodes an
// [event.Decision] into the stdout JSON and exit code Claude Code expects
// for that event.
//
// It also installs atreides into Claude Code's settings.json (Install,
// Uninstall, Inspect), on install's editing machinery.
//
// Claude Code fails open on a hook that crashes, hangs or prints garbage, so
// every block this package writes is an explicit JSON decision.
package claude
