"use strict";
// Finds the native atreides programs of this machine's platform package,
// one of the main package's optionalDependencies that npm installed
// (it skips the ones whose "os" and "cpu" do not match).
const path = require("path");
const main = require("../package.json");

// The release writes the program list; atreides comes last, as the
// postinstall script needs.
const programs = require("./programs.json")
  .filter((p) => p !== "atreides")
  .concat(["atreides"]);

function platformPackage() {
  const name = `${main.name}-${process.platform}-${process.arch}`;
  if (!(name in (main.optionalDependencies || {}))) {
    const known = Object.keys(main.optionalDependencies || {}).join(", ");
    throw new Error(`atreides: no build for ${process.platform}-${process.arch} (there are: ${known})`);
  }
  return name;
}

// binaryPath is the path of program in the platform package; it throws
// an error that names the package when it is not installed.
function binaryPath(program) {
  const pkg = platformPackage();
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch (e) {
    throw new Error(
      `atreides: the package ${pkg}, which holds the programs for ${process.platform}-${process.arch}, is not installed. ` +
        `It is an optional dependency of ${main.name}: install again without --no-optional / --omit=optional ` +
        `(npm install ${main.name}@${main.version} ${pkg}@${main.version})`
    );
  }
  return path.join(dir, "bin", process.platform === "win32" ? `${program}.exe` : program);
}

module.exports = { binaryPath, platformPackage, programs };
