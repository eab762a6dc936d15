package guard

// Effects of history and review bypasses, and safety controls switched off.

// reviewDerivers are this file's effect derivers (effect.go).
var reviewDerivers = []deriverReg{}
