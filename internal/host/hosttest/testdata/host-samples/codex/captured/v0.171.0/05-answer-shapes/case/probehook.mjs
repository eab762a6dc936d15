#!/usr/bin/env node
// Probe hook: logs stdin to $HOOKLOG_DIR and answers PreToolUse from probes.json by marker.
import fs from 'node:fs';
import path from 'node:path';
const dir = process.env.HOOKLOG_DIR;
fs.mkdirSync(dir, { recursive: true });
const raw = fs.readFileSync(0, 'utf8');
const input = JSON.parse(raw);
const ev = input.hook_event_name;
const n = fs.readdirSync(dir).filter((f) => f.startsWith(ev + '-')).length + 1;
fs.writeFileSync(path.join(dir, `${ev}-${n}.json`), raw);
const probes = JSON.parse(fs.readFileSync(new URL('./probes.json', import.meta.url), 'utf8'));
if (ev === 'PreToolUse') {
  const s = JSON.stringify(input.tool_input || {});
  for (const [k, v] of Object.entries(probes)) {
    if (s.includes(k + ' ') || s.includes(k + '"')) { process.stdout.write(JSON.stringify(v)); process.exit(0); }
  }
}
process.exit(0);
