package features

// The feature table. A cell is one line: {feature, host, how it is proven}.
// To add or change one, edit its line and run
//
//	go test ./test/features/ -run TestFeatureTable -update
//
// e2e(...) names tests of test/e2e that drive the host's real CLI;
// proc(...) names process tests ("internal/pkg.TestName") that feed the
// host's payload shapes through atreides; cannot(reason, tests...) is a
// host without the event or field (the tests show it with the real CLI);
// missing(note) is a gap atreides has there; unproven(note) is a claim no
// test proves yet. Subtests are written as go test names them
// ("TestGemini/DeniedCommand", a space as "_").
//
// Naming a test is not enough: scripts/test keeps its tests stage's
// results (go test -json) and TestFeatureResults (results_test.go) fails
// when a test a ✓, ○ or ✗ cell names did not pass there (skipped, failed,
// died, missing, or passed with a subtest skipped), naming the cell; see
// docs/contributing.md.

// Feature is a row of the table.
type Feature struct {
	ID    string // the key the cells use
	Title string
	What  string // one or two sentences for a user
	Doc   string // its documentation page, "docs/x.md", if any
}

var features = []Feature{
	{"guard", "guard: shell, files, secrets", "Every shell command and file access is judged (allow, ask, deny) before it runs.", "docs/guard-policy.md"},
	{"ask", "how an ask arrives", "What the user sees when the guard's verdict is ask.", "docs/guard-policy.md"},
	{"start", "session start context", "The identity, open todos and warnings reach the model when the session starts.", ""},
	{"strikes", "phases and strikes", "Phase changes are announced; three failures of the same command bring the recovery protocol.", ""},
	{"todos", "todos keep the agent going", "A stop with an open todo of the session's own is held back, a bounded number of times.", "docs/work-items.md"},
	{"compaction", "compaction memory", "What matters (todos, anchors, phase) is saved before a compaction and given back after.", ""},
	{"rules", "nested rules", "A directory's AGENTS.md and conditional rules reach the agent when it reads or edits a file there.", "docs/rules.md"},
	{"keywords", "keyword modes", "A keyword in the user's prompt (ultrawork) brings the mode's instructions.", "docs/keywords.md"},
	{"comments", "comment checker", "A write full of narrating comments brings a note naming the lines.", "docs/comments.md"},
	{"outputs", "output cut", "A huge tool output is cut to its head and tail, the whole saved to a file.", "docs/outputs.md"},
	{"delegation", "delegation limits", "Depth, cycles and redirects of subagent delegation are enforced.", "docs/delegation.md"},
	{"agents", "agents", "The roster's agents are installed into the host in its own form.", "docs/agents.md"},
	{"background", "background tasks", "A task runs in a headless child of the host, supervised by atreides.", "docs/background.md"},
	{"slash", "slash commands", "The /at-* commands of the task board.", "docs/tasks.md"},
	{"governance", "governance", "Intents give each agent an owned scope; writes outside it are refused.", "docs/ledger.md"},
	{"audit", "audit log, trace ledger", "Every decision is in the audit trail; every change in the signed ledger.", "docs/audit.md"},
	{"tiers", "context tiers", "Files under `.atreides/context/` reach the lead agent at session start, a command's set when it runs, an agent's set when it starts, each within its budget.", "docs/tasks.md"},
	{"review", "multi-model review", "One review prompt run on several hosts and models in the background, the findings merged by agreement.", "docs/review.md"},
	{"mcp", "tools over MCP", "The agent's tools (todos, intents, background tasks, status).", ""},
}

var rows = []Row{
	{"guard", "claude", e2e("TestClaude/DeniedCommand", "TestClaude/ObfuscatedDestructive", "TestSelfProtection")},
	{"guard", "gemini", e2e("TestGemini/DeniedCommand", "TestExtensionGemini")},
	{"guard", "codex", e2e("TestCodex/DeniedCommand")},
	{"guard", "opencode", e2e("TestOpenCodeGuard")},
	{"guard", "copilot", e2e("TestCopilot/DeniedCommand", "TestCopilot/SecretReads")},
	{"guard", "qwen", e2e("TestQwen/DeniedCommand", "TestQwen/SecretRead")},
	{"guard", "cline", e2e("TestCline/DeniedCommand", "TestCline/SecretRead", "TestCline/EditorWriteRefused")},
	{"guard", "kilo", e2e("TestKiloGuard")},

	{"ask", "claude", proc("internal/host/all.TestConformance/claude").with("asks the user")},
	{"ask", "gemini", proc("internal/host/all.TestConformance/gemini").with("a deny telling the model to ask")},
	{"ask", "codex", e2e("TestCodex/AskIsDenied").with("a deny telling the model to ask")},
	{"ask", "opencode", proc("internal/host/opencode.TestEncodeAskBecomesBlock").with("a block telling the model to ask")},
	{"ask", "copilot", e2e("TestCopilot/AskIsRefusedWithTheReason").with("asks; `-p` refuses with the reason")},
	{"ask", "qwen", e2e("TestQwen/AskIsRefusedHeadless").with("asks; headless refuses with the reason")},
	{"ask", "cline", proc("internal/host/cline.TestRefusedCommandRuns", "internal/host/all.TestConformance/cline").with("a stand-in command telling the model to ask")},
	{"ask", "kilo", proc("internal/host/all.TestConformance/kilo").with("a block telling the model to ask")},

	{"start", "claude", e2e("TestClaude/SessionStartContext")},
	{"start", "gemini", e2e("TestGemini/SessionStartContext")},
	{"start", "codex", e2e("TestCodex/SessionStartContext")},
	{"start", "opencode", e2e("TestOpenCodeGuard").with("in every main request's system prompt")},
	{"start", "copilot", e2e("TestCopilot/SessionStartContext")},
	{"start", "qwen", e2e("TestQwen/SessionStartContext")},
	{"start", "cline", e2e("TestCline/SessionContext").with("at the first tool call: TaskStart's answer is not read")},
	{"start", "kilo", e2e("TestKiloGuard").with("in every main request's system prompt")},

	{"strikes", "claude", e2e("TestClaudeSession", "TestRosterClaudeStilgar", "TestOrchestrationClaudeIntentStrikes").with("test runners failing in turn (npm test, npx jest, yarn test) count as one intent")},
	{"strikes", "gemini", e2e("TestGeminiGaps/ExitCodeStrikes", "TestGeminiEscalationFallback").with("the exit code is read from the trailer of the shell tool's output; without the oracle installed, the escalation sends the agent to Gemini's own generalist")},
	{"strikes", "codex", e2e("TestCodexGaps/ExitCodeStrikes").with("the exit code is read from the command's record in Codex's rollout")},
	{"strikes", "opencode", e2e("TestOpenCodeStrikes").with("the warning after the second failure; the escalation after the third is not driven on OpenCode")},
	{"strikes", "copilot", e2e("TestCopilotStrikes").with("a failing command reaches postToolUse as resultType success: the exit code is read from the exit line at the end of the bash tool's output; the escalation after the third is not driven on Copilot")},
	{"strikes", "qwen", e2e("TestQwen/StrikesOnFailures").with("the warning after the second failure")},
	{"strikes", "cline", unproven("the shared engine counts the failures PostToolUse reports; no test drives three on Cline")},
	{"strikes", "kilo", e2e("TestKiloStrikes").with("the warning after the second failure; the escalation after the third is not driven on Kilo")},

	{"todos", "claude", e2e("TestClaude/StopBlocksOnceForTodos", "TestClaudeSession", "TestClaudeTaskTools")},
	{"todos", "gemini", e2e("TestGemini/AfterAgentKeepsGoingOnceForTodos")},
	{"todos", "codex", e2e("TestCodex/StopBlocksOnceForTodos")},
	{"todos", "opencode", e2e("TestOpenCodeTodoContinuation", "TestOpenCodeEscIsAnInterrupt").with("through `opencode serve`; `opencode run` ends at the first idle; the user's Esc is an interrupt")},
	{"todos", "copilot", e2e("TestCopilot/AgentStopKeepsGoingOnceForTodos").with("atreides's todos only: Copilot's own list is in an SQL table atreides cannot see")},
	{"todos", "qwen", e2e("TestQwen/StopKeepsGoingOnceForTodos")},
	{"todos", "cline", cannot("Cline 3.0.65 does not read TaskComplete's answer", "TestCline/StopCannotContinue")},
	{"todos", "kilo", e2e("TestKiloTodoContinuation").with("through `kilo serve`; `kilo run` ends at the first idle")},

	{"compaction", "claude", e2e("TestClaudeSession")},
	{"compaction", "gemini", e2e("TestGeminiCompressMemory").with("after `/compress`, with the next prompt; an automatic compression fires PreCompress before every turn, compressing or not, and nothing after, so it cannot be told apart")},
	{"compaction", "codex", e2e("TestCodexGaps/CompactionMemory").with("Codex sends SessionStart `compact` after each compaction")},
	{"compaction", "opencode", e2e("TestOpenCodeTodoContinuation", "TestOpenCodePlacedContextAfterRestart").with("placed context kept in the store survives a new OpenCode process")},
	{"compaction", "copilot", cannot("Copilot 1.0.102 fires preCompact before a compaction and nothing after, so nothing can be given back (docs/copilot.md)")},
	{"compaction", "qwen", e2e("TestQwen/CompactionMemory").with("one request late")},
	{"compaction", "cline", cannot("Cline 3.0.65 never fires PreCompact (docs/cline.md)")},
	{"compaction", "kilo", e2e("TestKiloTodoContinuation")},

	{"rules", "claude", e2e("TestClaudeNestedRules", "TestClaudeNestedRulesHostLoads")},
	{"rules", "gemini", e2e("TestGeminiNestedRules")},
	{"rules", "codex", e2e("TestCodexNestedRules").with("files the model reads with `cat` and the like bring their directories' rules")},
	{"rules", "opencode", e2e("TestOpenCodeNestedRules").with("OpenCode attaches AGENTS.md itself; atreides adds the rest")},
	{"rules", "copilot", e2e("TestCopilot/NestedRules").with("Copilot attaches AGENTS.md itself; atreides adds the rest")},
	{"rules", "qwen", e2e("TestQwen/NestedRules")},
	{"rules", "cline", e2e("TestCline/NestedRules").with("Cline loads AGENTS.md and .clinerules itself")},
	{"rules", "kilo", e2e("TestKiloContext")},

	{"keywords", "claude", e2e("TestClaudeKeywordModes")},
	{"keywords", "gemini", e2e("TestGeminiKeywordModes", "TestGeminiPromptIsTheUsers").with("from BeforeAgent; in -p mode Gemini puts the SessionStart context in front of the prompt, and atreides takes its own off again")},
	{"keywords", "codex", e2e("TestCodexKeywordModes")},
	{"keywords", "opencode", e2e("TestOpenCodeKeywordModes").with("from chat.message")},
	{"keywords", "copilot", e2e("TestCopilotKeywordModes").with("from userPromptSubmitted")},
	{"keywords", "qwen", e2e("TestQwenKeywordModes")},
	{"keywords", "cline", cannot("Cline 3.0.65 fires no UserPromptSubmit for a headless prompt and reads no answer from it (internal/host/cline/doc.go)", "TestClineNoKeywordModes")},
	{"keywords", "kilo", e2e("TestKiloKeywordModes").with("from chat.message, as on OpenCode")},

	{"comments", "claude", e2e("TestClaudeCommentChecker")},
	{"comments", "gemini", e2e("TestGeminiCommentChecker").with("from AfterTool, with the next request")},
	{"comments", "codex", proc("internal/host/codex.TestAddedLines", "internal/comments.TestHandler").with("the host's write decoded to the lines it added; the check on them is host-neutral")},
	{"comments", "opencode", e2e("TestOpenCodeCommentChecker")},
	{"comments", "copilot", e2e("TestCopilotCommentChecker")},
	{"comments", "qwen", e2e("TestQwenCommentChecker")},
	{"comments", "cline", e2e("TestClineCommentChecker").with("after the editor's result, as a user message")},
	{"comments", "kilo", e2e("TestKiloCommentChecker")},

	{"outputs", "claude", e2e("TestClaudeOutputCut", "TestClaudeMCPOutputCut")},
	{"outputs", "gemini", cannot("Gemini CLI 0.61.0 reads no replacement of a tool's output from AfterTool; it cuts large shell output itself", "TestGeminiOutputNotReplaced", "internal/host/gemini.TestNoOutputReplacement")},
	{"outputs", "codex", e2e("TestCodexOutputCut").with("Codex cuts to about 10 KB first; atreides cuts below a lower limit")},
	{"outputs", "opencode", e2e("TestOpenCodeOutputCut")},
	{"outputs", "copilot", e2e("TestCopilot/OutputCut").with("below ~20 KB; Copilot files larger outputs itself")},
	{"outputs", "qwen", cannot("Qwen Code reads no replacement of a tool's output from a hook and saves large outputs itself (docs/qwen.md)")},
	{"outputs", "cline", cannot("Cline reads no replacement of a tool's output from a hook (docs/cline.md)")},
	{"outputs", "kilo", e2e("TestKiloContext")},

	{"delegation", "claude", e2e("TestDelegationLimitsDefaultConfig", "TestGovernanceDelegationDepth", "TestDelegationReturnBounced").with("a roster agent's invalid return is sent back once; past its deadline a subagent's tool calls are refused (captured payloads, internal/cli delegation tests) and the parent told how to resume it")},
	{"delegation", "gemini", proc("internal/delegation.TestTargetAndRetarget").with("the target is read from invoke_agent's agent_name; depth and cycles are not driven on Gemini CLI")},
	{"delegation", "codex", e2e("TestCodex/RedirectIsDenied", "TestCodexGaps/DelegationLimit").with("`spawn_agent` reaches PreToolUse; a redirect is a deny naming the input to use; Codex refuses a nested `spawn_agent` itself, so depth stays 1")},
	{"delegation", "opencode", e2e("TestOpenCodeNestedDelegation").with("child sessions at any depth are linked to the root through `parentID`, kept in the store; OpenCode 1.18.33 itself stops nesting unless `subagent_depth` is raised")},
	{"delegation", "copilot", e2e("TestCopilotDelegationReturnBounced").with("a roster agent's invalid return is sent back once; depth and cycles not driven")},
	{"delegation", "qwen", e2e("TestQwen/DelegationRedirectRefused", "TestQwenDelegationReturnBounced").with("a redirect is a deny naming the input to use; an invalid return is sent back once")},
	{"delegation", "cline", unproven("a spawn_agent sub-agent's calls are guarded (TestCline/SubagentGuarded); no test drives a delegation limit")},
	{"delegation", "kilo", unproven("OpenCode's plugin; no test drives a Kilo delegation")},

	{"agents", "claude", e2e("TestRosterClaudeStilgar", "TestClaudeSeesAtreidesNames")},
	{"agents", "gemini", e2e("TestRosterGeminiAgents")},
	{"agents", "codex", e2e("TestRosterCodexAgents")},
	{"agents", "opencode", e2e("TestRosterOpenCode", "TestOpenCodeNestedDelegation", "TestOpenCodePrimaryAgentSkills").with("given by the plugin in memory; a child session is told the agent it runs as; OpenCode's own build, plan and explore get the roster's skills of the same id")},
	{"agents", "copilot", e2e("TestCopilot/MCPToolsAndAgents").with("as `.agent.md` files")},
	{"agents", "qwen", e2e("TestQwen/SlashCommandAndAgents")},
	{"agents", "cline", cannot("Cline's spawn_agent takes the sub-agent's prompt in the call: there are no agent files to install (docs/cline.md)")},
	{"agents", "kilo", e2e("TestRosterKilo").with("given by the plugin in memory, as to OpenCode")},

	{"background", "claude", e2e("TestBackgroundClaude", "TestBackgroundClaudeReadOnly").with("a read-only agent runs with `--permission-mode plan`; the model from category, agent, launching agent")},
	{"background", "gemini", e2e("TestBackgroundHeadless", "TestBackgroundReadOnlyHeadless/gemini", "TestBackgroundResumeGemini").with("a read-only agent runs with `--approval-mode default`, never `--yolo`; resumable")},
	{"background", "codex", e2e("TestBackgroundHeadless", "TestBackgroundReadOnlyHeadless/codex", "TestBackgroundCodexHooksTrust").with("a read-only agent runs in `--sandbox read-only`; a task is refused while Codex has not trusted atreides's hooks")},
	{"background", "opencode", e2e("TestOpenCodeBackground", "TestBackgroundResumeOpenCode").with("a child session started by the plugin, as the installed agent; resumable")},
	{"background", "copilot", e2e("TestBackgroundCopilotReadOnly").with("a read-only agent runs with the write and shell tools denied; no resume: `--silent` prints no session id")},
	{"background", "qwen", e2e("TestQwenBackground", "TestBackgroundQwenReadOnly").with("a read-only agent runs with `--approval-mode plan`")},
	{"background", "cline", e2e("TestClineBackground").with("a read-only agent runs with `--plan` (its refusal of a write not driven); no resume: Cline's output names no session")},
	{"background", "kilo", e2e("TestKiloBackground")},

	{"slash", "claude", e2e("TestTasksClaude", "TestPlanApprovalContentClaude")},
	{"slash", "gemini", proc("internal/host/gemini.TestCommandForm", "internal/host/gemini.TestCommandsRoundTrip").with("installed as TOML commands; not run in Gemini CLI by a test")},
	{"slash", "codex", cannot("Codex has no prompt files")},
	{"slash", "opencode", e2e("TestTasksOpenCode")},
	{"slash", "copilot", cannot("Copilot has no user command files")},
	{"slash", "qwen", e2e("TestQwen/SlashCommandAndAgents")},
	{"slash", "cline", e2e("TestCline/SlashCommand").with("as workflows")},
	{"slash", "kilo", unproven("installed in `.kilo/commands/`; no test runs one in Kilo")},

	{"governance", "claude", e2e("TestGovernance")},
	{"governance", "gemini", proc("internal/governance.TestGateNamesHostsTools").with("the gate names Gemini's tools; an MCP call acts for the calling session (TestGeminiMCPTools)")},
	{"governance", "codex", proc("internal/governance.TestGateNamesHostsTools").with("the gate names Codex's tools; an MCP call acts for the calling session (TestCodexMCPTools)")},
	{"governance", "opencode", unproven("no test drives an intent on OpenCode")},
	{"governance", "copilot", unproven("no test drives an intent on Copilot")},
	{"governance", "qwen", e2e("TestQwen/GovernanceAndLedger")},
	{"governance", "cline", unproven("no test drives an intent on Cline")},
	{"governance", "kilo", unproven("no test drives an intent on Kilo")},

	{"audit", "claude", e2e("TestClaudeAuditLog", "TestGovernance")},
	{"audit", "gemini", e2e("TestGeminiAuditLog").with("the audit trail; the ledger (governance) is not driven on Gemini CLI")},
	{"audit", "codex", e2e("TestCodexAuditLog").with("the audit trail; the ledger (governance) is not driven on Codex")},
	{"audit", "opencode", e2e("TestOpenCodeAuditLog").with("the audit trail; the ledger (governance) is not driven on OpenCode")},
	{"audit", "copilot", e2e("TestCopilotAuditLog").with("the audit trail; the ledger (governance) is not driven on Copilot")},
	{"audit", "qwen", e2e("TestQwen/GovernanceAndLedger", "TestQwen/CompactionMemory")},
	{"audit", "cline", e2e("TestCline/SubagentGuarded", "TestCline/StopCannotContinue").with("the audit trail; the ledger (governance) is not driven on Cline")},
	{"audit", "kilo", e2e("TestKiloGuard").with("the audit trail; the ledger (governance) is not driven on Kilo")},

	{"tiers", "claude", e2e("TestClaudeContextTiers").with("the agent's set at SubagentStart")},
	{"tiers", "gemini", e2e("TestGeminiContextTiers").with("session and command sets; Gemini CLI 0.61.0 has no subagent event, so an agent's set reaches only a background task's own session")},
	{"tiers", "codex", e2e("TestCodexContextTiers", "TestCodexAgentTier")},
	{"tiers", "opencode", e2e("TestOpenCodeContextTiers").with("in the system prompt")},
	{"tiers", "copilot", e2e("TestCopilotContextTiers").with("session and command sets")},
	{"tiers", "qwen", e2e("TestQwenContextTiers").with("session and command sets")},
	{"tiers", "cline", unproven("the shared engine at the first tool call; no test drives it on Cline")},
	{"tiers", "kilo", unproven("OpenCode's plugin; no test drives it on Kilo")},

	{"review", "claude", e2e("TestReviewMultiModel", "TestReviewToolClaude").with("as a reviewer and through the `review_models` tool")},
	{"review", "gemini", e2e("TestReviewMultiModel").with("as a reviewer")},
	{"review", "codex", unproven("the same headless path as the other reviewers (TestBackgroundHeadless runs Codex); no review drives it")},
	{"review", "opencode", unproven("a reviewer runs only while an OpenCode session with the plugin is open; not driven")},
	{"review", "copilot", unproven("the same headless path; no review drives it")},
	{"review", "qwen", unproven("the same headless path; no review drives it")},
	{"review", "cline", unproven("the same headless path; no review drives it")},
	{"review", "kilo", unproven("as OpenCode; not driven")},

	{"mcp", "claude", e2e("TestGovernance", "TestBackgroundClaude")},
	{"mcp", "gemini", e2e("TestGeminiMCPTools").with("calls act for the calling session, found through the host process")},
	{"mcp", "codex", e2e("TestCodexMCPTools", "TestCodexMCPToolsUntrusted").with("a project install offers no tools until the project is trusted; calls act for the calling session")},
	{"mcp", "opencode", e2e("TestOpenCodeBackground").with("the plugin's tools")},
	{"mcp", "copilot", e2e("TestCopilot/MCPToolsAndAgents", "TestMCPBindingCopilotQwen")},
	{"mcp", "qwen", e2e("TestQwen/MCPTools", "TestMCPBindingCopilotQwen")},
	{"mcp", "cline", e2e("TestCline/MCPTools").with("`--user` only: Cline reads MCP servers from its data directory; which session a call acts for is not proven, and a call that needs one says it cannot tell")},
	{"mcp", "kilo", e2e("TestKiloBackground").with("the plugin's tools")},
}
