package shell

// Command is one simple command as the walk resolved it: wrappers
// (sudo, env, timeout, xargs, sh -c ...) unwrapped, words expanded.
type Command struct {
	// Name is the program's name as rules match it (/usr/bin/RM.exe is
	// rm), or what the walk names a part of a program by ("git commit").
	Name string
	Args []Word // the arguments after the name
	// Stream is set when arguments are appended from stdin at run time
	// (xargs, parallel), so Args is incomplete.
	Stream bool
	// Stdin is set when data is piped or redirected into the command.
	Stdin bool
	// Scope is the shell state the command runs in: its working
	// directory, variables and positional parameters.
	Scope *Scope
}
