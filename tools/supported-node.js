// Which Node.js package.json's engines allow, decided before anything is installed (so: no npm package, only the
// ">=MAJOR[.MINOR[.PATCH]]" form this repository uses; anything else is a mistake in package.json, said as such).

/** @returns {number[]} major, minor, patch */
function parts(version) {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map((n) => Number.parseInt(n, 10) || 0);
  return [major, minor, patch];
}

/**
 * @param {string} version the running Node.js, as process.versions.node has it ("24.11.1")
 * @param {string} range package.json engines.node (">=24")
 * @returns {string | undefined} why this Node.js cannot run the project, or undefined when it can
 */
function nodeVersionProblem(version, range) {
  const minimum = /^\s*>=\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(range);
  if (!minimum) throw new Error(`package.json engines.node must be ">=MAJOR[.MINOR[.PATCH]]", not "${range}"`);
  const have = parts(version);
  const need = parts(minimum[1]);
  const index = have.findIndex((n, i) => n !== need[i]);
  if (index === -1 || have[index] > need[index]) return undefined;
  return `payments-platform needs Node.js ${range}; this is Node.js ${version}. Install the current Node.js ${need[0]} LTS (https://nodejs.org, or nvm install ${need[0]}) and run it again.`;
}

module.exports = { nodeVersionProblem };
