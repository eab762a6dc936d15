// Package agents owns atreides's agent roster and skills, defined once.
//
// The roster (Muad'Dib the lead agent, Stilgar the oracle, Explore,
// Librarian, Build, Plan, and whatever a project adds) is configuration:
// its defaults are the top-level agents section of internal/config's
// defaults.yaml, and a user or project file changes any field of one agent,
// adds agents under new ids or turns one off (enabled: false). [FromConfig]
// turns that section into a [Roster] and checks what the loader cannot
// check field by field: a layer may set a single field of an agent, so
// completeness (a description and a prompt) is judged on the merged value.
//
// What an agent may do is a small host-neutral vocabulary ([Tools]:
// read-only, read-web, plans-only, full) that each host's installer
// (internal/install) spells in its own tool names. How a host calls an
// agent, where its agent files live and which forms it supports are facts
// of the host registry (internal/host/all), not of this package.
//
// Skills are markdown files <dir>/<name>/SKILL.md with a front matter of
// name and description ([ParseSkill]); [LoadSkills] finds them by name in
// .atreides/skills first, then in the directories the caller adds (the
// hosts' own skill folders). Skills attached to an agent reach it when it
// runs: on hosts with a subagent-start event (Claude Code, Codex, and
// OpenCode's child sessions) through [SkillsHandler]'s context entries,
// once per agent run and within a byte budget; on the others, and for the
// agents OpenCode's plugin injects, they are part of the agent's prompt as
// installed or injected ([Prompt]). A host's own agent of a roster id
// (OpenCode's explore, build, plan) gets the skills of the roster's agent
// of that id.
package agents
