// Package lazy holds values built on their first use. Every hook process
// pays for its packages' initialisation, and most events need few of their
// tables: a package-level sync.OnceValue(...) is a call (two allocations
// in init), while a Value is a composite literal of a func value, which
// the compiler lays out as static data.
package lazy

import "sync"

// Value is a T built by New on the first Get, once, safely for concurrent
// use. Declare it as a package variable with a composite literal,
//
//	var verbs = lazy.Value[map[string]Class]{New: buildVerbs}
//
// so that it costs nothing until used.
type Value[T any] struct {
	New  func() T
	once sync.Once
	v    T
}

// Get returns the value, building it on the first call.
func (l *Value[T]) Get() T {
	l.once.Do(l.build)
	return l.v
}

func (l *Value[T]) build() { l.v = l.New() }
