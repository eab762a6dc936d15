package guard

// Effects of escapes through tools' own exec features, paths leaving the project, system controls, persistence.

// escapeDerivers are this file's effect derivers (effect.go).
var escapeDerivers = []deriverReg{}
