package guard

import "sync"

// lazy is a table built on first use. A package-level map is built by
// package init in every process that links the guard, hooks that check
// no command included; a lazy one is static data until a check reads it.
type lazy[T any] struct {
	once  sync.Once
	build func() T
	v     T
}

func (l *lazy[T]) get() T {
	l.once.Do(func() { l.v = l.build() })
	return l.v
}
