#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
const dir = process.env.HOOKLOG_DIR;
fs.mkdirSync(dir, { recursive: true });
const raw = fs.readFileSync(0, 'utf8');
const input = JSON.parse(raw);
const ev = input.hook_event_name;
const n = fs.readdirSync(dir).filter((f) => f.startsWith(ev + '-')).length + 1;
fs.writeFileSync(path.join(dir, `${ev}-${n}.json`), raw);
if (ev === 'PermissionRequest') {
  const s = JSON.stringify(input.tool_input || {});
  if (s.includes('P_PRDENY')) { process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PermissionRequest',decision:{behavior:'deny',message:'pr-denied-by-hook'}}})); }
  if (s.includes('P_PRALLOW')) { process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PermissionRequest',decision:{behavior:'allow'}}})); }
}
process.exit(0);
