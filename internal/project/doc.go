// Package project finds the repository a hook or command works on and owns
// the files atreides keeps there: the `.atreides/` directory and its log.
// It also keeps the one list that is about all of them, the projects the
// user has run atreides in ([Remember], [Known]; `atreides ui --all`), in
// the user's state directory ([UserStateDir]).
package project
