// Package e2e holds end-to-end tests that drive real agent-host CLIs (Claude
// Code first) headlessly against fake model servers on 127.0.0.1, with the
// atreides binary installed as their hook handler.
//
// Install the pinned hosts once with scripts/install-hosts, then:
//
//	go test ./test/e2e/ -v
//
// The browser tests (browser_test.go: NewBrowser) drive Debian's headless
// Chromium at /usr/bin/chromium over the DevTools protocol with chromedp;
// scripts/install-chromium installs it.
//
// Environment:
//
//	ATREIDES_CLAUDE_BIN     claude binary to use (default test/e2e/hosts/node_modules/.bin/claude)
//	ATREIDES_E2E_REQUIRE=1  fail (not skip) when a host CLI or chromium is missing; implied by CI
//	ATREIDES_E2E_ARTIFACTS  directory to keep each scenario's request log, stdout and stderr,
//	                        and the browser tests' screenshots (else test/e2e/artifacts)
//	ATREIDES_E2E_PARALLEL   host runs at once (default 2)
package e2e
