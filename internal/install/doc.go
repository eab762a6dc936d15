// Package install adds atreides' hook handlers to an agent host's settings
// file and removes them again, without ever clobbering what the user has.
//
// Claude Code (InstallClaude, UninstallClaude, InspectClaude), Gemini CLI
// (InstallGemini, ...) and Codex (InstallCodex, ...) are supported. The
// merge machinery in hooks.go works on the three-level shape their files
// share (event → matcher group → handler); a host (hostSpec) supplies only
// its paths, the handler it writes per event, and how to recognise that
// handler. Gemini's timeout is in milliseconds and its handlers carry the
// name "atreides"; Codex runs hooks only once the user trusts them, which
// atreides reports (Report.Notes) but never does for them.
//
// Editing rules:
//
//   - Settings are decoded into an order-preserving document (Node): key
//     order, number literals (1e3, 12345678901234567890) and the original
//     escapes of strings come back out unchanged. Output uses the file's own
//     indentation, line endings and final newline when they can be detected,
//     else two spaces; a file already in that layout round-trips byte for
//     byte. Duplicate keys are kept; lookups take the last, as the hosts'
//     JSON.parse does, and a duplicate "hooks" key or event name is refused
//     as ambiguous.
//   - A file that is not strict JSON (comments, trailing commas, BOM) is
//     refused with file:line:col and what to fix: the hosts silently ignore
//     such a file, so "fixing" it for the user would hide that. A file that
//     is empty or whitespace-only counts as {}.
//   - Our handlers are recognised by their command (program named atreides,
//     arguments starting "hook <host>"), never by position. Install appends
//     our group at the end of each event's list, updates an existing handler
//     of ours in place (a new binary path never duplicates it), removes
//     duplicates of ours and our handlers under events no longer wanted, and
//     changes the matcher only of a group that holds nothing but our handler.
//   - Uninstall removes only our handlers, then the groups, event lists and
//     "hooks" object that this removal emptied. Containers the user left
//     empty stay. (Consequence: if the user had "hooks": {} before install,
//     uninstall leaves no "hooks" key; both mean the same to the host.)
//   - No semantic change means no write at all. A write validates the
//     output by decoding it again, refuses if the file changed on disk since
//     it was read (hosts write these files too), keeps the previous content
//     as <file>.atreides-backup (only the latest: every state atreides
//     produces can be recreated by install or uninstall, the backup is for
//     the user's own last version), and replaces the file atomically (temp
//     file in the same directory, fsync, rename, fsync directory) with its
//     permission bits. A symlinked settings file is edited through the link.
package install
