"use strict";
// Downloads nothing. On Unix it puts the platform package's native
// programs into this package's bin/ (a copy, never a hard link: a link
// would share its inode with the platform package's file, and a write
// there would replace the program every hook runs) in place of the Node
// launcher, so that hooks that run `atreides` from PATH start the native
// program directly instead of Node first.
// The companions go first and atreides last: atreides finds them next to
// itself, so it replaces the launcher only once they are there. Any
// failure leaves the launcher in place, which works, only slower: say
// nothing.
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");
const { binaryPath, programs } = require("./lib/platform.js");
const main = require("./package.json");

function place(src, dst) {
  const tmp = `${dst}.tmp-${process.pid}`;
  fs.rmSync(tmp, { force: true });
  fs.copyFileSync(src, tmp);
  fs.chmodSync(tmp, 0o755);
  return tmp;
}

// works says whether the program at file runs here and is this version:
// a copy for another architecture must not replace the launcher, or
// every hook would fail.
function works(file) {
  const out = execFileSync(file, ["version", "--json"], { encoding: "utf8", timeout: 10000 });
  return JSON.parse(out).version === `v${main.version}`;
}

function run() {
  if (process.platform === "win32") return;
  const bin = path.join(__dirname, "bin");
  for (const program of programs) {
    const dst = path.join(bin, program);
    const tmp = place(binaryPath(program), dst);
    try {
      if (program !== "atreides" || works(tmp)) fs.renameSync(tmp, dst);
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
}

try {
  run();
} catch (e) {
  // the launcher stays
}
