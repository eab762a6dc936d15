#!/usr/bin/env node
"use strict";
// Runs the native atreides of this platform with the same arguments and
// streams, and exits as it did. On Unix the postinstall script replaces
// this file with the native program itself, so that hooks do not pay for
// a Node start; this launcher is what runs when it could not (Windows,
// --ignore-scripts, a file system without links or copies).
const { spawnSync } = require("child_process");
const { binaryPath } = require("../lib/platform.js");

let bin;
try {
  bin = binaryPath("atreides");
} catch (e) {
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  process.stderr.write(`atreides: cannot run ${bin}: ${r.error.message}\n`);
  process.exit(1);
}
if (r.signal) {
  // Die of the same signal, so that the caller sees what the program saw.
  process.kill(process.pid, r.signal);
  process.exit(1);
}
process.exit(r.status === null ? 1 : r.status);
