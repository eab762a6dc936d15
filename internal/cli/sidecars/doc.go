// Package sidecars holds the commands around the hook: the companion
// programs (ui, otel, mcp) that run beside it, the team's store, and the
// demo.
package sidecars
