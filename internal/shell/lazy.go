package shell

import "sync"

// lazyTable is a table built on first use. Declared as static data
// (lazyTable[T]{build: func() T {...}}), it costs nothing in package
// init, which runs in every hook process; a package-level
// sync.OnceValue(...) is a call, and allocates there.
type lazyTable[T any] struct {
	once  sync.Once
	build func() T
	v     T
}

func (l *lazyTable[T]) get() T {
	l.once.Do(func() { l.v = l.build() })
	return l.v
}
