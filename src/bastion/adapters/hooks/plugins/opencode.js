// Bastion's gate for opencode, written by `bastion install opencode` (re-run it to update;
// `bastion uninstall opencode` removes this file). Every tool call asks Bastion first:
// the call runs only when Bastion's answer is a clear allow. A denial, a timeout, a dead
// or missing `bastion`, an answer that cannot be read: the call is refused (thrown).
import { spawn } from "node:child_process"

const BASTION_HOOK = "__BASTION_HOOK__" // the command, as a JSON array of words
const TIMEOUT_MS = "__BASTION_TIMEOUT_MS__"
const MAX_ANSWER = 8 * 1024 * 1024
const MAX_REMEMBERED = 256

class Refused extends Error {}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

// Runs the hook once: resolves { code, stdout, stderr }; rejects on any failure to run it.
function runHook(payload) {
  return new Promise((resolve, reject) => {
    const words = JSON.parse(BASTION_HOOK)
    const child = spawn(words[0], words.slice(1), { stdio: ["pipe", "pipe", "pipe"] })
    const out = []
    const err = []
    let size = 0
    let done = false
    const finish = (fn, value) => {
      if (done) return
      done = true
      clearTimeout(timer)
      fn(value)
    }
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      finish(reject, new Refused(`Bastion gave no answer within ${Number(TIMEOUT_MS) / 1000} s`))
    }, Number(TIMEOUT_MS) + 5000)
    const keep = (chunks) => (chunk) => {
      size += chunk.length
      if (size > MAX_ANSWER) {
        child.kill("SIGKILL")
        finish(reject, new Refused("Bastion's answer is too large"))
        return
      }
      chunks.push(chunk)
    }
    child.stdout.on("data", keep(out))
    child.stderr.on("data", keep(err))
    child.on("error", (error) => finish(reject, new Refused(`cannot run Bastion: ${error.message}`)))
    child.on("close", (code, signal) =>
      finish(resolve, {
        code: signal ? -1 : code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    )
    child.stdin.on("error", () => {}) // a hook that exits early: its exit code decides
    child.stdin.end(JSON.stringify(payload))
  })
}

// Bastion's answer as an object, or a refusal with the best reason there is.
async function decide(payload) {
  const { code, stdout, stderr } = await runHook(payload)
  let answer
  try {
    answer = JSON.parse(stdout)
  } catch {
    answer = undefined
  }
  if (!isObject(answer)) {
    const said = stderr.trim() || `exit ${code}`
    throw new Refused(`Bastion's answer could not be read (${said.slice(0, 500)})`)
  }
  const reason = typeof answer.reason === "string" ? answer.reason : stderr.trim()
  if (code !== 0 || answer.decision !== "allow") {
    throw new Refused(reason || `Bastion refused the call (exit ${code})`)
  }
  return answer
}

function refusal(error) {
  const text = error instanceof Refused ? error.message : `cannot decide safely: ${error}`
  return new Error(`Bastion: ${text}`)
}

// opencode runs the tool with this very object: replace its keys in place.
function rewrite(args, replacement) {
  if (!isObject(replacement) || typeof replacement.command !== "string") {
    throw new Refused("Bastion's rewritten call is not a command")
  }
  for (const key of Object.keys(args)) if (!(key in replacement)) delete args[key]
  Object.assign(args, replacement)
}

export const BastionGate = async ({ client, directory }) => {
  const seen = new Map() // callID -> the call as the model asked it, for permission.asked

  return {
    "tool.execute.before": async (input, output) => {
      try {
        const args = output.args ?? {}
        const asked = { tool: input.tool, args: JSON.parse(JSON.stringify(args)) }
        seen.set(input.callID, asked)
        while (seen.size > MAX_REMEMBERED) seen.delete(seen.keys().next().value)
        const answer = await decide({
          hook_event_name: "tool.execute.before",
          cwd: directory,
          session_id: input.sessionID,
          tool_use_id: input.callID,
          tool_name: input.tool,
          tool_input: asked.args,
        })
        if (answer.args !== undefined) rewrite(args, answer.args)
      } catch (error) {
        throw refusal(error)
      }
    },

    // `opencode serve` waits for an answer to its own permission prompts: Bastion gives it.
    event: async ({ event }) => {
      if (!isObject(event) || event.type !== "permission.asked") return
      const request = event.properties ?? {}
      const call = seen.get(request.tool?.callID)
      let reply = "reject"
      let message
      try {
        if (!call) throw new Refused(`no tool call Bastion decided asks for ${request.permission}`)
        const answer = await decide({
          hook_event_name: "permission.asked",
          cwd: directory,
          session_id: request.sessionID,
          tool_use_id: request.tool?.callID,
          tool_name: call.tool,
          tool_input: call.args,
        })
        reply = answer.reply === "once" ? "once" : "reject"
      } catch (error) {
        message = refusal(error).message
      }
      await client.postSessionIdPermissionsPermissionId({
        path: { id: request.sessionID, permissionID: request.id },
        body: { response: reply },
      })
      if (message) console.error(message)
    },
  }
}
