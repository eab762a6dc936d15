// Package storetest is the conformance suite of package store's back ends:
// what the embedded bbolt store and every remote back end must do alike
// (values and their order, appends and their numbers, records, rollback,
// a lease that exactly one of many racing writers takes, projects kept
// apart, concurrent goroutines and processes losing no update, a process
// killed in the middle of a transaction leaving nothing of it). It is test
// support, imported only by tests: package pgstore runs it against bbolt
// and PostgreSQL side by side.
//
// A new back end is one more [Backend] in that list. Helper processes
// (the concurrency and kill tests start the test binary again) open the
// store from the environment the Backend's New returned, so the test
// binary's TestMain must call [HelperMain] first.
package storetest
