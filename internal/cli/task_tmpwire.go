package cli

import "github.com/spf13/cobra"

// Temporary: the task CLI's group command replaces this.
func newTaskCmd(io *IO) *cobra.Command {
	return newGroupCmd("task", "the task board", "The task board.", newTaskSyncCmd(io))
}
