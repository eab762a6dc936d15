// Round trip of the real plugin hook to the engine and back, warm.
// Run in OpenCode's own runtime:
//   BUN_BE_BUN=1 test/e2e/hosts/node_modules/.bin/opencode plugins/opencode/bench/roundtrip.ts /path/to/atreides PROJECT_DIR [N]
// PROJECT_DIR must exist (a .git in it makes it a project root).
import { AtreidesPlugin } from "../atreides.ts"
const dir = process.argv[3]
const hooks: any = await AtreidesPlugin({ client: {}, directory: dir } as any, { bin: process.argv[2] })
const N = Number(process.argv[4] || 500)
const ts: number[] = []
for (let i = 0; i < N; i++) {
  const o = { args: { command: "ls -la", description: "d" } }
  const t0 = performance.now()
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s1", callID: "c" + i }, o)
  ts.push(performance.now() - t0)
}
const first = ts[0]
const warm = ts.slice(10).sort((a, b) => a - b)
const q = (p: number) => warm[Math.floor(p * (warm.length - 1))]
console.log(JSON.stringify({ n: N, first_ms: +first.toFixed(3), p50_ms: +q(0.5).toFixed(3), p90_ms: +q(0.9).toFixed(3), p99_ms: +q(0.99).toFixed(3) }))
let blocked = ""
try { await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s1", callID: "x" }, { args: { command: "rm -rf ~/victim" } }) } catch (e) { blocked = (e as Error).message }
console.log("block:", blocked.slice(0, 160))
await hooks.dispose()
