// Package outputs keeps large tool outputs from filling the agent's
// context. After a shell, search, fetch or MCP tool ran, an output longer
// than its cap is cut to its first whole lines (a search's file headings
// and a command's first lines stay at the top), the cut says how many
// lines and bytes went, and the whole output is saved under
// .atreides/outputs/ with its path in the message, so the agent can read
// on with offset and limit, or search it.
//
// The cap is the tool's limit from the configuration (context.output),
// and at most half of the context room the agent has left when the host's
// usage figures tell it ([Options.Room]). The adapter puts the cut output
// back in the host's own shape (event.Result.ReplaceOutput), on hosts and
// for tools that let a hook replace an output (event.Event.ReplacesOutput).
// Where the host already saved the whole output itself and sent only its
// start (event.Event.OutputFile), the cut is made from that file.
//
// The work is done before the state lock is taken and never fails the
// event: on any error the output stays as it was and the project log
// says why. The saved outputs are bounded by count and size, oldest
// removed first.
package outputs
