// Package doctor checks an installation: each host's settings files and
// its own checks, whether atreides is on PATH, the configuration and its
// trust, task routing, the state store and its quarantine, the task files
// and the project log. It only looks; it repairs nothing. 'atreides
// doctor' prints its [Report]; the hook tells the agent the problems of
// its own host's installation at session start ([InstallProblems]).
package doctor
