package cli

// runArgs runs one command line in process and returns the command's
// error, before it is mapped to an exit code.
func runArgs(io *IO, args []string) error {
	_, err := execute(io, args)
	return err
}
