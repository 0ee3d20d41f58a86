// {{problem}}: {{title}}
// Judge it with `judge run {{name}}`; `judge show {{problem}}` shows the statement.
"use strict";

// Read all of stdin at once and walk its whitespace-separated tokens.
const tokens = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean);
let pos = 0;
const next = () => tokens[pos++];

const n = BigInt(next());
const answer = n;

// Collect the output and write it once: console.log per line is slow for big outputs.
const out = [String(answer)];
process.stdout.write(out.join("\n") + "\n");
