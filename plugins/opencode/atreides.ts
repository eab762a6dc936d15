// atreides for OpenCode: a thin plugin that hands every hook to the
// atreides engine and applies its answer. All decisions are made by
// `atreides serve --stdio`, started once per OpenCode instance and spoken
// to in JSON lines (protocol version 1; see internal/serve in the atreides
// repository). No dependencies: only what OpenCode's Bun runtime provides.
//
// The same file runs in Kilo Code, an OpenCode fork with the same plugin
// API: it tells serve which host it runs in (HOST below), and only one
// copy of it answers per host instance, whichever of its files loaded
// first (a project and a user install both load).
//
// Installed by `atreides install opencode` (or kilo), which fills in DEFAULT_BIN.
// The binary is, in order: the plugin option "bin" (config entry
// ["…/atreides.ts", {"bin": "/path/to/atreides"}]), $ATREIDES_BIN,
// DEFAULT_BIN, then "atreides" on PATH.
//
// When the engine cannot answer: a tool call is blocked (fail closed) with
// a message saying why; every other hook goes on unchanged (fail open)
// with one log line. An engine that exits is restarted once. "Busy" (too
// many hooks waiting for an answer; the request was not handled) is such
// a failure: the tool call is blocked, and the agent may retry it.

import { spawn } from "node:child_process"

const DEFAULT_BIN = ""

const PROTOCOL = 1
const BUSY = -32004 // the engine's queue was full; the request was not handled
const TIMEOUT_MS = Number(process.env.ATREIDES_TIMEOUT_MS) || 10_000

// HOST is the host this process is. Kilo Code sets KILO_PID to its own
// pid at start (7.7.7); an OpenCode started by a Kilo command inherits a
// KILO_PID that is not its own pid, so it stays OpenCode.
const HOST = process.env.KILO_PID === String(process.pid) ? "kilo" : "opencode"
const SERVE_ARGS = HOST === "opencode" ? ["serve", "--stdio"] : ["serve", "--stdio", "--host", HOST]

// OWNED holds the plugin inputs of the host instances a copy of this
// plugin already answers for, in this process. The host hands every
// plugin of one instance the same input object, so a second copy (another
// config directory's file) loaded into the same instance stands aside and
// every hook is judged once; a new instance (another directory, or the
// same one after a restart) has a new input and gets its own engine.
const OWNED: WeakSet<object> = ((globalThis as any)[Symbol.for("atreides.plugin.instances")] ??= new WeakSet<object>())

// Minimal local types: structurally what @opencode-ai/plugin 1.18.33
// passes, so nothing has to be installed for this file to load.
type Json = any
type PluginInput = { client: Json; directory: string; worktree?: string }
type Hooks = { [hook: string]: (input: Json, output: Json) => Promise<void> }
type Result = {
  block?: string
  args?: Record<string, Json>
  append?: string
  output?: string
  system?: string[]
  inject?: { messageID: string; id: string; text: string }[]
  context?: string[]
  continue?: string
  text?: string
  warn?: string[]
  variant?: string
  agents?: Record<string, Json>
}
type Pending = { resolve: (r: Result) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }

// The bus events the engine hears about. message.part.updated is sent only
// for finished text parts (the agent's last words, for the stop gate).
const EVENTS = new Set([
  "session.created", "session.idle", "session.compacted", "session.deleted", "session.error",
  "todo.updated", "file.edited", "message.updated", "message.part.updated",
])

class Engine {
  private proc: ReturnType<typeof spawn> | undefined
  private buf = ""
  private nextID = 1
  private pending = new Map<number, Pending>()
  private starts = 0
  private failure = ""

  constructor(private bin: string, private dir: string, private log: (msg: string) => void) {}

  private start(): void {
    this.starts++
    const proc = spawn(this.bin, SERVE_ARGS, { cwd: this.dir, stdio: ["pipe", "pipe", "pipe"], env: process.env })
    this.proc = proc
    this.buf = ""
    proc.stdout!.setEncoding("utf8")
    proc.stdout!.on("data", (chunk: string) => this.read(chunk))
    proc.stderr!.setEncoding("utf8")
    proc.stderr!.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) if (line.trim()) this.log(`engine: ${line.trim()}`)
    })
    proc.stdin!.on("error", () => {}) // reported by "exit"/"error" below
    const gone = (why: string) => {
      if (this.proc !== proc) return
      this.proc = undefined
      this.failure = why
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer)
        p.reject(new Error(why))
        this.pending.delete(id)
      }
    }
    proc.on("error", (err: Error) => gone(`could not run ${this.bin}: ${err.message}`))
    proc.on("exit", (code: number | null, signal: string | null) => gone(`${this.bin} exited (${signal ?? code})`))
    proc.unref()
    ;(proc.stdout as Json).unref?.()
    ;(proc.stderr as Json).unref?.()
    ;(proc.stdin as Json).unref?.()
  }

  private read(chunk: string): void {
    this.buf += chunk
    let nl: number
    while ((nl = this.buf.indexOf("\n")) >= 0) {
      const line = this.buf.slice(0, nl)
      this.buf = this.buf.slice(nl + 1)
      if (!line.trim()) continue
      let msg: Json
      try {
        msg = JSON.parse(line)
      } catch {
        this.log(`engine wrote a line that is not JSON: ${line.slice(0, 200)}`)
        continue
      }
      const p = this.pending.get(msg.id)
      if (!p) continue
      this.pending.delete(msg.id)
      clearTimeout(p.timer)
      if (msg.error?.code === BUSY) p.reject(new Error("the engine is busy: too many hooks are waiting for its answer"))
      else if (msg.error) p.reject(new Error(`engine error ${msg.error.code}: ${msg.error.message}`))
      else p.resolve((msg.result ?? {}) as Result)
    }
  }

  call(method: string, params: Json, timeoutMs = TIMEOUT_MS): Promise<Result> {
    if (!this.proc) {
      // First use, or the engine died: start it (a crash is restarted once).
      if (this.starts >= 2) return Promise.reject(new Error(`the engine is down: ${this.failure}`))
      if (this.starts === 1) this.log(`restarting the engine after: ${this.failure}`)
      this.start()
    }
    const id = this.nextID++
    const line = JSON.stringify({ v: PROTOCOL, id, method, params }) + "\n"
    return new Promise<Result>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new Error(`no answer within ${timeoutMs} ms`))
      }, timeoutMs)
      this.pending.set(id, { resolve, reject, timer })
      try {
        this.proc!.stdin!.write(line)
      } catch (err) {
        clearTimeout(timer)
        this.pending.delete(id)
        reject(err as Error)
      }
    })
  }

  stop(): void {
    this.proc?.stdin?.end()
  }
}

export const AtreidesPlugin = async (input: PluginInput, options?: Record<string, Json>): Promise<Hooks> => {
  const directory = input.directory
  if (OWNED.has(input)) return {}
  OWNED.add(input)
  const bin = (typeof options?.bin === "string" && options.bin) || process.env.ATREIDES_BIN || DEFAULT_BIN || "atreides"
  const log = (message: string) => {
    try {
      const r = input.client?.app?.log?.({ body: { service: "atreides", level: "warn", message } })
      r?.catch?.(() => console.error(`[atreides] ${message}`))
    } catch {
      console.error(`[atreides] ${message}`)
    }
  }
  const engine = new Engine(bin, directory, log)
  const warn = (r: Result) => r.warn?.forEach((w) => log(w))

  // ask forwards one hook; on failure it logs one line and answers nothing
  // (fail open). tool.execute.before handles its own failure (fail closed).
  const ask = async (method: string, params: Json): Promise<Result> => {
    try {
      const r = await engine.call(method, { directory, ...params })
      warn(r)
      return r
    } catch (err) {
      log(`${method}: going on without atreides: ${(err as Error).message}`)
      return {}
    }
  }

  const continuePrompt = async (sessionID: string, text: string) => {
    const body = { parts: [{ type: "text", text }] }
    const session = input.client?.session
    try {
      if (session?.promptAsync) await session.promptAsync({ path: { id: sessionID }, body })
      else await session?.prompt?.({ path: { id: sessionID }, body })
    } catch (err) {
      log(`could not send the continuation prompt: ${(err as Error).message}`)
    }
  }

  const runner = backgroundRunner(engine, directory, input.client, log)
  const tools = await agentTools(engine, directory, log, runner)

  return {
    tool: tools,
    // The roster's agents, added to OpenCode's configuration in memory; an
    // agent the user configured under the same id keeps the user's fields.
    config: async (cfg: Json) => {
      const r = await ask("config", {})
      if (!r.agents || !cfg) return
      cfg.agent = cfg.agent ?? {}
      for (const [id, a] of Object.entries(r.agents)) cfg.agent[id] = { ...(a as Json), ...(cfg.agent[id] ?? {}) }
    },
    "tool.execute.before": async (i, o) => {
      let r: Result
      try {
        r = await engine.call("tool.before", { directory, input: i, output: o })
      } catch (err) {
        throw new Error(
          `atreides could not check this ${i?.tool ?? "tool"} call (${(err as Error).message}), so it is blocked. ` +
            "Retry; if it keeps failing, ask the user to run `atreides doctor`.",
        )
      }
      warn(r)
      if (r.block) throw new Error(r.block)
      if (r.args && typeof r.args === "object" && o && typeof o.args === "object") {
        for (const k of Object.keys(o.args)) delete o.args[k]
        Object.assign(o.args, r.args)
      }
    },
    "tool.execute.after": async (i, o) => {
      const r = await ask("tool.after", { input: i, output: { title: o?.title, output: o?.output, metadata: o?.metadata } })
      if (r.output && o) o.output = r.output
      if (r.append && o) o.output = (typeof o.output === "string" && o.output ? o.output + "\n\n" : "") + r.append
    },
    "experimental.chat.messages.transform": async (_i, o) => {
      const msgs: Json[] = Array.isArray(o?.messages) ? o.messages : []
      const sessionID = msgs.at(-1)?.info?.sessionID
      if (!sessionID) return
      const list = msgs.map((m) => ({ id: m?.info?.id, role: m?.info?.role }))
      const r = await ask("messages.transform", { input: { sessionID }, output: { messages: list } })
      for (const p of r.inject ?? []) {
        const m = msgs.find((m) => m?.info?.id === p.messageID)
        if (!m || !Array.isArray(m.parts) || m.parts.some((x: Json) => x?.id === p.id)) continue
        m.parts.push({ id: p.id, sessionID, messageID: p.messageID, type: "text", text: p.text, synthetic: true })
      }
    },
    "experimental.chat.system.transform": async (i, o) => {
      const r = await ask("system.transform", { input: { sessionID: i?.sessionID }, output: { system: o?.system?.slice(0, 1) } })
      if (r.system?.length && Array.isArray(o?.system)) o.system.push(...r.system)
    },
    "experimental.session.compacting": async (i, o) => {
      const r = await ask("session.compacting", { input: i, output: {} })
      if (r.context?.length && Array.isArray(o?.context)) o.context.push(...r.context)
      if (r.prompt && o) o.prompt = r.prompt
    },
    "experimental.text.complete": async (i, o) => {
      const r = await ask("text.complete", { input: i, output: { text: o?.text } })
      if (typeof r.text === "string" && o) o.text = r.text
    },
    "chat.message": async (i, o) => {
      // The message's agent answers the prompt (the input names one only
      // when the prompt asked for it).
      const r = await ask("chat.message", { input: i, output: { parts: o?.parts, message: { agent: o?.message?.agent } } })
      if (r.block) throw new Error(r.block)
      // The first message of a main session: the configured model variant,
      // unless the user picked one (the message then carries it).
      if (r.variant && o?.message && o.message.variant == null) o.message.variant = r.variant
    },
    event: async ({ event }) => {
      if (event?.type === "session.idle" || event?.type === "session.status") runner.nudge()
      if (!event || !EVENTS.has(event.type)) return
      const part = event.properties?.part
      if (event.type === "message.part.updated" && (part?.type !== "text" || !part?.time?.end)) return
      const r = await ask("event", { input: { event } })
      const sessionID = event.properties?.sessionID
      if (r.continue && event.type === "session.idle" && sessionID) await continuePrompt(sessionID, r.continue)
    },
    dispose: async () => {
      runner.stop()
      engine.stop()
    },
  } as Hooks
}

// ---- atreides's tools as plugin tools -------------------------------------

// A tool call may wait for background work (background_output's wait), so
// it has a deadline of its own, a little past the engine's.
const TOOL_TIMEOUT_MS = 66 * 60_000

// agentTools asks the engine for atreides's tools once, at start (OpenCode
// reads the tool map once), and registers each as atreides_<name> with
// its JSON Schema as is: plain JSON-Schema args (no zod) make OpenCode
// pass the schema through and the engine validate. A call runs in the
// engine for the calling session and agent; a tool's error is thrown, so
// the model reads it as the tool's failure.
async function agentTools(engine: Engine, directory: string, log: (m: string) => void, runner: Runner): Promise<Record<string, Json>> {
  let list: Json
  try {
    list = await engine.call("tools.list", { directory })
  } catch (err) {
    log(`no atreides tools in this session: ${(err as Error).message}`)
    return {}
  }
  if (list.poll_ms) runner.pollMs = list.poll_ms
  const out: Record<string, Json> = {}
  for (const t of list.tools ?? []) {
    const schema = t.schema ?? {}
    out[t.name] = {
      description: t.description,
      args: schema.properties ?? {},
      execute: async (args: Json, ctx: Json) => {
        const r: Json = await engine.call(
          "tool.call",
          { directory, tool: t.name, sessionID: ctx?.sessionID, agent: ctx?.agent, args: args ?? {} },
          TOOL_TIMEOUT_MS,
        )
        if (r.tick) runner.nudge()
        if (r.error) throw new Error(r.error)
        return r.output ?? ""
      },
    }
  }
  return out
}

// ---- the background runner -------------------------------------------------

type Runner = { nudge: () => void; stop: () => void; pollMs: number }

// backgroundRunner runs atreides's background tasks launched from OpenCode
// sessions as child sessions, through OpenCode's in-process client (there
// is no HTTP server in `opencode run`). The engine decides everything in a
// background.tick: the plugin reports what it launched and what it sees of
// the children it was told to watch, then does what the answer says
// (launch, abort). It ticks on a timer only while the engine says tasks
// are pending, and right away after a tool call or a session going idle.
function backgroundRunner(engine: Engine, directory: string, client: Json, log: (m: string) => void): Runner {
  let watch: { task: string; child: string }[] = []
  let launched: Json[] = []
  let running = false
  let again = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const self: Runner = { nudge: () => void tick(), stop: () => { stopped = true; if (timer) clearTimeout(timer) }, pollMs: 1000 }

  const tick = async (): Promise<void> => {
    if (stopped) return
    if (running) {
      again = true // one tick at a time; a nudge during one runs another after it
      return
    }
    running = true
    if (timer) clearTimeout(timer)
    timer = undefined
    let pending = false
    try {
      const observed = await observe(client, watch)
      const report = launched
      launched = []
      const r: Json = await engine.call("background.tick", { directory, launched: report, observed })
      if (r.poll_ms) self.pollMs = r.poll_ms
      watch = r.watch ?? []
      pending = !!r.pending
      for (const a of r.abort ?? []) {
        try {
          await client.session.abort({ path: { id: a.child } })
        } catch (err) {
          log(`background ${a.task}: could not abort ${a.child}: ${(err as Error).message}`)
        }
      }
      for (const l of r.launch ?? []) launched.push(await launch(client, l))
      if (launched.length) again = true
    } catch (err) {
      log(`background tick: ${(err as Error).message}`)
      pending = watch.length > 0 || launched.length > 0
    } finally {
      running = false
    }
    if (stopped) return
    if (again) {
      again = false
      setTimeout(() => void tick(), 0)
    } else if (pending) {
      timer = setTimeout(() => void tick(), self.pollMs)
      ;(timer as Json).unref?.()
    }
  }
  return self
}

// launch starts one task: a child session of its parent, prompted without
// waiting; the report names the child or why it did not start.
async function launch(client: Json, l: Json): Promise<Json> {
  try {
    // A resume prompts the earlier task's child session again.
    let child = l.session
    if (!child) {
      const created = await client.session.create({ body: { parentID: l.parent, title: l.title } })
      child = created?.data?.id ?? created?.id
      if (!child) throw new Error(`no session id in ${JSON.stringify(created?.error ?? created).slice(0, 200)}`)
    }
    const body: Json = { parts: [{ type: "text", text: l.prompt }] }
    // The task's model ("provider/model"): category, agent, then parent.
    const slash = typeof l.model === "string" ? l.model.indexOf("/") : -1
    if (slash > 0) body.model = { providerID: l.model.slice(0, slash), modelID: l.model.slice(slash + 1) }
    // An agent OpenCode does not know (the roster not installed) would
    // fail the prompt after it was accepted: its default agent runs it.
    if (l.agent && (await openCodeAgents(client)).has(l.agent)) body.agent = l.agent
    const r = await client.session.promptAsync({ path: { id: child }, body })
    if (r?.error) return { task: l.task, child, error: JSON.stringify(r.error).slice(0, 300) }
    return { task: l.task, child }
  } catch (err) {
    return { task: l.task, error: (err as Error).message }
  }
}

let agentNames: Promise<Set<string>> | undefined

// openCodeAgents is the agents OpenCode knows, asked once.
function openCodeAgents(client: Json): Promise<Set<string>> {
  agentNames ??= Promise.resolve(client.app?.agents?.())
    .then((r: Json) => new Set<string>((r?.data ?? []).map((a: Json) => a?.name)))
    .catch(() => new Set<string>())
  return agentNames
}

// observe looks at each watched child: its status, message count, whether
// and what it last answered, its open todos and the error its last
// answer ended in.
async function observe(client: Json, watch: { task: string; child: string }[]): Promise<Json[]> {
  if (!watch.length) return []
  const status = (await client.session.status())?.data ?? {}
  const out: Json[] = []
  for (const w of watch) {
    const o: Json = { task: w.task, child: w.child, status: status[w.child]?.type ?? "idle", messages: 0, answered: false, open_todos: 0 }
    const msgs = await client.session.messages({ path: { id: w.child } })
    if (msgs?.error || !Array.isArray(msgs?.data)) {
      o.status = msgs?.response?.status === 404 ? "missing" : o.status
      out.push(o)
      continue
    }
    o.messages = msgs.data.length
    for (const m of msgs.data) {
      if (m?.info?.role !== "assistant") continue
      const text = (m.parts ?? []).filter((p: Json) => p?.type === "text" && !p.synthetic).map((p: Json) => p.text ?? "").join("").trim()
      if (text) {
        o.answered = true
        o.last = text
      }
      o.error = m.info.error ? String(m.info.error.data?.message ?? m.info.error.name ?? "error") : undefined
    }
    const todos = await client.session.todo({ path: { id: w.child } })
    o.open_todos = (todos?.data ?? []).filter((t: Json) => t?.status !== "completed" && t?.status !== "cancelled").length
    out.push(o)
  }
  return out
}
