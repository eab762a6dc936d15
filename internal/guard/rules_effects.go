package guard

// effectsRules are registerEffects's rules, static data: loading the
// batch allocates none of them.
var effectsRules = []*Rule{
	{ID: ruleEffectProdChange, Category: "production", Verdict: Ask,
		Reason: "this changes a production environment; ask the user (a dry run or the same change to dev/staging needs no approval)"},
	{ID: ruleEffectProdDestroy, Category: "production", Verdict: Deny,
		Reason: "this deletes production resources or data; ask the user to do it themselves"},
	{ID: ruleEffectRemoteChange, Category: "remote", Verdict: Ask,
		Reason: "this changes live remote state (a deploy, an apply, a shared service) whose environment the command does not name; ask the user, or name a dev/staging target"},
	{ID: ruleEffectRemoteDestroy, Category: "remote", Verdict: Ask,
		Reason: "this deletes remote or shared resources or data; ask the user"},
	{ID: ruleEffectCredential, Category: "secret", Verdict: Deny,
		Reason: "this prints a credential into the conversation; do not read credentials, ask the user for the value you need"},
	{ID: ruleEffectGrant, Category: "access", Verdict: Ask,
		Reason: "this grants privilege or opens access; ask the user"},
	{ID: ruleEffectPublicAccess, Category: "access", Verdict: Deny,
		Reason: "this opens access to anyone (the internet, all users, a public visibility); ask the user to do it themselves"},
	{ID: ruleEffectOutsideCode, Category: "supply-chain", Verdict: Ask,
		Reason: "this installs or runs code from outside the ecosystem's usual registry (a git or tarball URL, an unknown index or registry, a remote script); ask the user"},
	{ID: ruleEffectReviewBypass, Category: "review", Verdict: Ask,
		Reason: "this skips hooks, checks or review, or rewrites shared history; ask the user"},
	{ID: ruleEffectSafetyOff, Category: "safety", Verdict: Ask,
		Reason: "this turns off a safety control (verification, a scanner, a protection); ask the user"},
	{ID: ruleEffectSafetyOS, Category: "safety", Verdict: Deny,
		Reason: "this turns off an operating-system security control (SELinux, auditing, the firewall, ASLR, the trusted root certificates); ask the user to do it themselves"},
	{ID: ruleEffectSend, Category: "exfiltration", Verdict: Ask,
		Reason: "this sends data off the machine; ask the user"},
	{ID: ruleEffectDataLoss, Category: "filesystem", Verdict: Ask,
		Reason: "this deletes or overwrites data outside the project; ask the user"},
	{ID: ruleEffectPersist, Category: "persistence", Verdict: Ask,
		Reason: "this makes something run again later, outside this session; ask the user"},
	{ID: ruleEffectToolExec, Category: "rce", Verdict: Ask,
		Reason: "this runs a command through a tool's own exec feature; run the command directly instead"},
}

// The effect model's judgements (effect.go): rules with no names, fired
// by the judgement table over what a command does and where. Their ids
// are what configuration overrides; each reason says what to do instead.
func registerEffects() {
	register(effectsRules...)
}
