// Writes the licenses of the npm packages bundled into app.js (every
// non-dev package of package-lock.json) beside it, as their terms ask.
const fs = require("fs");
const path = require("path");

const lock = JSON.parse(fs.readFileSync(path.join(__dirname, "package-lock.json"), "utf8"));
const parts = ["Third-party software bundled in app.js (built from web/ by `npm run build`).\n"];
for (const [where, info] of Object.entries(lock.packages).sort()) {
  if (!where || info.dev) continue;
  const folder = path.join(__dirname, where);
  const file = fs.readdirSync(folder).find((name) => /^licen[cs]e/i.test(name));
  const text = file ? fs.readFileSync(path.join(folder, file), "utf8").trim() : `license: ${info.license}`;
  parts.push(`${"=".repeat(72)}\n${where.replace(/^node_modules\//, "")} ${info.version} (${info.license})\n\n${text}\n`);
}
const out = path.join(__dirname, "..", "kb", "web", "static", "THIRD-PARTY-LICENSES.txt");
fs.writeFileSync(out + ".tmp", parts.join("\n"));
fs.renameSync(out + ".tmp", out);
