package guard

// Effects of credentials that are not files: the environment, secret stores, CLI configs, agent hosts' auth files.

// credDerivers are this file's effect derivers (effect.go).
var credDerivers = []deriverReg{}
