// Package slash owns atreides's slash commands (task, research, plan,
// implement, revise, review, todo, errors, meta, which hosts show as
// /at-task, /at-plan... so that none has the name of a host's own command:
// [NamePrefix]): their text, defined once as one markdown file per command
// under text/, and how that text is spelt for one host.
//
// A command is a prompt: the host expands it with what the user typed
// after the command and hands it to the agent, which parses the arguments
// as the text says (with the exact error text for missing or wrong ones)
// and acts through the atreides command line, which every host's agent
// can run in its shell, or atreides's tools. The text names the user's
// arguments $ARGUMENTS and a tool {{tool:NAME}}; [Command.Body] replaces
// both with the host's own spelling (Gemini CLI's {{args}}, the host's
// name of an MCP tool). Where the files go and in which format is the
// host registry's (internal/host/all) and the installer's (internal/install).
//
// A project adds commands of its own, or replaces one of atreides's, as
// markdown files of the same form in .atreides/commands ([ForProject]; /meta
// writes them there), and `atreides install` spells them for each host
// like atreides's own.
//
// The texts avoid what a host would expand by itself in a command file:
// shell injection (!`…`, !{…}), file references (@path) and positional
// arguments ($1); a test holds them to that.
package slash
