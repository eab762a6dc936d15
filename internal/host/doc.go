// Package host defines what every host adapter provides: decoding the
// host's hook payload into an event and encoding a decision into the
// host's answer. The adapters live in the subpackages, one per host.
package host
