#!/usr/bin/env node
"use strict";
// Runs the native atreides of this platform with the same arguments and
// streams, and exits as it did. On Unix the postinstall script replaces
// this file with the native program itself, so that hooks do not pay for
// a Node start; this launcher is what runs when it could not (Windows,
// --ignore-scripts, a file system without links or copies).
const { spawn } = require("child_process");
const { constants } = require("os");
const { binaryPath } = require("../lib/platform.js");

let bin;
try {
  bin = binaryPath("atreides");
} catch (e) {
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
}
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit" });
// A signal to this process goes on to the program (which shuts down
// once, however many it gets), and this process waits for it to end
// instead of dying first and leaving it behind.
const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const s of signals) {
  process.on(s, () => child.kill(s));
}
child.on("error", (e) => {
  process.stderr.write(`atreides: cannot run ${bin}: ${e.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so that the caller sees what the program saw.
    // A signal Node ignores (SIGPIPE) leaves it alive: then the shell's
    // 128+n.
    process.exitCode = 128 + (constants.signals[signal] || 0);
    for (const s of signals) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
