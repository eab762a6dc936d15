package guard

// Effects of the supply chain and access: outside sources, privilege grants, exposure.

// supplyDerivers are this file's effect derivers (effect.go).
var supplyDerivers = []deriverReg{}
