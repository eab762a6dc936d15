// Package install adds atreides' hook handlers to an agent host's settings
// file and removes them again, without ever clobbering what the user has.
//
// The hosts' installers are built on it, in their packages under
// internal/host. The merge machinery in hooks.go works on the three-level
// shape their files share (event → matcher group → handler); a host
// (HookSpec) supplies only its paths, the handler it writes per event, and
// how to recognise that handler. Gemini's timeout is in milliseconds and
// its handlers carry the name "atreides"; Codex runs hooks only once the
// user trusts them, which atreides reports (Report.Notes) but never does
// for them. atreides's MCP server goes into a JSON file's mcpServers
// (MCPFile: Claude Code's .mcp.json, Gemini CLI's settings.json beside the
// hooks) and files edited as text under the same rules (TextFile: Codex's
// config.toml); a file wholly ours is an OwnFile (OpenCode's plugin). The
// hosts' tests share installtest (files, goldens, fake binaries) and
// hooktest (the installers' round-trip suite).
//
// Editing rules:
//
//   - Settings are decoded into an order-preserving document (Node) that
//     remembers where each value was in the text. A write is an edit of that
//     text (Node.EncodeOver, on hujson's syntax tree of it, which keeps every
//     comment and space): what did not change is copied byte for byte,
//     comments, compact arrays and key order included; what atreides adds
//     is written in the layout of its siblings, and removing it again gives
//     back the text it was added to. Duplicate keys are kept; lookups take
//     the last, as the hosts' JSON.parse does, and a duplicate "hooks" key
//     or event name is refused as ambiguous.
//   - A file the host would not read is refused with file:line:col and what
//     to fix: the hosts silently ignore such a file, so "fixing" it for the
//     user would hide that. Comments count as readable only for a host that
//     strips them (Gemini CLI). A file that is empty or whitespace-only
//     counts as {}.
//   - Files meant to be committed name the program `atreides`, found through
//     PATH on every machine (PortableBinary); an absolute path is written
//     only where the caller asks for one (local and user scopes). Each hook
//     command carries the timeout written for it (`atreides hook claude
//     --timeout 10`), from which the hook derives its own deadline.
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
//     in the backup directory (never beside the user's file; see backup.go
//     and BackupDir), and replaces the file atomically (temp file in the
//     same directory, fsync, rename, fsync directory) with its permission
//     bits. A symlinked settings file is edited through the link.
//   - Uninstall of a file still exactly as install left it restores the
//     content from before install byte for byte, or removes the file and
//     the directories install created for it; a file changed since loses
//     only atreides's entries.
package install
