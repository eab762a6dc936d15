package guard

// Effects of changes to remote, shared and production state: deploys, applies, PaaS, databases, services.

// remoteDerivers are this file's effect derivers (effect.go).
var remoteDerivers = []deriverReg{}
