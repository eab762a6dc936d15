// Package demo replays a recorded Claude Code session, event by event,
// through the real `atreides hook claude` process path in a throwaway
// project, so a newcomer can see what atreides does without an agent host.
// [Project] seeds the project and installs Claude Code's hooks into it;
// [Step.Replay] runs one recorded event.
package demo
